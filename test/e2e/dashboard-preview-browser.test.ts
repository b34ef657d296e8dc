/**
 * The preview screen (`dashboard/publish-preview.ts`) in headless Chromium:
 * the previewed page loads in its sandboxed frame with the site's style
 * sheet (from `/_astro/`, served from the output) and no policy refusal or
 * error, and axe-core finds nothing at desktop and phone widths, light and
 * dark, none wider than the window. Apart from `dashboard-browser.test.ts`
 * because a preview needs the static build, which that suite runs without.
 */
import { type Browser, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeScreens, chromiumAvailable, launchSignedIn, watchedContext, WINDOWS } from '../helpers/dashboard-browser.ts';
import { accountWithPassword, createArticle, createChannel } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const available = chromiumAvailable();

describe.skipIf(!available)('the preview screen in headless Chromium', () => {
  let t: TestService;
  let browser: Browser;
  let preview: string;
  let signedIn: Cookie[];

  beforeAll(async () => {
    t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true' });
    const key = await accountWithPassword(t, 'ana', 'pro');
    await createChannel(t, key, 'Ana news', { slug: 'ana-news' });
    const page = { slug: 'hello', default_language: 'en', translations: [{ language: 'en', title: 'Hello world', content_markdown: 'Hi.\n\nA first version.' }, { language: 'ar', title: 'مرحبا بالعالم', content_markdown: 'مرحبا.' }] };
    const created = await createArticle(t, key, 'ana-news', { ...page, status: 'published', publish_translations: true });
    await t.service.worker.runDue();
    // A revision waiting: the screen has changed files and diffs to show.
    const saved = await t.request('PUT', '/api/v1/channels/ana-news/pages/hello/translations/en', { key, body: { title: 'Hello again, world', content_markdown: 'Hi.\n\nA second version.' } });
    expect(saved.status, saved.text).toBe(200);
    await t.service.staticSite!.queue.settle(20_000);
    preview = `${new URL(created.edit_url).pathname}/preview`;
    ({ browser, signedIn } = await launchSignedIn(t.url));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('shows the page in its frame with the site style sheet, and no error or refusal', async () => {
    const { context, problems } = await watchedContext(browser, { cookies: signedIn, context: { viewport: { width: 1280, height: 900 } } });
    const stylesheets: Array<{ url: string; status: number }> = [];
    context.on('page', (page) => {
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
    const screens = [preview, `${preview}?language=ar`].map((address) => ({
      name: address,
      open: async (page: Page) => {
        await page.goto(`${t.url}${address}`);
        await page.frameLocator('iframe.preview-frame').locator('h1').waitFor();
      },
    }));
    expect(await axeScreens(browser, { width, colorScheme }, screens, { cookies: signedIn })).toEqual([]);
  }, 120_000);
});
