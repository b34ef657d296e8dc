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
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: .ci/run must install the Debian package "chromium".`);
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The rules of test/validate/check-axe.ts: WCAG 2.0–2.2 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const WINDOWS = [
  { width: 1280, colorScheme: 'light' },
  { width: 375, colorScheme: 'light' },
  { width: 1280, colorScheme: 'dark' },
  { width: 375, colorScheme: 'dark' },
] as const;
const PASSWORD = 'correct horse battery staple';
const ARABIC_TITLE = 'مرحبا بالعالم';

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

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
    const context = await browser.newContext(options);
    await context.addCookies(signedIn);
    const problems: string[] = [];
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    context.on('page', (page) => {
      page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && problems.push(`${page.url()}: ${m.text()}`));
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
    key = await t.key('ana', 'pro');
    await setPassword({ db: t.service.db, clock: t.clock }, 'ana', PASSWORD);
    expect((await t.request('POST', '/api/v1/channels', { key, body: { default_language: 'en', translations: [{ language: 'en', title: 'Ana news' }] } })).status).toBe(201);
    const draft = await t.request('POST', '/api/v1/channels/ana-news/pages', {
      key,
      body: {
        slug: 'draft',
        default_language: 'en',
        status: 'draft',
        translations: [
          { language: 'en', title: 'A draft', content_markdown: '# Heading\n\nSome *emphasis* and a [link](https://example.com).' },
          { language: 'ar', title: ARABIC_TITLE, content_markdown: 'مرحبا.' },
        ],
      },
    });
    expect(draft.status, draft.text).toBe(201);
    const live = await t.request('POST', '/api/v1/channels/ana-news/pages', {
      key,
      body: { slug: 'live', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Live story', content_markdown: 'What readers read.' }] },
    });
    expect(live.status, live.text).toBe(201);
    await t.service.worker.runDue();
    const base = new URL(draft.json.edit_url).pathname;
    draftEditor = `${base}/translations/en`;
    arabicEditor = `${base}/translations/ar`;
    liveEditor = `${new URL(live.json.edit_url).pathname}/translations/en`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/login`);
    await page.getByLabel('Account name').fill('ana');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard`);
    signedIn = await context.cookies();
    await context.close();
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
  const screens: ReadonlyArray<{ name: string; open: (page: Page) => Promise<unknown> }> = [
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
    const problems: string[] = [];
    // The page's CSP forbids injected scripts; axe is the tester's script, not the page's.
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme, bypassCSP: true });
    await context.addCookies(signedIn);
    for (const screen of screens) {
      const page = await context.newPage();
      await screen.open(page);
      await page.addScriptTag({ path: AXE_SOURCE });
      const violations = (await page.evaluate(
        (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
        TAGS,
      )) as AxeViolation[];
      for (const v of violations) problems.push(`${screen.name}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (scrollWidth > innerWidth) problems.push(`${screen.name}: the page is ${scrollWidth} px wide in a window of ${innerWidth} px`);
      await page.close();
    }
    await context.close();
    expect(problems).toEqual([]);
  }, 180_000);
});
