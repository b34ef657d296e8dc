/**
 * Feeds and the article image over a real service and its static output
 * (issue 15): a bilingual channel with an avatar, articles with uploaded
 * images, an image from another site, awkward titles, an unpublished
 * article and an unpublished revision. `checkFeeds` reads every feed with
 * two parsers; the rest checks each output that carries the image.
 */
import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { checkFeeds } from './check-feeds.ts';

let t: TestService;
let key: string;
const BASE = 'http://pressroom.test';
const AWKWARD = 'Tides ]]> & "quotes" <b>bold</b> &amp; more';
const HOUR = 3_600_000;

interface Uploaded {
  url: string;
  markdown: string;
}

async function upload(fields: Record<string, string>, colour: string, size: readonly [number, number] = [640, 400]): Promise<Uploaded> {
  const form = new FormData();
  const png = await sharp({ create: { width: size[0], height: size[1], channels: 3, background: colour } }).png().toBuffer();
  form.set('image', new Blob([new Uint8Array(png)]), 'image.png');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(`${t.url}/api/v1/channels/gazette/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** Runs moderation and waits for the build. */
async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

async function save(body: Record<string, unknown>): Promise<void> {
  const res = await t.request('POST', '/api/v1/channels/gazette/pages', { key, body: { default_language: 'en', ...body } });
  expect(res.status, res.text).toBe(201);
}

const file = (rel: string) => fs.readFileSync(path.join(t.config.outputDir, rel), 'utf8');
const publicJson = async (slug: string, lang: string) => (await t.request('GET', `/api/public/v1/channels/gazette/articles/${slug}?lang=${lang}`)).json;
const publicMarkdown = async (slug: string, lang: string) => matter((await t.request('GET', `/api/public/v1/channels/gazette/articles/${slug}.md?lang=${lang}`)).text).data;
const page = (slug: string, lang: string) => file(`gazette/${lang}/${slug}.html`);
const meta = (html: string, name: string) => [...html.matchAll(new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"`, 'g'))].map((m) => m[1]);
const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);

/** Where a draft image is once its article is saved (docs/MEDIA.md). */
const attached = (draft: Uploaded, article: string) => ({ ...draft, url: draft.url.replace('/_drafts/', `/${article}/`) });

let harbour: Uploaded;
let dunes: Uploaded;
let avatar: Uploaded;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
  key = await t.key('feeds', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: 'gazette', default_language: 'en', translations: [{ language: 'en', title: 'Gazette' }, { language: 'ar', title: 'الجريدة' }] },
  });
  expect(ch.status, ch.text).toBe(201);
  avatar = await upload({ purpose: 'channel_avatar' }, '#aa3300', [600, 600]);
  const harbourDraft = await upload({ alt: 'Upload alt, not used' }, '#113355');
  const dunesDraft = await upload({}, '#ccaa55');
  harbour = attached(harbourDraft, 'tides');
  dunes = attached(dunesDraft, 'tides');
  const later = await upload({}, '#55aa11');
  await save({
    slug: 'tides',
    author: { name: 'Jane Doe' },
    status: 'published',
    translations: [
      { language: 'en', title: AWKWARD, excerpt: 'High and low water.', content_markdown: `Intro with [a link](https://example.org).\n\n![The harbour at dawn](${harbourDraft.url})\n\n![Dunes](${dunesDraft.url})` },
      { language: 'ar', title: 'المد والجزر', content_markdown: `![https://elsewhere.example/x.png](https://elsewhere.example/x.png)\n\nنص.\n\n![الكثبان عند الغروب](${dunesDraft.url})` },
    ],
  });
  await save({
    slug: 'plain',
    status: 'published',
    translations: [{ language: 'en', title: 'Plain text only', content_markdown: 'An image from elsewhere:\n\n![Elsewhere](https://elsewhere.example/photo.jpg)' }],
  });
  await save({ slug: 'secret', translations: [{ language: 'en', title: 'Secret draft', content_markdown: `![Secret](${later.url})` }] });
  await settle();
  // A later revision of `plain` with an image, saved privately: the public article keeps its published body.
  // Moderation is not run: the new revision waits for it while the published one stays public.
  const put = await t.request('PUT', '/api/v1/channels/gazette/pages/plain/translations/en', { key, body: { title: 'Plain text only', content_markdown: `![Unpublished](${later.url})` } });
  expect(put.status, put.text).toBe(200);
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
});
afterAll(async () => t?.stop());

describe('feeds', () => {
  it('every RSS and JSON Feed passes both parsers and the JSON Feed 1.1 checks, and lists what the site lists', async () => {
    // What the site lists is read from its own JSON article lists (the default), and must be what this fixture published.
    const report = await checkFeeds(t.config.outputDir, { baseUrl: BASE });
    expect(report.problems).toEqual([]);
    expect(report.feeds).toEqual(['gazette/ar/feed.json', 'gazette/ar/rss.xml', 'gazette/en/feed.json', 'gazette/en/rss.xml', 'gazette/feed.json', 'gazette/rss.xml']);
    const titles = (feed: string) => JSON.parse(file(feed)).items.map((i: { url: string; title: string }) => [i.url, i.title]);
    expect(titles('gazette/en/feed.json')).toEqual([[`${BASE}/gazette/en/plain`, 'Plain text only'], [`${BASE}/gazette/en/tides`, AWKWARD]]);
    expect(titles('gazette/ar/feed.json')).toEqual([[`${BASE}/gazette/ar/tides`, 'المد والجزر']]);
  });

  it('gives the channel <image> as the PNG rendition of the avatar, served from the output', async () => {
    const rss = file('gazette/rss.xml');
    const url = /<image>\s*<title>[^<]*<\/title>\s*<url>([^<]+)<\/url>/.exec(rss)![1]!;
    expect(url).toBe(avatar.url.replace(/\.webp$/, '.png'));
    const served = await fetch(`${t.url}${new URL(url).pathname}`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('png');
    expect(JSON.parse(file('gazette/feed.json')).icon).toBe(avatar.url);
  });

  it('names the author (dc:creator) and the image (enclosure) of each item, and has a summary and content in the JSON Feed', () => {
    const rss = file('gazette/en/rss.xml');
    const tides = /<item>((?:(?!<\/item>)[\s\S])*gazette\/en\/tides[\s\S]*?)<\/item>/.exec(rss)![1]!;
    expect(tides).toContain('<dc:creator>Jane Doe</dc:creator>');
    const harbourFile = path.join(t.config.outputDir, new URL(harbour.url).pathname);
    expect(tides).toContain(`<enclosure length="${fs.statSync(harbourFile).size}" type="image/webp" url="${harbour.url}"/>`);
    const plain = /<item>((?:(?!<\/item>)[\s\S])*gazette\/en\/plain[\s\S]*?)<\/item>/.exec(rss)![1]!;
    expect(plain).not.toContain('<enclosure');
    expect(plain).not.toContain('dc:creator');
    const feed = JSON.parse(file('gazette/en/feed.json'));
    const item = feed.items.find((i: { id: string }) => i.id.endsWith('/tides'));
    expect(item).toMatchObject({ title: AWKWARD, summary: 'High and low water.', image: harbour.url, authors: [{ name: 'Jane Doe' }] });
    expect(item.content_html).toBe(`<p>High and low water.</p><p><a href="${BASE}/gazette/en/tides">${AWKWARD.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</a></p>`);
    expect(item).not.toHaveProperty('content_text');
  });
});

describe('the article image', () => {
  it("is the first of the article's own images in each translation's body, with that body's alt text", async () => {
    expect((await publicJson('tides', 'en')).image).toEqual({ url: harbour.url, alt: 'The harbour at dawn' });
    // The Arabic body starts with another site's image: its first own image is the second.
    expect((await publicJson('tides', 'ar')).image).toEqual({ url: dunes.url, alt: 'الكثبان عند الغروب' });
    expect(harbour.url.startsWith(`${BASE}/media/gazette/tides/`)).toBe(true);
  });

  it('is shown by the publishing API, from the published version', async () => {
    const tides = (await t.request('GET', '/api/v1/channels/gazette/pages/tides', { key })).json;
    expect(tides.translations.map((tr: { language: string; image: unknown }) => [tr.language, tr.image])).toEqual([
      ['en', { url: harbour.url, alt: 'The harbour at dawn' }],
      ['ar', { url: dunes.url, alt: 'الكثبان عند الغروب' }],
    ]);
    // `plain`'s current content has an image waiting for moderation; its published version has none.
    const plain = (await t.request('GET', '/api/v1/channels/gazette/pages/plain', { key })).json;
    expect(plain.translations[0].content_markdown).toContain('Unpublished');
    expect(plain.translations[0].image).toBeNull();
    expect((await t.request('GET', '/api/v1/channels/gazette/pages/secret', { key })).json.translations[0].image).toBeNull();
  });

  it('is null with no own image, and never comes from an unpublished revision or article', async () => {
    const plain = await publicJson('plain', 'en');
    expect(plain.image).toBeNull();
    expect(plain.content_markdown).not.toContain('Unpublished');
    expect((await publicMarkdown('plain', 'en')).image).toBeNull();
    // The page's preview is its drawn card (issue 34), never the unpublished revision's image.
    expect(meta(page('plain', 'en'), 'og:image')).toEqual([expect.stringMatching(/\/gazette\/en\/plain\.png$/)]);
    expect(jsonLd(page('plain', 'en')).image).toEqual([expect.stringMatching(/\/gazette\/en\/plain\.png$/)]);
    expect((await t.request('GET', '/api/public/v1/channels/gazette/articles/secret')).status).toBe(404);
  });

  it('is in the Markdown front matter, the link previews and the JSON-LD, with absolute URLs', async () => {
    expect((await publicMarkdown('tides', 'ar')).image).toEqual({ url: dunes.url, alt: 'الكثبان عند الغروب' });
    const html = page('tides', 'en');
    expect(meta(html, 'og:image')).toEqual([harbour.url]);
    expect(meta(html, 'og:image:alt')).toEqual(['The harbour at dawn']);
    expect(meta(html, 'twitter:card')).toEqual(['summary_large_image']);
    expect(jsonLd(html).image).toEqual([harbour.url]);
    // Shown once, where the body puts it.
    expect([...html.matchAll(/<img [^>]*>/g)].filter((m) => m[0].includes(new URL(harbour.url).pathname))).toHaveLength(1);
  });
});

describe('the avatar rendition', () => {
  it('is removed with the avatar it was made from', async () => {
    const png = path.join(t.config.outputDir, new URL(avatar.url.replace(/\.webp$/, '.png')).pathname);
    expect(fs.existsSync(png)).toBe(true);
    await upload({ purpose: 'channel_avatar' }, '#0033aa', [600, 600]);
    t.clock.advance(25 * HOUR);
    await t.service.worker.runDue();
    expect(fs.existsSync(png)).toBe(false);
    expect(fs.existsSync(path.join(t.config.outputDir, new URL(avatar.url).pathname))).toBe(false);
  });
});
