/**
 * The preview screen (`dashboard/publish-preview.ts`) in headless Chromium:
 * the previewed page loads in its sandboxed frame with the site's style
 * sheet (from `/_astro/`, served from the output) and no policy refusal or
 * error, and axe-core finds nothing at desktop and phone widths, light and
 * dark, none wider than the window. Apart from `dashboard-browser.test.ts`
 * because a preview needs the static build, which that suite runs without.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Cookie } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run must install the Debian package "chromium".`);

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const WINDOWS = [
  { width: 1280, colorScheme: 'light' },
  { width: 375, colorScheme: 'light' },
  { width: 1280, colorScheme: 'dark' },
  { width: 375, colorScheme: 'dark' },
] as const;
const PASSWORD = 'correct horse battery staple';

describe.skipIf(!available)('the preview screen in headless Chromium', () => {
  let t: TestService;
  let browser: Browser;
  let preview: string;
  let signedIn: Cookie[];

  beforeAll(async () => {
    t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true' });
    const key = await t.key('ana', 'pro');
    await setPassword({ db: t.service.db, clock: t.clock }, 'ana', PASSWORD);
    expect((await t.request('POST', '/api/v1/channels', { key, body: { slug: 'ana-news', default_language: 'en', translations: [{ language: 'en', title: 'Ana news' }] } })).status).toBe(201);
    const page = { slug: 'hello', default_language: 'en', translations: [{ language: 'en', title: 'Hello world', content_markdown: 'Hi.\n\nA first version.' }, { language: 'ar', title: 'مرحبا بالعالم', content_markdown: 'مرحبا.' }] };
    const created = await t.request('POST', '/api/v1/channels/ana-news/pages', { key, body: { ...page, status: 'published', publish_translations: true } });
    expect(created.status, created.text).toBe(201);
    await t.service.worker.runDue();
    // A revision waiting: the screen has changed files and diffs to show.
    const saved = await t.request('PUT', '/api/v1/channels/ana-news/pages/hello/translations/en', { key, body: { title: 'Hello again, world', content_markdown: 'Hi.\n\nA second version.' } });
    expect(saved.status, saved.text).toBe(200);
    await t.service.staticSite!.queue.settle(20_000);
    preview = `${new URL(created.json.edit_url).pathname}/preview`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    const context = await browser.newContext();
    const login = await context.newPage();
    await login.goto(`${t.url}/dashboard/login`);
    await login.getByLabel('Account name').fill('ana');
    await login.getByLabel('Password').fill(PASSWORD);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.waitForURL(`${t.url}/dashboard`);
    signedIn = await context.cookies();
    await context.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('shows the page in its frame with the site style sheet, and no error or refusal', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(signedIn);
    const problems: string[] = [];
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const stylesheets: Array<{ url: string; status: number }> = [];
    context.on('page', (page) => {
      page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && problems.push(`${page.url()}: ${m.text()}`));
      page.on('response', (r) => r.url().includes('/_astro/') && r.url().endsWith('.css') && stylesheets.push({ url: r.url(), status: r.status() }));
    });
    const page = await context.newPage();
    await page.goto(`${t.url}${preview}`);
    const frame = page.frameLocator('iframe.preview-frame');
    await frame.getByRole('heading', { name: 'Hello again, world' }).waitFor();
    expect(stylesheets.length).toBeGreaterThan(0);
    expect(stylesheets.every((s) => s.status === 200)).toBe(true);
    // The site's style sheet applies in the frame: its body is not the browser's default serif.
    const font = await frame.locator('body').evaluate((body) => getComputedStyle(body).fontFamily);
    expect(font).not.toBe('"Times New Roman"');
    if (process.env.PRESSROOM_PREVIEW_SCREENSHOT) await page.screenshot({ path: process.env.PRESSROOM_PREVIEW_SCREENSHOT, fullPage: true });
    await context.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it.each(WINDOWS)('passes axe at $width px, $colorScheme, none wider than the window', async ({ width, colorScheme }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme, bypassCSP: true });
    await context.addCookies(signedIn);
    const problems: string[] = [];
    for (const address of [preview, `${preview}?language=ar`]) {
      const page = await context.newPage();
      await page.goto(`${t.url}${address}`);
      await page.frameLocator('iframe.preview-frame').locator('h1').waitFor();
      await page.addScriptTag({ path: AXE_SOURCE });
      const violations = (await page.evaluate(
        (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
        TAGS,
      )) as Array<{ id: string; help: string; nodes: { target: unknown[] }[] }>;
      for (const v of violations) problems.push(`${address}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (scrollWidth > innerWidth) problems.push(`${address}: the page is ${scrollWidth} px wide in a window of ${innerWidth} px`);
      await page.close();
    }
    await context.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
