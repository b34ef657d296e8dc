/**
 * The dashboard's image uploads in a real browser (issue 37, items 3 and 5),
 * in the pattern of dashboard-browser.test.ts (Debian's Chromium driven by
 * playwright-core): a file chosen in the editor shows its preview, a click
 * on it sets the focal point, the upload goes without a reload and its
 * Markdown lands in the body at the cursor with what was typed kept; the
 * avatar's picker moves with the arrow keys and draws the square crop; no
 * page logs an error or breaks its CSP (the preview is a blob: image); and
 * axe finds nothing on the editor and the settings page with their upload
 * forms, a preview shown and a refusal, at 1280 and 375 px, light and dark.
 */
import { type Browser, type Cookie } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeScreens, CHROMIUM, chromiumAvailable, launchSignedIn, type Screen, watchedContext, WINDOWS } from '../helpers/dashboard-browser.ts';
import { accountWithPassword, createArticle, createChannel } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const available = chromiumAvailable();

describe.skipIf(!available)(available ? 'image uploads in headless Chromium' : `image uploads in headless Chromium (skipped: ${CHROMIUM} is not installed)`, () => {
  let t: TestService;
  let browser: Browser;
  let key: string;
  let editorPath: string;
  let signedIn: Cookie[];
  /** A 1200 × 600 PNG, red on the left half and blue on the right. */
  let picture: Buffer;

  /**
   * A context with ana's session whose pages' errors and the policy's refusals are collected. A refused upload
   * answers 422, which Chromium reports like any error status: that one is expected where a test sends one.
   */
  const withSession = () => watchedContext(browser, { cookies: signedIn, ignore: /status of 422/ });

  const file = (name = 'halves.png', buffer = picture) => ({ name, mimeType: 'image/png', buffer });

  beforeAll(async () => {
    t = await startTestService();
    key = await accountWithPassword(t, 'ana', 'pro');
    await createChannel(t, key, 'Ana news');
    const created = await createArticle(t, key, 'ana-news', { slug: 'hello', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'Hello world', content_markdown: 'First paragraph.' }] });
    editorPath = `${new URL(created.edit_url).pathname}/translations/en`;
    const right = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#0000ff' } }).png().toBuffer();
    picture = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#ff0000' } }).composite([{ input: right, left: 600, top: 0 }]).png().toBuffer();
    ({ browser, signedIn } = await launchSignedIn(t.url));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('uploads from the editor without a reload: a click on the preview sets the focal point, the Markdown goes into the body at the cursor', async () => {
    const { context, problems } = await withSession();
    const page = await context.newPage();
    await page.goto(`${t.url}${editorPath}`);
    // With script, the section says what it does instead of "save your text first".
    expect(await page.locator('#article-image-how').textContent()).toContain('what you typed stays');
    // Typed in the source editor and not saved: the upload must not lose it. The cursor is left after "Typed,".
    const body = page.locator('#content_markdown');
    const source = page.locator('.cm-content');
    await source.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('Typed, not saved. More text.');
    await page.keyboard.press('ControlOrMeta+Home');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await body.evaluate((el: HTMLTextAreaElement) => {
      (window as unknown as { inputs: number }).inputs = 0;
      el.addEventListener('input', () => (window as unknown as { inputs: number }).inputs++);
    });
    await page.getByLabel('Image file').setInputFiles(file());
    const frame = page.locator('#article-image .focal-frame');
    await frame.waitFor();
    const img = frame.locator('img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.src)).toMatch(/^blob:/);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1200);
    // A click a quarter across and three quarters down (the mouse clicks in the window: the preview is scrolled into it).
    await img.scrollIntoViewIfNeeded();
    const box = (await img.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
    expect(Number(await page.locator('#article-image-position_x').inputValue())).toBeCloseTo(25, -0.5);
    expect(Number(await page.locator('#article-image-position_y').inputValue())).toBeCloseTo(75, -0.5);
    const marker = (await frame.locator('.focal-marker').boundingBox())!;
    expect(Math.abs(marker.x + marker.width / 2 - (box.x + box.width * 0.25))).toBeLessThan(4);
    await page.getByLabel('Alt text: what the image shows').fill('Red and blue halves');
    await page.getByRole('button', { name: 'Upload the image' }).click();
    await page.locator('#article-image-status', { hasText: 'is in the body' }).waitFor();
    // No reload: the page is the one loaded, the typed text kept with the image's Markdown where the cursor was.
    const value = await body.inputValue();
    expect(value).toMatch(/^Typed,\n\n!\[Red and blue halves\]\(http:\/\/pressroom\.test\/media\/ana-news\/hello\/[0-9a-f]{16}\.webp\)\n\n not saved\. More text\.$/);
    expect(await page.evaluate(() => (window as unknown as { inputs: number }).inputs)).toBe(1);
    // The source editor shows it, as one edit.
    expect(await source.textContent()).toContain('Typed,![Red and blue halves](');
    expect(await page.locator('#article-image-markdown').inputValue()).toBe(/!\[.*\)/.exec(value)![0]);
    // Stored with the focal point clicked (the draft's text itself is saved by Save, or by autosave, not by the upload).
    const row = await t.service.db.selectFrom('media').select(['alt', 'focus_x', 'focus_y']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.alt).toBe('Red and blue halves');
    expect([Math.abs(row.focus_x - 25) <= 2, Math.abs(row.focus_y - 75) <= 2]).toEqual([true, true]);
    // The uploaded image shows from the dashboard's own server.
    await expect.poll(() => page.locator('.uploaded img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1200);
    // Saving keeps the image in the body.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await t.request('GET', '/api/v1/channels/ana-news/pages/hello', { key })).json.translations[0].content_markdown).toContain('![Red and blue halves](');
    await context.close();
    expect(problems).toEqual([]);
  });

  it('shows a refusal beside its field without a reload, nothing inserted, and takes the next file from the form put in place', async () => {
    const { context, problems } = await withSession();
    const page = await context.newPage();
    await page.goto(`${t.url}${editorPath}`);
    const before = await page.locator('#content_markdown').inputValue();
    await page.getByLabel('Image file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await page.getByLabel('Alt text: what the image shows').fill('Notes');
    await page.getByRole('button', { name: 'Upload the image' }).click();
    await page.locator('#article-image-image-problem').waitFor();
    expect(await page.locator('#article-image-image-problem').textContent()).toContain('could not be read as an image');
    expect(await page.locator('#article-image-alt').inputValue()).toBe('Notes');
    expect(await page.locator('#content_markdown').inputValue()).toBe(before);
    expect(await page.locator('#article-image-status').textContent()).toContain('Nothing was uploaded');
    // The form put in place works as the first did: a good file now goes into the body.
    await page.getByLabel('Image file').setInputFiles(file());
    await page.getByRole('button', { name: 'Upload the image' }).click();
    await page.locator('#article-image-status', { hasText: 'is in the body' }).waitFor();
    expect(await page.locator('#content_markdown').inputValue()).toMatch(/\n\n!\[Notes\]\(http:\/\/pressroom\.test\/media\/ana-news\/hello\/[0-9a-f]{16}\.webp\)\n$/);
    await context.close();
    expect(problems).toEqual([]);
  });

  it("moves the avatar's focal point with the arrow keys, draws the square crop, and sets the avatar", async () => {
    const { context, problems } = await withSession();
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/channels/ana-news/settings`);
    await page.getByLabel('New avatar: image file').setInputFiles(file());
    const frame = page.locator('#avatar-image').locator('xpath=ancestor::form').locator('.focal-frame');
    await frame.waitFor();
    await expect.poll(() => frame.locator('img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1200);
    await frame.focus();
    // Shift+ArrowLeft five times: 50 → 0, the left edge.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('ArrowDown');
    expect([await page.locator('#avatar-position_x').inputValue(), await page.locator('#avatar-position_y').inputValue()]).toEqual(['0', '51']);
    // The crop: the square at the left, the image's full height.
    const image = (await frame.locator('img').boundingBox())!;
    const crop = (await frame.locator('.focal-crop').boundingBox())!;
    expect(Math.abs(crop.x - image.x)).toBeLessThan(2);
    expect(Math.abs(crop.width - image.height)).toBeLessThan(2);
    expect(await frame.locator('xpath=..').locator('[aria-live]').textContent()).toContain('0% from the left');
    await page.getByRole('button', { name: 'Upload the avatar' }).click();
    await page.getByText('The new avatar is uploaded').waitFor();
    const avatar = (await t.request('GET', '/api/v1/channels/ana-news', { key })).json.avatar_url as string;
    expect(avatar).toMatch(/\/media\/ana-news\/_channel\/avatar-[0-9a-f]{16}\.webp$/);
    const shown = page.locator('img.current-avatar');
    expect(await shown.getAttribute('src')).toBe(new URL(avatar).pathname);
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(512);
    // The left (red) half was kept.
    const pixels = await sharp(Buffer.from(await (await fetch(`${t.url}${new URL(avatar).pathname}`)).arrayBuffer())).stats();
    expect(pixels.channels[0]!.mean).toBeGreaterThan(240);
    await context.close();
    expect(problems).toEqual([]);
  });

  /** The screens axe checks, each opened in a page of a context holding ana's session. */
  const screens: readonly Screen[] = [
    { name: 'editor with the upload form', open: (page) => page.goto(`${t.url}${editorPath}`) },
    {
      name: 'editor, a file chosen (preview)',
      open: async (page) => {
        await page.goto(`${t.url}${editorPath}`);
        await page.getByLabel('Image file').setInputFiles(file());
        await page.locator('#article-image .focal-frame img').waitFor();
      },
    },
    {
      name: 'editor, uploaded without script (the Markdown to copy)',
      open: async (page) => {
        await page.goto(`${t.url}${editorPath}`);
        // The form as sent without script: the browser posts it and shows the answer.
        await page.getByLabel('Image file').setInputFiles(file());
        await page.getByLabel('Alt text: what the image shows').fill('Red and blue halves');
        await page.locator('[data-upload-form]').evaluate((form: HTMLFormElement) => HTMLFormElement.prototype.submit.call(form));
        await page.locator('#article-image-markdown').waitFor();
      },
    },
    {
      name: 'editor, a refused upload',
      open: async (page) => {
        await page.goto(`${t.url}${editorPath}`);
        await page.getByLabel('Image file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
        await page.getByLabel('Alt text: what the image shows').fill('Notes');
        await page.getByRole('button', { name: 'Upload the image' }).click();
        await page.locator('#article-image-image-problem').waitFor();
      },
    },
    { name: 'channel settings with avatar and cover', open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news/settings`) },
    {
      name: 'channel settings, a cover chosen (preview and crop)',
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/channels/ana-news/settings`);
        await page.getByLabel('New cover: image file').setInputFiles(file());
        await page.locator('#cover-image').locator('xpath=ancestor::form').locator('.focal-crop').waitFor();
      },
    },
    {
      name: 'channel settings, a refused cover',
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/channels/ana-news/settings`);
        await page.getByLabel('New cover: image file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
        await page.getByRole('button', { name: 'Upload the cover' }).click();
        await page.locator('#cover-image-problem').waitFor();
      },
    },
  ];

  it.each(WINDOWS)('passes axe on the editor and the settings with their upload forms at $width px, $colorScheme, none wider than the window', async ({ width, colorScheme }) => {
    expect(await axeScreens(browser, { width, colorScheme }, screens, { cookies: signedIn })).toEqual([]);
  }, 180_000);
});
