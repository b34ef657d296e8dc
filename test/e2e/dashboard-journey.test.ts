/**
 * An editor's whole journey through the dashboard in headless Chromium
 * (issue 37, "What it must show"), from sign-in to an article readers get on
 * the public site: create a channel, write en and ar side by side, upload an
 * image with a focal point, preview the exact bytes and their diff, publish
 * with `publish_translations`, watch moderation turn final without a reload,
 * revise, restore an old revision, schedule, and meet a conflict when two
 * sessions edit one translation. Everything goes through the forms a person
 * uses; the publishing API and the public files are only read to check.
 *
 * `PRESSROOM_SCREENSHOTS_DIR=docs/dashboard npx vitest run test/e2e/dashboard-journey.test.ts`
 * renews the screenshots docs/DASHBOARD.md shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, fillSignIn, launchChromium, watched } from '../helpers/dashboard-browser.ts';
import { accountWithPassword } from '../helpers/dashboard-http.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const available = chromiumAvailable();
const AR_TITLE = 'جداول المد والجزر';
const AR_BODY = 'يرتفع الماء مرتين كل يوم.';
const SHOTS = process.env.PRESSROOM_SCREENSHOTS_DIR;

describe.skipIf(!available)(available ? 'an editor’s journey through the dashboard, in headless Chromium' : `the dashboard journey (skipped: ${CHROMIUM} is not installed)`, () => {
  let t: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key: string;
  /** The article's screen, as its edit_url names it. */
  let articlePath = '';
  const problems: string[] = [];

  /**
   * Errors the page logged and CSP refusals. Expected: the conflict page's 409, and the preview's frame refusing
   * the page's one script element (its JSON-LD data block): the preview runs no script, by its sandbox.
   */
  async function watch(ctx: BrowserContext): Promise<void> {
    await watched(ctx, { problems, ignore: /status of 409|Blocked script execution in '[^']*\/preview\/[a-z-]+\.html' because the document's frame is sandboxed/i });
  }

  /** Writes a screenshot for the docs when asked to. */
  async function shot(name: string, p: Page = page): Promise<void> {
    if (SHOTS) await p.screenshot({ path: path.join(SHOTS, name), fullPage: false });
  }

  /** The article as the publishing API reports it. */
  const article = async () => (await t.request('GET', `/api/v1/channels/field-notes/pages/tide-tables`, { key })).json;
  const translation = async (language: string) => (await article()).translations.find((tr: { language: string }) => tr.language === language);

  /** Runs what moderation has due, then waits until the build has written what it decided. */
  async function moderateAndBuild(): Promise<void> {
    await t.service.worker.runDue();
    t.service.staticSite!.queue.kick();
    await t.service.staticSite!.queue.idle();
  }

  /** A public file as a reader's browser gets it from the bundled server. */
  const publicPage = async (address: string) => {
    const res = await fetch(`${t.url}${address}`);
    return { status: res.status, text: await res.text() };
  };

  /** Replaces the body in the editor: in the source editor when its script runs, else in the plain field. */
  async function writeBody(p: Page, text: string): Promise<void> {
    const editor = p.locator('.cm-content');
    if ((await editor.count()) > 0) {
      await editor.click();
      await p.keyboard.press('ControlOrMeta+a');
      await p.keyboard.insertText(text);
    } else {
      await p.locator('#content_markdown').fill(text);
    }
  }

  /** The body the form will send. */
  const bodyInForm = (p: Page) => p.locator('#content_markdown').inputValue();

  beforeAll(async () => {
    // The public site on the server's own address, as `npm start` has it: the preview's images load from there.
    const port = await freePort();
    t = await startTestService({ PORT: String(port), PRESSROOM_PUBLIC_URL: `http://127.0.0.1:${port}`, PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
    key = await accountWithPassword(t, 'ana', 'pro');
    if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await watch(context);
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('signs in and creates a channel through its form', async () => {
    await page.goto(`${t.url}/dashboard`);
    await page.waitForURL(/\/dashboard\/login\?next=/);
    await fillSignIn(page);
    await page.waitForURL(`${t.url}/dashboard`);
    await page.locator('#channel-title').fill('Field notes');
    await page.locator('#channel-slug').fill('field-notes');
    await page.locator('#channel-default_language').fill('en');
    await page.getByRole('button', { name: 'Create the channel' }).click();
    await page.waitForURL(/\/dashboard\/channels\/field-notes/);
    if (SHOTS) {
      await page.goto(`${t.url}/dashboard/channels/field-notes/settings`);
      await shot('channel-settings.png');
      await page.goto(`${t.url}/dashboard/channels/field-notes`);
    }
    const channels = (await t.request('GET', '/api/v1/channels', { key })).json.channels;
    expect(channels.map((c: { slug: string }) => c.slug)).toEqual(['field-notes']);
  });

  it('creates the article, then writes its Arabic translation beside the English', async () => {
    await page.locator('#new-title').fill('Tide tables');
    await page.locator('#new-slug').fill('tide-tables');
    await page.locator('#new-content_markdown').fill('The sea rises twice a day.');
    await page.getByRole('button', { name: 'Create the draft' }).click();
    await page.waitForURL(/\/dashboard\/channels\/field-notes\/pages\/\d+/);
    articlePath = new URL(page.url()).pathname;
    expect(articlePath).toBe(new URL((await article()).edit_url).pathname);

    await page.getByLabel('Add a translation: language code').fill('ar');
    await page.getByRole('button', { name: 'Add the translation' }).click();
    await page.waitForURL(/\/translations\/ar$/);
    // Side by side: the primary's texts beside the form, the form right to left.
    expect(await page.getByRole('heading', { name: 'The primary language (en)' }).count()).toBe(1);
    expect(await page.locator('#title').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await page.locator('#title').fill(AR_TITLE);
    await writeBody(page, AR_BODY);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await shot('editor.png');
    expect(await translation('ar')).toMatchObject({ title: AR_TITLE, status: 'draft' });
  });

  it('uploads an image with a focal point from the editor, and the body gets its Markdown', async () => {
    await page.goto(`${t.url}${articlePath}/translations/en`);
    const file = path.join(t.dir, 'harbour.png');
    // Left half dark, right half light: where the focal point is shows in every crop.
    const half = { width: 400, height: 300, channels: 3 as const };
    await sharp({ create: { ...half, background: '#123456' } })
      .extend({ right: 400, background: '#f0e0a0' })
      .png()
      .toFile(file);
    const form = page.locator('[data-upload-form]');
    await form.locator('input[type="file"]').setInputFiles(file);
    await form.getByLabel('Alt text', { exact: false }).fill('The harbour at low tide');
    // The focal point: a click on the chosen image's preview, right and high.
    const picker = form.locator('[data-focal-preview] img');
    await expect.poll(() => picker.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(800);
    await picker.scrollIntoViewIfNeeded();
    const box = (await picker.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.8, box.y + box.height * 0.25);
    expect(Number(await form.locator('input[name="position_x"]').inputValue())).toBeCloseTo(80, 0);
    expect(Number(await form.locator('input[name="position_y"]').inputValue())).toBeCloseTo(25, 0);
    // Something typed before the upload stays: the Markdown goes in at the cursor, and the source editor shows it.
    await writeBody(page, 'The sea rises twice a day.');
    await form.getByRole('button', { name: 'Upload the image' }).click();
    await expect.poll(() => bodyInForm(page), { timeout: 30_000 }).toMatch(/^The sea rises twice a day\.\n\n!\[The harbour at low tide\]\(\S+\)\n$/);
    expect(await page.locator('.cm-content').textContent()).toContain('![The harbour at low tide](');
    const stored = t.service.db;
    const rows = await stored.selectFrom('media').select(['focus_x', 'focus_y', 'alt']).where('purpose', '=', 'article').execute();
    expect(rows).toEqual([{ focus_x: 80, focus_y: 25, alt: 'The harbour at low tide' }]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await translation('en')).content_markdown).toMatch(/!\[The harbour at low tide\]\(/);
  });

  it('previews the exact bytes: the page in its frame, and each file publishing writes', async () => {
    await page.goto(`${t.url}${articlePath}`);
    await page.getByRole('link', { name: 'Preview what publishing writes' }).click();
    await page.waitForURL(/\/preview$/);
    const frame = page.frameLocator('iframe.preview-frame');
    await frame.locator('h1', { hasText: 'Tide tables' }).waitFor();
    const files = await page.locator('main').textContent();
    expect(files).toContain('field-notes/tide-tables.html');
    expect(files).toContain('field-notes/ar/tide-tables.html');
    await shot('preview.png');
    // Nothing of the draft is public yet.
    expect((await publicPage('/field-notes/tide-tables')).status).toBe(404);
  });

  it('publishes every translation and watches moderation turn final without a reload', async () => {
    await page.goto(`${t.url}${articlePath}`);
    await page.getByLabel('Publish now', { exact: false }).check();
    await page.getByLabel('Every translation', { exact: false }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('[data-live]').waitFor();
    const before = page.url();
    await moderateAndBuild();
    await page.locator('[data-cell="status-en"]', { hasText: 'published' }).waitFor({ timeout: 30_000 });
    await page.locator('[data-cell="status-ar"]', { hasText: 'published' }).waitFor({ timeout: 30_000 });
    await page.locator('#live-status', { hasText: 'Every state is final.' }).waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(before);
    await shot('article.png');

    const en = await publicPage('/field-notes/tide-tables');
    expect(en.status).toBe(200);
    expect(en.text).toContain('Tide tables');
    expect(en.text).toContain('alt="The harbour at low tide"');
    const ar = await publicPage('/field-notes/ar/tide-tables');
    expect(ar.status).toBe(200);
    expect(ar.text).toContain(AR_TITLE);
  });

  it('revises the published text: a revision waits for moderation while the live page stays, then replaces it', async () => {
    await page.goto(`${t.url}${articlePath}/translations/en`);
    await page.locator('#title').fill('Tide tables, revised');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved as a revision', { exact: false }).waitFor();
    expect((await publicPage('/field-notes/tide-tables')).text).not.toContain('Tide tables, revised');
    // The preview's diff shows the change against the live page.
    await page.goto(`${t.url}${articlePath}/preview`);
    expect(await page.locator('ins', { hasText: 'revised' }).count()).toBeGreaterThan(0);
    await moderateAndBuild();
    await expect.poll(async () => (await publicPage('/field-notes/tide-tables')).text, { timeout: 30_000 }).toContain('Tide tables, revised');
  });

  it('restores the first revision as a new save that goes through moderation', async () => {
    await page.goto(`${t.url}${articlePath}/translations/en/revisions`);
    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    await page.getByText('moderation', { exact: false }).first().waitFor();
    expect((await translation('en')).pending_revision).not.toBeNull();
    await moderateAndBuild();
    await expect
      .poll(async () => (await publicPage('/field-notes/tide-tables')).text, { timeout: 30_000 })
      .toMatch(/<h1[^>]*>Tide tables<\/h1>/);
  });

  it('schedules the article, shown in the calendar', async () => {
    await page.goto(`${t.url}${articlePath}`);
    await page.getByLabel('Back to draft', { exact: false }).check();
    await page.getByLabel('Every translation', { exact: false }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await article()).status, { timeout: 30_000 }).toBe('draft');
    await page.goto(`${t.url}${articlePath}`);
    await page.getByLabel('Schedule for the time below').check();
    await page.getByLabel('Time to publish at, in UTC', { exact: false }).fill('2026-12-24T09:30');
    await page.getByLabel('Every translation', { exact: false }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('[data-cell="article-status"]').waitFor();
    await moderateAndBuild();
    await expect.poll(async () => (await article()).status, { timeout: 30_000 }).toBe('scheduled');
    if (SHOTS) {
      await page.goto(`${t.url}/dashboard/channels/field-notes?state=scheduled`);
      await shot('articles.png');
    }
    await page.goto(`${t.url}/dashboard/scheduled/calendar?month=2026-12`);
    expect(await page.locator('table.calendar').textContent()).toContain('Tide tables');
    await shot('calendar.png');
    // Not yet due: readers do not get it.
    expect((await publicPage('/field-notes/tide-tables')).status).toBe(404);
  });

  it('meets a conflict when two sessions edit the same translation, and keeps neither silently', async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await watch(other);
    await other.addCookies(await context.cookies());
    const second = await other.newPage();
    await page.goto(`${t.url}${articlePath}/translations/ar`);
    await second.goto(`${t.url}${articlePath}/translations/ar`);
    await page.locator('#title').fill('العنوان الأول');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await second.locator('#title').fill('العنوان الثاني');
    await second.getByRole('button', { name: 'Save', exact: true }).click();
    await second.getByText('Someone else saved this translation').waitFor();
    await shot('conflict.png', second);
    expect((await translation('ar')).title).toBe('العنوان الأول');
    await second.getByRole('button', { name: 'Save mine over theirs' }).click();
    await second.getByText('Saved.', { exact: true }).waitFor();
    expect((await translation('ar')).title).toBe('العنوان الثاني');
    await other.close();
    expect(problems).toEqual([]);
  });
});
