/**
 * The editor's source editor and autosave in a real browser (issue 37, item
 * 5), set up as `dashboard-browser.test.ts` is: Debian's Chromium driven by
 * playwright-core. CodeMirror comes from the dashboard's own address and
 * runs under the dashboard's CSP (its styles as a constructed style sheet:
 * no violation reported); what is typed in it is what Save saves; Tab
 * leaves it; autosave says what it did in a live region (a draft saved, a
 * published translation's text kept privately, then offered back); an
 * Arabic translation's editor is right to left; and axe-core finds nothing
 * on the editor with CodeMirror at desktop and phone widths, light and dark.
 */
import { type Browser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeScreens, CHROMIUM, chromiumAvailable, launchSignedIn, type Screen, watchedContext as watchedWith, WINDOWS } from '../helpers/dashboard-browser.ts';
import { accountWithPassword, createArticle, createChannel } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const available = chromiumAvailable();
const ARABIC_TITLE = 'مرحبا بالعالم';

describe.skipIf(!available)(available ? 'the source editor in headless Chromium' : `the source editor in headless Chromium (skipped: ${CHROMIUM} is not installed)`, () => {
  let t: TestService;
  let browser: Browser;
  let key: string;
  let signedIn: Cookie[];
  /** The editors: a draft with an Arabic translation, and a published article. */
  let draftEditor: string;
  let arabicEditor: string;
  let liveEditor: string;

  /** A context with ana's session whose pages' errors, CSP refusals and requests elsewhere are collected. */
  async function watchedContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; problems: string[] }> {
    const { context, problems } = await watchedWith(browser, { cookies: signedIn, context: options });
    context.on('page', (page) => {
      page.on('request', (r) => !r.url().startsWith(t.url) && !r.url().startsWith('data:') && problems.push(`request elsewhere: ${r.url()}`));
    });
    return { context, problems };
  }

  const api = async (slug: string) => (await t.request('GET', `/api/v1/channels/ana-news/pages/${slug}`, { key })).json;
  const stored = async (slug: string, language = 'en') => (await api(slug)).translations.find((tr: { language: string }) => tr.language === language);

  /** Opens an editor and waits for CodeMirror to stand in for the body's textarea. */
  async function openEditor(page: Page, address: string): Promise<void> {
    await page.goto(`${t.url}${address}`);
    await page.locator('.cm-editor .cm-content').waitFor();
  }

  beforeAll(async () => {
    t = await startTestService();
    key = await accountWithPassword(t, 'ana', 'pro');
    await createChannel(t, key, 'Ana news');
    const draft = await createArticle(t, key, 'ana-news', {
      slug: 'draft',
      default_language: 'en',
      status: 'draft',
      translations: [
        { language: 'en', title: 'A draft', content_markdown: '# Heading\n\nSome *emphasis* and a [link](https://example.com).' },
        { language: 'ar', title: ARABIC_TITLE, content_markdown: 'مرحبا.' },
      ],
    });
    const live = await createArticle(t, key, 'ana-news', { slug: 'live', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Live story', content_markdown: 'What readers read.' }] });
    await t.service.worker.runDue();
    const base = new URL(draft.edit_url).pathname;
    draftEditor = `${base}/translations/en`;
    arabicEditor = `${base}/translations/ar`;
    liveEditor = `${new URL(live.edit_url).pathname}/translations/en`;
    ({ browser, signedIn } = await launchSignedIn(t.url));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('shows CodeMirror from the dashboard’s own address under its CSP, named by the label, and saves what is typed in it', async () => {
    const { context, problems } = await watchedContext();
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await openEditor(page, draftEditor);
    // The dashboard's own scripts only: the source editor, and the image upload's.
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toMatch(/^\/dashboard\/assets\/source-editor-[0-9a-f]{12}\.js$/);
    expect(scripts[1]).toMatch(/^\/dashboard\/assets\/images-[0-9a-f]{12}\.js$/);
    // The textarea stays the form's field, out of sight; CodeMirror's styles are a constructed sheet, applied.
    expect(await page.locator('textarea[name="content_markdown"]').isHidden()).toBe(true);
    expect(await page.evaluate(() => [document.adoptedStyleSheets.length, document.querySelectorAll('style').length])).toEqual([1, 0]);
    expect(await page.locator('.cm-editor').evaluate((el) => getComputedStyle(el).display)).toBe('flex');
    // Markdown is highlighted: the heading's line has a span of its own.
    expect(await page.locator('.cm-line').first().locator('span').count()).toBeGreaterThan(0);
    const body = page.getByRole('textbox', { name: 'Body (Markdown)' });
    expect(await body.count()).toBe(1);
    expect(await body.getAttribute('aria-multiline')).toBe('true');
    // A click on the label's text goes to the editor.
    await page.locator('#content_markdown-label').click();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).toBe(true);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Typed in **CodeMirror**.');
    expect(await page.locator('textarea[name="content_markdown"]').inputValue()).toContain('Typed in **CodeMirror**.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    const saved = await stored('draft');
    expect(saved.content_markdown).toMatch(/\(https:\/\/example\.com\)\.\n\nTyped in \*\*CodeMirror\*\*\.\n$/);
    expect(saved.status).toBe('draft');
    await context.close();
    expect(problems).toEqual([]);
  });

  it('leaves Tab to move the focus: from the body to the next field, nothing inserted', async () => {
    const { context, problems } = await watchedContext();
    const page = await context.newPage();
    await openEditor(page, draftEditor);
    const before = await page.locator('textarea[name="content_markdown"]').inputValue();
    await page.locator('.cm-content').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('seo_title');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('excerpt');
    expect(await page.locator('textarea[name="content_markdown"]').inputValue()).toBe(before);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('autosaves a draft a few seconds after typing stops, saying so in a polite live region', async () => {
    const { context, problems } = await watchedContext();
    const page = await context.newPage();
    await openEditor(page, draftEditor);
    const status = page.locator('#autosave-status');
    expect(await status.getAttribute('role')).toBe('status');
    expect(await status.textContent()).toBe('');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Autosaved words.');
    await status.filter({ hasText: /^Saved as draft at \d\d:\d\d UTC\.$/ }).waitFor({ timeout: 30_000 });
    const saved = await stored('draft');
    expect(saved.content_markdown).toContain('Autosaved words.');
    expect(saved.status).toBe('draft');
    // The form now stands on the version autosave left: Save is no conflict with it.
    expect(await page.locator('input[name="version"]').inputValue()).toBe(saved.version);
    await page.locator('#title').fill('A draft, then saved');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await stored('draft')).title).toBe('A draft, then saved');
    await context.close();
    expect(problems).toEqual([]);
  });

  it('keeps a published translation’s text privately, live page untouched, and offers it back when the editor opens again', async () => {
    const { context, problems } = await watchedContext();
    const page = await context.newPage();
    const before = await stored('live');
    await openEditor(page, liveEditor);
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Not for readers yet.');
    await page.locator('#autosave-status').filter({ hasText: /^Autosaved at \d\d:\d\d UTC, not yet submitted: press Save to submit it\.$/ }).waitFor({ timeout: 30_000 });
    expect(await stored('live')).toEqual(before);
    await page.goto(`${t.url}${liveEditor}`);
    await page.locator('.cm-content').waitFor();
    await page.getByRole('link', { name: /^Restore the text you were writing \(autosaved at .* UTC\)$/ }).waitFor();
    expect(await page.locator('#autosave-status').textContent()).toContain('Autosave is off until you restore or discard');
    await page.getByRole('link', { name: /^Restore the text you were writing/ }).click();
    await page.locator('.cm-content', { hasText: 'Not for readers yet.' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved as a revision').waitFor();
    const after = await stored('live');
    expect([after.status, after.pending_revision?.moderation]).toEqual(['published', 'pending']);
    expect(after.content_markdown).toMatch(/^What readers read\.\s+Not for readers yet\.\n$/);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('shows an Arabic translation’s body right to left', async () => {
    const { context, problems } = await watchedContext();
    const page = await context.newPage();
    await openEditor(page, arabicEditor);
    expect(await page.locator('.cm-editor').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('.cm-content').evaluate((el) => [getComputedStyle(el).direction, el.getAttribute('lang')])).toEqual(['rtl', 'ar']);
    expect(await page.locator('.cm-content').textContent()).toBe('مرحبا.');
    await context.close();
    expect(problems).toEqual([]);
  });

  /** The editor's states with CodeMirror that axe checks. */
  const screens: readonly Screen[] = [
    { name: 'editor with CodeMirror', open: (page) => openEditor(page, draftEditor) },
    { name: 'Arabic editor with CodeMirror', open: (page) => openEditor(page, arabicEditor) },
    {
      name: 'editor, autosaved',
      open: async (page) => {
        await openEditor(page, draftEditor);
        await page.locator('.cm-content').click();
        await page.keyboard.type('x');
        await page.locator('#autosave-status', { hasText: 'Saved as draft' }).waitFor({ timeout: 30_000 });
      },
    },
    {
      name: 'editor, offering autosaved text',
      open: async (page) => {
        const version = (await stored('live')).version;
        const res = await page.request.post(`${t.url}${liveEditor}/autosave`, {
          headers: { origin: t.url },
          form: { version, title: 'Live story', excerpt: '', content_markdown: `Kept aside ${Math.random()}`, seo_title: '', seo_description: '' },
        });
        expect(res.status()).toBe(200);
        await openEditor(page, liveEditor);
        await page.getByRole('link', { name: /^Restore the text you were writing/ }).waitFor();
      },
    },
  ];

  it.each(WINDOWS)('passes axe on the editor with CodeMirror at $width px, $colorScheme, none wider than the window', async ({ width, colorScheme }) => {
    expect(await axeScreens(browser, { width, colorScheme }, screens, { cookies: signedIn })).toEqual([]);
  }, 180_000);
});
