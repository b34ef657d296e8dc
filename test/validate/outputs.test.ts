/**
 * The validation suite (docs/OUTPUTS.md, "Validation"): every output file
 * of one varied site (`varied-site.ts`) read with the tools its consumers
 * use. Each checker returns its problems as text; each test expects none.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, checkAxe } from './check-axe.ts';
import { checkFeeds } from './check-feeds.ts';
import { checkHtml } from './check-html.ts';
import { checkLlms } from './check-llms.ts';
import { checkMarkdown } from './check-markdown.ts';
import { checkMetadata } from './check-metadata.ts';
import { checkYaml } from './check-yaml.ts';
import { buildVariedSite, listOutputs, NO_ALT_IMAGE, SUMMARY_PARAGRAPHS, type VariedSite } from './varied-site.ts';
import { staticFiles } from '../../server/serving/static-files.ts';

const CHROMIUM_INSTALLED = fs.existsSync(CHROMIUM);
if (!CHROMIUM_INSTALLED && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run must install the Debian package "chromium".`);

let site: VariedSite;
beforeAll(async () => {
  site = await buildVariedSite();
}, 180_000);
afterAll(async () => site?.stop());

describe('the varied site', () => {
  it('has every kind of output, in both channels and languages', () => {
    const outputs = listOutputs(site.distDir);
    expect(outputs.html).toEqual(expect.arrayContaining(['index.html', 'harbour/index.html', 'harbour/ar/tides.html', 'sahara/dunes.html', 'sahara/en/dunes.html']));
    for (const kind of ['json', 'md', 'rss', 'jsonFeed', 'sitemap', 'llms'] as const) expect(outputs[kind].length, kind).toBeGreaterThan(0);
  });

  it('shows nothing unpublished in any output file, the search index included', () => {
    const leaks: string[] = [];
    const files = (fs.readdirSync(site.distDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => fs.statSync(path.join(site.distDir, f)).isFile());
    for (const file of files) {
      if (/\.(?:webp|png|jpe?g|gif|avif|woff2?)$/.test(file)) continue;
      const raw = fs.readFileSync(path.join(site.distDir, file));
      // Pagefind's fragments are gzip: read them as the browser would.
      const text = file.endsWith('.pf_fragment') || file.endsWith('.pf_index') || file.endsWith('.pf_meta') ? gunzip(raw) : raw.toString('utf8');
      for (const secret of site.unpublished) if (text.includes(secret)) leaks.push(`${file}: ${secret}`);
    }
    expect(leaks).toEqual([]);
  });
});

describe('summaries of an article without an excerpt (its body opens with a heading, a table and code)', () => {
  const read = (file: string) => fs.readFileSync(path.join(site.distDir, file), 'utf8');
  const entities = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const prose = SUMMARY_PARAGRAPHS.join(' ');
  /** A summary reads as prose: the start of the paragraphs, cut (with an ellipsis) or whole. */
  const expectProse = (where: string, summary: string | undefined) => {
    expect(summary, where).toBeDefined();
    const text = entities(summary!).trim();
    expect(text, where).not.toMatch(/Observations|06:00|135|print|note 45|Temperature/);
    const uncut = text.replace(/ ?…$/, '');
    expect(uncut.length, where).toBeGreaterThan(40);
    expect(prose.startsWith(uncut), `${where}: "${text}" is not the start of a paragraph`).toBe(true);
  };

  it('every output that summarises it shows the start of its paragraphs', () => {
    const page = read(staticFiles.articleDefaultHtml('harbour', 'observations'));
    expectProse('meta description', page.match(/<meta name="description" content="([^"]*)"/)?.[1]);
    expectProse('og:description', page.match(/<meta property="og:description" content="([^"]*)"/)?.[1]);
    const channel = read(staticFiles.channelHtml('harbour'));
    const item = channel.slice(channel.indexOf('Weather observations'));
    expectProse('channel page item', item.match(/<p[^>]*>([^<]*)<\/p>/)?.[1]);
    const rss = read(staticFiles.rss('harbour'));
    const rssItem = rss.split('<item>').find((i) => i.includes('<title>Weather observations</title>'));
    expectProse('RSS description', rssItem?.match(/<description>(?:<!\[CDATA\[)?([^<\]]*)(?:\]\]>)?<\/description>/)?.[1]);
    const feed = JSON.parse(read(staticFiles.jsonFeed('harbour'))) as { items: Array<{ title: string; summary: string }> };
    expectProse('JSON Feed summary', feed.items.find((i) => i.title === 'Weather observations')?.summary);
    const llms = read(staticFiles.channelLlms('harbour'));
    expectProse('llms.txt line', llms.match(/\[Weather observations\]\([^)]*\): (.*) \(en, published/)?.[1]);
  });
});

describe('a raw <img> without alt in a body (issue 34)', () => {
  it('is in no output, while the decorative one is published with alt=""', () => {
    const files = (fs.readdirSync(site.distDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => /\.(html|json|md|xml|txt)$/.test(f));
    const showing = files.filter((f) => fs.readFileSync(path.join(site.distDir, f), 'utf8').includes(NO_ALT_IMAGE));
    expect(showing).toEqual([]);
    const page = fs.readFileSync(path.join(site.distDir, staticFiles.articleDefaultHtml('harbour', 'observations')), 'utf8');
    expect(page).toContain('<img src="https://example.org/divider.png" alt="">');
  });
});

describe('small things every page needs', () => {
  it('has a favicon, linked from every page and served as SVG (no first-visit 404)', async () => {
    const res = await fetch(`${site.serverUrl}/favicon.svg`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    for (const page of listOutputs(site.distDir).html) {
      expect(fs.readFileSync(path.join(site.distDir, page), 'utf8'), page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });

  it('homepage: feed autodiscovery for each channel and og:locale', () => {
    const home = fs.readFileSync(path.join(site.distDir, 'index.html'), 'utf8');
    const feeds = [...home.matchAll(/<link rel="alternate" href="([^"]+)" type="application\/rss\+xml" title="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(feeds).toEqual([
      [`${site.baseUrl}/harbour/rss.xml`, 'Harbour &#38; Sea <News> (RSS)'],
      [`${site.baseUrl}/sahara/rss.xml`, 'أخبار الصحراء (RSS)'],
    ]);
    expect(home).toContain('<meta property="og:locale" content="en_US">');
  });
});

describe('validators', () => {
  it('HTML: html-validate (recommended rules), no forbidden code points (check-html.ts)', async () => {
    expect(await checkHtml(site.distDir)).toEqual([]);
  });

  // As test/e2e/browser.test.ts: on CI a missing Chromium is an error (.ci/run installs it); elsewhere the skip says why.
  it.skipIf(!CHROMIUM_INSTALLED)(
    CHROMIUM_INSTALLED ? 'accessibility: axe-core in Chromium, LTR and RTL pages, desktop and phone, light and dark (check-axe.ts)' : `accessibility (skipped: ${CHROMIUM} is not installed)`,
    async () => {
      // The 404 pages as the server sends them to a browser: the site's, a channel's (RTL), one in a language.
      // And the search pages with their results drawn (check-axe waits for the status line).
      expect(await checkAxe(site.serverUrl, [...site.pages, '/no-such-page', '/sahara/no-such-page', '/no-such-channel/ar/page', '/search/?q=harbour', '/search/ar/?q=xx'])).toEqual([]);
    },
    300_000,
  );

  it('link previews and crawlers: JSON-LD, OpenGraph, hreflang (check-metadata.ts)', async () => {
    expect(await checkMetadata(site.distDir, site.baseUrl)).toEqual([]);
  });

  it('feeds: two parsers, JSON Feed 1.1 (check-feeds.ts)', async () => {
    expect((await checkFeeds(site.distDir, { baseUrl: site.baseUrl })).problems).toEqual([]);
  });

  it('llms.txt: the reference parser, links resolve (check-llms.ts)', async () => {
    expect(await checkLlms(site.distDir, site.baseUrl)).toEqual([]);
  });

  it('Markdown: markdown-it renders every body, every link absolute and answering (check-markdown.ts)', async () => {
    expect(await checkMarkdown(site.distDir, site.baseUrl)).toEqual([]);
  });

  it('YAML front matter: YAML 1.1 and 1.2 readings agree (check-yaml.ts)', async () => {
    expect(await checkYaml(site.distDir)).toEqual([]);
  });
});

function gunzip(raw: Buffer): string {
  try {
    return zlib.gunzipSync(raw).toString('utf8');
  } catch {
    return raw.toString('utf8');
  }
}
