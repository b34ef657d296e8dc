/**
 * A reader in a real browser: headless Chromium (Debian's, driven by
 * playwright-core; no browser is downloaded) opens an article page served by
 * the bundled server, follows its alternate links and language switcher, and
 * runs a Pagefind search on the search page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: .ci/run must install the Debian package "chromium".`);
}

describe.skipIf(!available)(available ? 'in headless Chromium' : `in headless Chromium (skipped: ${CHROMIUM} is not installed)`, () => {
  let t: TestService;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestService(
      { PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_WATCH_CONTENT: 'false', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') },
      { startWorker: true },
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // The flags keep Chromium off the network this machine does not have.
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('shows an Arabic article right to left, with working alternate links and language switcher', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${t.url}/pressroom-journal/ar/welcome`);
    expect(response?.status()).toBe(200);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.locator('h1').count()).toBe(1);
    const alternates = await page.$$eval('link[rel="alternate"][type]', (links) =>
      links.map((l) => ({ type: l.getAttribute('type'), href: (l as HTMLLinkElement).href })),
    );
    for (const type of ['text/markdown', 'application/json', 'application/rss+xml']) {
      const link = alternates.find((a) => a.type === type);
      expect(link, type).toBeDefined();
      // The site is built for its public address; the same path is served here.
      const res = await page.request.get(`${t.url}${new URL(link!.href).pathname}${new URL(link!.href).search}`);
      expect(res.status(), link!.href).toBe(200);
      expect(res.headers()['content-type']).toContain(type === 'application/rss+xml' ? 'rss' : type);
    }
    const english = page.locator('a[hreflang="en"]').first();
    const target = new URL((await english.getAttribute('href'))!, `${t.url}/pressroom-journal/ar/welcome`);
    await page.goto(`${t.url}${target.pathname}`);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
    await page.close();
  });

  it('searches from any page\'s header on the search page of its language: the query in the address, Back, keys, sources (issue 34)', async () => {
    // The search index is built in the background after start-up.
    await t.service.staticSite!.search.idle();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const explain = (error: unknown) => {
      throw new Error(`${error}; browser errors: ${problems.join(' | ') || 'none'}`);
    };
    await page.goto(`${t.url}/pressroom-journal/en/welcome`);
    await page.locator('header form.search input[name=q]').fill('Markdown');
    await page.locator('header form.search input[name=q]').press('Enter');
    await page.waitForURL(/\/search\/en\/\?q=Markdown$/);
    const results = page.locator('#search-results a');
    await results.first().waitFor({ timeout: 15_000 }).catch(explain);
    expect(await results.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/Markdown/i)]));
    // Each result says where it comes from: the channel's name and the language's.
    expect(await page.locator('#search-results .search-source').first().textContent()).toBe('Pressroom Journal · English');
    expect(await page.locator('#search-status').textContent()).toMatch(/\d+ results/);
    // A second search is a new address; Back restores the first, its query and its results.
    await page.locator('#search-query').fill('readers');
    await page.locator('#search-query').press('Enter');
    await page.waitForURL(/\?q=readers$/);
    await page.goBack();
    await page.waitForURL(/\?q=Markdown$/);
    expect(await page.locator('#search-query').inputValue()).toBe('Markdown');
    await results.first().waitFor({ timeout: 15_000 }).catch(explain);
    // Keys: ArrowDown from the field to the first result, ArrowUp back.
    await page.locator('#search-query').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('#search-results') !== null)).toBe(true);
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-query');
    // A shared address opens with its results.
    const shared = await browser.newPage();
    await shared.goto(`${t.url}/search/ar/?q=${encodeURIComponent('Markdown')}`);
    expect(await shared.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    await shared.locator('#search-status').filter({ hasText: /./ }).waitFor({ timeout: 15_000 }).catch(explain);
    await shared.close();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('the API search finds the same translations as the site search', async () => {
    await t.service.staticSite!.search.idle();
    await t.service.searchIndex!.idle();
    const page = await browser.newPage();
    await page.goto(`${t.url}/pressroom-journal/en/welcome`);
    for (const word of ['Markdown', 'readers', 'Pressroom']) {
      // Pagefind's own API in the page, over every shard the site merges.
      // A string, so the test runner's transform leaves the browser's import() alone.
      const pagefindUrls = (await page.evaluate(`(async (q) => {
        const shards = await (await fetch('/pagefind/shards.json')).json();
        const all = new Set();
        for (const shard of shards) {
          const pagefind = await import('/pagefind/' + shard.bundlePath + 'pagefind.js');
          await pagefind.init();
          const found = await pagefind.search(q);
          for (const r of found.results) all.add((await r.data()).url);
        }
        return [...all].sort();
      })(${JSON.stringify(word)})`)) as string[];
      const api = (await (await fetch(`${t.url}/api/public/v1/search?q=${word}&limit=50`)).json()) as { results: Array<{ html_url: string }> };
      const apiUrls = api.results.map((r) => new URL(r.html_url).pathname).sort();
      expect(apiUrls.length, word).toBeGreaterThan(0);
      expect(apiUrls, word).toEqual(pagefindUrls);
    }
    await page.close();
  }, 60_000);

  it('breaks no rule of the pages\' Content-Security-Policy on an article, a channel, the homepage and the search pages, while search works', async () => {
    await t.service.staticSite!.search.idle();
    for (const [address, query] of [
      ['/pressroom-journal/en/welcome', null],
      ['/pressroom-journal/', null],
      ['/', null],
      ['/search/?q=Markdown', 'Markdown'],
      ['/search/en/?q=Markdown', 'Markdown'],
    ] as const) {
      const page = await browser.newPage();
      const violations: string[] = [];
      // The browser's own report of each refused resource, collected in the page.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      page.on('console', (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
      page.on('pageerror', (e) => violations.push(e.message));
      const response = await page.goto(`${t.url}${address}`);
      expect(response?.status(), address).toBe(200);
      const headers = response!.headers();
      expect(headers['content-security-policy'], address).toContain("script-src 'self'");
      expect(headers['x-frame-options'], address).toBe('DENY');
      expect(headers['referrer-policy'], address).toBe('strict-origin-when-cross-origin');
      expect(headers['x-content-type-options'], address).toBe('nosniff');
      const explain = (error: unknown) => {
        throw new Error(`${error}; on ${address}, CSP reports and errors: ${violations.join(' | ') || 'none'}`);
      };
      // Results come from Pagefind, which compiles its WebAssembly under the page's policy.
      if (query) await page.locator('#search-results a').first().waitFor({ timeout: 15_000 }).catch(explain);
      violations.push(...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)));
      expect(violations, address).toEqual([]);
      await page.close();
    }
  }, 90_000);

  it('writes the screenshots the docs show: 404 pages in English and Arabic, the search page, link-preview cards (issue 34)', async () => {
    await t.service.staticSite!.search.idle();
    // `PRESSROOM_SCREENSHOTS_DIR=docs/screenshots npx vitest run test/e2e/browser.test.ts` renews the docs' images.
    const dir = process.env.PRESSROOM_SCREENSHOTS_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-screenshots-'));
    fs.mkdirSync(dir, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    for (const [name, address, status] of [
      ['404-en.png', '/pressroom-journal/no-such-article', 404],
      ['404-ar.png', '/pressroom-journal/ar/no-such-article', 404],
      ['search.png', '/search/en/?q=Markdown', 200],
    ] as const) {
      const response = await page.goto(`${t.url}${address}`);
      expect(response?.status(), address).toBe(status);
      if (name === 'search.png') await page.locator('#search-results a').first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: path.join(dir, name) });
      expect(fs.statSync(path.join(dir, name)).size).toBeGreaterThan(5_000);
    }
    await page.close();
    // The cards are images already: what a link preview shows.
    for (const [name, address] of [
      ['card-en.png', '/pressroom-journal/en/welcome.png'],
      ['card-ar.png', '/pressroom-journal/ar/welcome.png'],
    ] as const) {
      const res = await fetch(`${t.url}${address}`);
      expect(res.headers.get('content-type'), address).toBe('image/png');
      fs.writeFileSync(path.join(dir, name), Buffer.from(await res.arrayBuffer()));
    }
    if (!process.env.PRESSROOM_SCREENSHOTS_DIR) fs.rmSync(dir, { recursive: true, force: true });
  }, 90_000);
});
