/**
 * Languages belong to articles (issue 12), over real HTTP on the bundled
 * server: an English-only channel with articles in German and Arabic has a
 * list, feeds, a page and sitemap entries in each; `?lang=` on the feeds is
 * that language's feed or a 404, never another; empty and malformed `lang`
 * give the documented status and code on every endpoint; the first article
 * in a language creates its files and the last one leaving removes them.
 * Then every HTML page of the site is parsed and its canonical address,
 * `og:url`, hreflang alternates, the sitemaps, the channel JSON and the
 * feeds' `<link>` are checked to agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const BASE = 'http://pressroom.test';
const API = '/api/public/v1';
let t: TestService;
let key: string;

const get = (p: string) => fetch(`${t.url}${p}`);
const getText = async (p: string) => {
  const res = await get(p);
  expect(res.status, `${p}: ${res.status}`).toBe(200);
  return res.text();
};
const getJson = async (p: string) => JSON.parse(await getText(p));

/** Runs moderation, then waits for the build. */
async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

async function publish(slug: string, translations: Array<{ language: string; title: string }>): Promise<void> {
  t.clock.advance(60_000);
  const body = {
    slug,
    default_language: translations[0]!.language,
    status: 'published',
    publish_translations: true,
    translations: translations.map((x) => ({ ...x, content_markdown: `${x.title}.` })),
  };
  const res = await t.request('POST', '/api/v1/channels/desk/pages', { key, body });
  expect(res.status, res.text).toBe(201);
  await settle();
}

async function unpublish(slug: string): Promise<void> {
  const res = await t.request('PATCH', `/api/v1/channels/desk/pages/${slug}/status`, { key, body: { status: 'draft', publish_translations: true } });
  expect(res.status, res.text).toBe(200);
  await settle();
}

beforeAll(async () => {
  t = await startTestService(
    {
      PRESSROOM_STATIC_BUILD: 'true',
      PRESSROOM_IMPORT_CONTENT: 'true',
      PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content'),
      PRESSROOM_RATE_LIMIT_CONTENT: '0',
      PRESSROOM_RATE_LIMIT_SEARCH: '0',
    },
    { startWorker: false },
  );
  key = await t.key('desk-owner', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'desk', default_language: 'en', translations: [{ language: 'en', title: 'The Desk' }] } });
  expect(ch.status, ch.text).toBe(201);
  await publish('english-only', [{ language: 'en', title: 'English only story' }]);
  await publish('bilingual', [{ language: 'en', title: 'Bilingual story' }, { language: 'de', title: 'Zweisprachige Geschichte' }]);
  await publish('arabic', [{ language: 'ar', title: 'قصة عربية' }]);
}, 180_000);
afterAll(async () => t?.stop());

describe('an English-only channel with articles in de and ar', () => {
  it('lists each language\'s articles in the JSON list, and never the English-only one in de', async () => {
    const de = await getJson(`${API}/channels/desk/articles?lang=de`);
    expect(de.articles.map((a: { slug: string; language: string }) => [a.slug, a.language])).toEqual([['bilingual', 'de']]);
    // The channel has no German document: the list names the default-language one (no substitution).
    expect(de._links.channel).toBe(`${BASE}${API}/channels/desk`);
    const ar = await getJson(`${API}/channels/desk/articles?lang=ar`);
    expect(ar.articles.map((a: { slug: string }) => a.slug)).toEqual(['arabic']);
    // Rendered on demand (another page size) it says the same.
    const paged = await getJson(`${API}/channels/desk/articles?lang=de&limit=5`);
    expect(paged.articles.map((a: { slug: string }) => a.slug)).toEqual(['bilingual']);
    const unfiltered = await getJson(`${API}/channels/desk/articles`);
    expect(unfiltered.articles.map((a: { slug: string }) => a.slug)).toEqual(['arabic', 'bilingual', 'english-only']);
  });

  it('links a German article to the German list, feed and channel page, each of which answers', async () => {
    const article = await getJson(`${API}/channels/desk/articles/bilingual?lang=de`);
    expect(article._links).toMatchObject({
      articles: `${BASE}${API}/channels/desk/articles?lang=de`,
      rss: `${BASE}/desk/de/rss.xml`,
      // No German channel document exists (no substitution): the default-language one.
      channel: `${BASE}${API}/channels/desk`,
    });
    expect(article.publisher.url).toBe(`${BASE}/desk/de/`);
    for (const url of [article._links.articles, article._links.rss, article._links.channel, article.publisher.url]) {
      expect((await get(url.slice(BASE.length))).status, url).toBe(200);
    }
  });

  it('has a feed per language, at /{c}/{lang}/ and with ?lang=, the same bytes; the unfiltered feed declares no language', async () => {
    for (const [lang, title] of [['de', 'Zweisprachige Geschichte'], ['ar', 'قصة عربية']] as const) {
      const rss = await getText(`/desk/${lang}/rss.xml`);
      expect(await getText(`/desk/rss.xml?lang=${lang}`)).toBe(rss);
      expect(rss).toContain(title);
      expect(rss).toContain(`<language>${lang}</language>`);
      expect(rss).not.toContain('English only story');
      const json = await getText(`/desk/${lang}/feed.json`);
      expect(await getText(`/desk/feed.json?lang=${lang}`)).toBe(json);
      expect(JSON.parse(json).items.map((i: { title: string }) => i.title)).toEqual([title]);
    }
    const unfiltered = await getText('/desk/rss.xml');
    expect(unfiltered).not.toContain('<language>');
    expect(unfiltered).toContain('قصة عربية');
    expect(JSON.parse(await getText('/desk/feed.json'))).not.toHaveProperty('language');
  });

  it('has a channel page per language and lists them in its sitemap', async () => {
    const dePage = await getText('/desk/de/');
    expect(dePage).toContain('Zweisprachige Geschichte');
    expect(dePage).not.toContain('English only story');
    expect(dePage).toMatch(/<html lang="de"/);
    expect(await getText('/desk/?lang=de')).toBe(dePage);
    expect(await getText('/desk/ar/')).toMatch(/<html lang="ar" dir="rtl"/);
    const sitemap = await getText('/desk/sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${BASE}/desk/`, `${BASE}/desk/ar/`, `${BASE}/desk/de/`]);
  });

  it('answers 404 TRANSLATION_NOT_FOUND, never a substitute, for a language neither the channel nor an article has', async () => {
    for (const address of [`${API}/channels/desk/articles?lang=fr`, `${API}/channels/desk?lang=de`, `${API}/channels/desk?lang=fr`]) {
      const res = await get(address);
      expect(res.status, address).toBe(404);
      expect((await res.json()).error.code, address).toBe('TRANSLATION_NOT_FOUND');
    }
    for (const address of ['/desk/rss.xml?lang=fr', '/desk/feed.json?lang=zz', '/desk/?lang=fr']) {
      const res = await get(address);
      expect(res.status, address).toBe(404);
      expect((await res.json()).error.code, address).toBe('NOT_FOUND');
    }
  });
});

describe('empty and malformed lang', () => {
  const article = `${API}/channels/desk/articles/bilingual`;
  const LONG = 'x'.repeat(17);
  // [address without lang, status, code] per endpoint; the value is appended.
  const cases: Array<[string, Record<string, [number, string]>]> = [
    [`${API}/channels`, { '': [422, 'VALIDATION_FAILED'], '../x': [422, 'VALIDATION_FAILED'], [LONG]: [422, 'VALIDATION_FAILED'] }],
    // getPublicChannel and the Markdown document document no 422: a value that cannot be a language names no translation.
    [`${API}/channels/desk`, { '': [404, 'TRANSLATION_NOT_FOUND'], '../x': [404, 'TRANSLATION_NOT_FOUND'], [LONG]: [404, 'TRANSLATION_NOT_FOUND'] }],
    [`${API}/channels/desk/articles`, { '': [422, 'VALIDATION_FAILED'], '../x': [422, 'VALIDATION_FAILED'], [LONG]: [422, 'VALIDATION_FAILED'] }],
    [article, { '': [422, 'VALIDATION_FAILED'], '../x': [422, 'VALIDATION_FAILED'], [LONG]: [422, 'VALIDATION_FAILED'] }],
    [`${article}.md`, { '': [404, 'TRANSLATION_NOT_FOUND'], '../x': [404, 'TRANSLATION_NOT_FOUND'], [LONG]: [404, 'TRANSLATION_NOT_FOUND'] }],
    ['/desk/rss.xml', { '': [404, 'NOT_FOUND'], '../x': [404, 'NOT_FOUND'], [LONG]: [404, 'NOT_FOUND'] }],
    ['/desk/feed.json', { '': [404, 'NOT_FOUND'], '../x': [404, 'NOT_FOUND'], [LONG]: [404, 'NOT_FOUND'] }],
    ['/desk/', { '': [404, 'NOT_FOUND'], '../x': [404, 'NOT_FOUND'] }],
    ['/desk/bilingual', { '': [404, 'NOT_FOUND'], '../x': [404, 'NOT_FOUND'] }],
  ];
  it.each(cases)('%s', async (address, expected) => {
    for (const [value, [status, code]] of Object.entries(expected)) {
      const res = await get(`${address}?lang=${encodeURIComponent(value)}`);
      const body = await res.json();
      expect([res.status, body.error.code], `${address}?lang=${value}`).toEqual([status, code]);
      // Nothing is being rebuilt here: that message is for a document the build has not written yet.
      expect(body.error.message).not.toMatch(/being rebuilt/);
      if (status === 422) expect(Object.keys(body.error.details.fields)).toEqual(['lang']);
    }
  });
});

describe('incremental: the first article in a language creates its files, the last one leaving removes them', () => {
  const frAddresses = ['/desk/fr/', '/desk/fr/rss.xml', '/desk/rss.xml?lang=fr', '/desk/fr/feed.json', `${API}/channels/desk/articles?lang=fr`];

  it('creates and removes the fr list, feeds and page', async () => {
    for (const a of frAddresses) expect((await get(a)).status, a).toBe(404);
    await publish('premier', [{ language: 'fr', title: 'Premier article' }]);
    for (const a of frAddresses) expect(await getText(a), a).toContain('Premier article');
    expect(await getText('/desk/sitemap.xml')).toContain(`<loc>${BASE}/desk/fr/</loc>`);
    expect(await getText('/desk/')).toContain('hreflang="fr"');
    await unpublish('premier');
    for (const a of frAddresses) expect((await get(a)).status, a).toBe(404);
    expect(await getText('/desk/sitemap.xml')).not.toContain('/desk/fr/');
    expect(await getText('/desk/')).not.toContain('hreflang="fr"');
  });
});

/** Attributes of every `<tag …>` in `html`. */
function tags(html: string, name: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!.replace(/&amp;/g, '&')])),
  );
}

/** The `<loc>` of each `<url>` of a sitemap and its alternates (hreflang → href). */
function sitemapUrls(xml: string): Map<string, Map<string, string>> {
  const urls = new Map<string, Map<string, string>>();
  for (const m of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
    const loc = /<loc>([^<]+)<\/loc>/.exec(m[1]!)![1]!.replace(/&amp;/g, '&');
    const alternates = new Map(tags(m[1]!, 'xhtml:link').map((l) => [l['hreflang']!, l['href']!]));
    urls.set(loc, alternates);
  }
  return urls;
}

describe('one canonical address per page', () => {
  it('every HTML page, the sitemaps, the channel JSON and the feeds agree', async () => {
    // The sitemaps, read over HTTP from the index down.
    const index = await getText('/sitemap.xml');
    const inSitemap = new Map<string, Map<string, string>>();
    for (const m of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      for (const [loc, alts] of sitemapUrls(await getText(m[1]!.slice(BASE.length)))) inSitemap.set(loc, alts);
    }
    // Every HTML page of the output, by the address that serves it.
    const pages = new Map<string, string>();
    const walk = (dir: string, rel: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!['api', 'pagefind', 'media', '_astro'].includes(e.name)) walk(path.join(dir, e.name), `${rel}${e.name}/`);
        } else if (e.name.endsWith('.html') && !fs.readFileSync(path.join(dir, e.name), 'utf8').includes('<meta name="robots" content="noindex">')) {
          // (Pages that ask not to be indexed are no one's canonical address: the 404 pages, which hosts send for
          // missing addresses, and the search pages.)
          pages.set(e.name === 'index.html' ? `/${rel}` : `/${rel}${e.name.slice(0, -5)}`, '');
        }
      }
    };
    walk(t.config.outputDir, '');
    expect(pages.size).toBeGreaterThan(10);
    const canonicals = new Map<string, string>();
    const alternatesOf = new Map<string, Map<string, string>>();
    for (const address of pages.keys()) {
      const html = await getText(address);
      const links = tags(html, 'link');
      const canonical = links.filter((l) => l['rel'] === 'canonical').map((l) => l['href']!);
      expect(canonical, address).toHaveLength(1);
      const ogUrl = tags(html, 'meta').filter((m) => m['property'] === 'og:url').map((m) => m['content']);
      expect(ogUrl, address).toEqual(canonical);
      canonicals.set(address, canonical[0]!);
      const alternates = new Map(links.filter((l) => l['rel'] === 'alternate' && l['hreflang']).map((l) => [l['hreflang']!, l['href']!]));
      alternatesOf.set(canonical[0]!, alternates);
      if (alternates.size > 0) {
        // Self-referencing, with x-default, and the page's own language names its canonical address.
        expect([...alternates.values()], address).toContain(canonical[0]);
        expect(alternates.has('x-default'), address).toBe(true);
        const lang = /<html lang="([^"]+)"/.exec(html)![1]!;
        expect(alternates.get(lang), address).toBe(canonical[0]);
      }
      // The publisher of an article is a canonical channel page.
      const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
      if (ld) expect(inSitemap.has(JSON.parse(ld[1]!).publisher.url), address).toBe(true);
      // The canonical address serves this very page.
      if (canonical[0] !== `${BASE}${address}`) expect(await getText(canonical[0]!.slice(BASE.length)), address).toBe(html);
    }
    // The sitemap lists exactly the canonical addresses, each with the page's own alternates.
    expect([...inSitemap.keys()].sort()).toEqual([...new Set(canonicals.values())].sort());
    for (const [loc, alternates] of inSitemap) {
      const own = alternatesOf.get(loc)!;
      // A page with a single version lists no alternates in the sitemap; the page may still name itself.
      if (alternates.size > 0) expect(Object.fromEntries(own), loc).toEqual(Object.fromEntries(alternates));
      // Reciprocal: every alternate names the same set.
      for (const href of alternates.values()) expect(Object.fromEntries(alternatesOf.get(href)!), `${loc} → ${href}`).toEqual(Object.fromEntries(alternates));
    }
    // The channel JSON and the feeds name the same canonical channel pages.
    for (const channel of ['desk', 'pressroom-journal']) {
      const json = await getJson(`${API}/channels/${channel}`);
      expect(inSitemap.has(json.canonical_url), channel).toBe(true);
      expect(json.canonical_url).toBe(`${BASE}/${channel}/`);
      for (const feed of [`/${channel}/rss.xml`, `/${channel}/ar/rss.xml`]) {
        const link = /<channel>[\s\S]*?<link>([^<]+)<\/link>/.exec(await getText(feed))![1]!;
        expect(inSitemap.has(link), feed).toBe(true);
        expect(canonicals.get(link.slice(BASE.length)), feed).toBe(link);
      }
    }
  });
});
