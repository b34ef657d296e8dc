/**
 * The bundled server answering the static output over real HTTP: every kind
 * of public address, `?lang=`, content types, validators and 304s, drafts
 * absent, and paths that try to leave the output folder.
 */
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { pollUntil } from '../helpers/poll.ts';

let t: TestService;
let key: string;

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${t.url}${p}`, { headers });

/** A GET on Node's http client, which does not decode: the bytes and headers as sent. */
function raw(p: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${t.url}${p}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  t = await startTestService(
    { PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') },
    { startWorker: true },
  );
  key = t.service.newDevKey!;
}, 180_000);
afterAll(async () => t?.stop());

describe('public addresses', () => {
  it.each([
    ['/', 'text/html; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/', 'text/html; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/ar/', 'text/html; charset=utf-8', 'dir="rtl"'],
    ['/pressroom-journal/welcome', 'text/html; charset=utf-8', 'lang="en"'],
    ['/pressroom-journal/welcome?lang=ar', 'text/html; charset=utf-8', 'lang="ar"'],
    ['/pressroom-journal/ar/welcome', 'text/html; charset=utf-8', 'lang="ar"'],
    ['/pressroom-journal/rss.xml', 'application/rss+xml; charset=utf-8', '<rss'],
    ['/pressroom-journal/ar/feed.json', 'application/feed+json; charset=utf-8', '"language": "ar"'],
    ['/api/public/v1/channels', 'application/json; charset=utf-8', '"channels"'],
    ['/api/public/v1/channels/pressroom-journal/articles/welcome', 'application/json; charset=utf-8', '"language": "en"'],
    ['/api/public/v1/channels/pressroom-journal/articles/welcome?lang=ar', 'application/json; charset=utf-8', '"language": "ar"'],
    ['/api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar', 'text/markdown; charset=utf-8', 'language: "ar"'],
    ['/sitemap.xml', 'application/xml; charset=utf-8', '<sitemapindex'],
    ['/pressroom-journal/sitemap.xml', 'application/xml; charset=utf-8', '<urlset'],
    ['/pressroom-journal/sitemap-1.xml', 'application/xml; charset=utf-8', '/pressroom-journal/ar/welcome</loc>'],
    ['/robots.txt', 'text/plain; charset=utf-8', 'Content-Signal:'],
    ['/llms.txt', 'text/plain; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/llms.txt', 'text/plain; charset=utf-8', '/pressroom-journal/llms-1.txt)'],
    ['/pressroom-journal/llms-1.txt', 'text/plain; charset=utf-8', 'welcome.md?lang=ar)'],
  ])('%s', async (address, type, needle) => {
    const res = await get(address);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}(?:-br|-gzip)?"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('cache-control')).toContain('public');
    expect(await res.text()).toContain(needle);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and HEAD without a body', async () => {
    const address = '/api/public/v1/channels/pressroom-journal/articles/welcome.md';
    const first = await get(address);
    const etag = first.headers.get('etag')!;
    expect((await get(address, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(address, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    expect((await get(address, { 'if-none-match': '"stale"' })).status).toBe(200);
    expect((await get(address, { 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(304);
    expect((await get(address, { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' })).status).toBe(200);
    const head = await fetch(`${t.url}${address}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });
});

describe('agents', () => {
  it('article pages advertise the exact Markdown and JSON in a Link header', async () => {
    const ar = await get('/pressroom-journal/ar/welcome');
    expect(ar.headers.get('link')).toBe(
      '</api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar>; rel="alternate"; type="text/markdown", ' +
        '</api/public/v1/channels/pressroom-journal/articles/welcome?lang=ar>; rel="alternate"; type="application/json"',
    );
    expect((await get('/pressroom-journal/welcome')).headers.get('link')).toContain('articles/welcome.md>;');
    expect((await get('/pressroom-journal/')).headers.get('link')).toBeNull();
  });

  it('Accept: text/markdown on an article page returns its Markdown, with Vary and Content-Location', async () => {
    const res = await get('/pressroom-journal/ar/welcome', { accept: 'text/markdown, text/html;q=0.5' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(res.headers.get('content-location')).toBe('/api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar');
    const md = await res.text();
    expect(md).toBe(await (await get('/api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar')).text());
    expect((await get('/pressroom-journal/ar/welcome')).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it.each([
    ['text/markdown;q=0', 'text/html; charset=utf-8'],
    ['text/markdown;q=0, text/html', 'text/html; charset=utf-8'],
    ['text/html, text/markdown;q=0.9', 'text/html; charset=utf-8'],
    ['*/*', 'text/html; charset=utf-8'],
    ['text/markdown;q=0.9, text/html;q=0.1', 'text/markdown; charset=utf-8'],
    ['text/markdown, */*', 'text/markdown; charset=utf-8'],
  ])('Accept: %s on an article page → %s (q-values decide; q=0 never gets Markdown)', async (accept, type) => {
    const res = await get('/pressroom-journal/ar/welcome', { accept });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, type]);
  });

  it('compresses text answers with brotli or gzip by Accept-Encoding, each with its own ETag, and 304s on it', async () => {
    const address = '/pressroom-journal/ar/welcome';
    const plain = await raw(address, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toBe('Accept, Accept-Encoding');
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['br;q=0.5, gzip', 'gzip', zlib.gunzipSync],
      ['*', 'br', zlib.brotliDecompressSync],
    ] as const) {
      const res = await raw(address, { 'accept-encoding': accept });
      expect([res.status, res.headers['content-encoding'], res.headers['vary']]).toEqual([200, encoding, 'Accept, Accept-Encoding']);
      expect(res.headers['etag']).toBe(plain.headers['etag']!.replace(/"$/, `-${encoding}"`));
      expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
      expect(res.body.byteLength).toBeLessThan(plain.body.byteLength);
      expect(decode(res.body).equals(plain.body)).toBe(true);
      expect((await raw(address, { 'accept-encoding': accept, 'if-none-match': res.headers['etag']! })).status).toBe(304);
      // Another representation's validator does not match.
      expect((await raw(address, { 'accept-encoding': accept, 'if-none-match': plain.headers['etag']! })).status).toBe(200);
    }
    expect((await raw(address, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    // The app's path (a rendered variant) compresses too.
    const variant = await raw('/api/public/v1/channels/pressroom-journal/articles?limit=20', { 'accept-encoding': 'gzip' });
    expect([variant.status, variant.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(JSON.parse(zlib.gunzipSync(variant.body).toString('utf8')).articles.length).toBeGreaterThan(0);
    // Small files are sent as they are.
    const robots = await raw('/robots.txt', { 'accept-encoding': 'br' });
    expect([robots.headers['content-encoding'], robots.body.byteLength < 1024]).toEqual([undefined, true]);
  });

  it('refuses the reserved article slug "index", which would replace the channel page', async () => {
    const res = await t.request('POST', '/api/v1/channels/pressroom-journal/pages', {
      key,
      body: { slug: 'index', default_language: 'en', translations: [{ language: 'en', title: 'Index', content_markdown: 'x' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.slug).toMatch(/reserved/);
  });
});

describe('what is not published, or not there', () => {
  it('a draft is 404 everywhere, with the JSON error body; publishing it brings it out', async () => {
    const res = await t.request('POST', '/api/v1/channels/pressroom-journal/pages', {
      key,
      body: { slug: 'not-yet', default_language: 'en', translations: [{ language: 'en', title: 'Not yet', content_markdown: 'Draft.' }] },
    });
    expect(res.status).toBe(201);
    for (const address of ['/pressroom-journal/not-yet', '/pressroom-journal/en/not-yet', '/api/public/v1/channels/pressroom-journal/articles/not-yet', '/api/public/v1/channels/pressroom-journal/articles/not-yet.md']) {
      const r = await get(address);
      expect(r.status, address).toBe(404);
      const body = await r.json();
      expect(body).toMatchObject({ schema_version: '1.0', error: { message: expect.any(String) } });
      // Pages are files (NOT_FOUND); the API names what is missing.
      expect(body.error.code, address).toBe(address.startsWith('/api/') ? 'ARTICLE_NOT_FOUND' : 'NOT_FOUND');
    }
    await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/not-yet/status', { key, body: { status: 'published' } });
    const status = await pollUntil(async () => (await get('/pressroom-journal/en/not-yet')).status, (s) => s === 200, { what: 'the published page', intervalMs: 50 });
    expect(status).toBe(200);
  });

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/pressroom-journal/..%2f..%2fpackage.json',
    '/pressroom-journal/%2e%2e/%2e%2e/package.json',
    '/pressroom-journal/..%5c..%5cpackage.json',
    '/api/public/v1/channels/..%2f..%2f..%2f..%2fpackage',
    '/pressroom-journal/welcome?lang=../../package',
    '/nothing-here',
  ])('%s is 404 and never a file outside the output', async (address) => {
    const res = await get(address);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('"devDependencies"');
  });
});

describe('404 pages for people, JSON for programs (issue 34)', () => {
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it.each([
    // address, the page's language and direction, the channel it links (null: the homepage only)
    ['/pressroom-journal/no-such-article', 'en', 'ltr', '/pressroom-journal/'],
    ['/pressroom-journal/ar/no-such-article', 'ar', 'rtl', '/pressroom-journal/ar/'],
    ['/pressroom-journal/ar/gone/', 'ar', 'rtl', '/pressroom-journal/ar/'],
    ['/pressroom-journal/xx/missing', 'en', 'ltr', '/pressroom-journal/'],
    ['/no-such-channel/ar/missing', 'ar', 'rtl', null],
    ['/no-such-channel/', 'en', 'ltr', null],
    ['/pressroom-journal/_404', 'en', 'ltr', '/pressroom-journal/'],
    ['/_404/ar', 'en', 'ltr', null],
    ['/pressroom-journal/%2e%2e/package.json', 'en', 'ltr', null],
    ['/media/no-such-file.png', 'en', 'ltr', null],
  ])('a browser asking for %s gets the 404 page in %s', async (address, lang, dir, channel) => {
    const [res, again] = await Promise.all([get(address, { accept: BROWSER }), raw(address, { accept: BROWSER })]);
    const html = await res.text();
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toMatch(/Accept/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(html).toContain(`<html lang="${lang}" dir="${dir}">`);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<form class="search" role="search"/);
    expect(html).toContain('<a href="/">Pressroom');
    if (channel) expect(html).toContain(`<a href="${channel}"`);
    else expect(html).not.toContain('href="/pressroom-journal/');
    expect(again.status).toBe(404);
  });

  it('the page is in the language of the address: Arabic strings under /{channel}/ar/', async () => {
    const html = await (await get('/pressroom-journal/ar/gone', { accept: BROWSER })).text();
    expect(html).toContain('الصفحة غير موجودة');
    const english = await (await get('/pressroom-journal/gone', { accept: BROWSER })).text();
    expect(english).toContain('Page not found');
  });

  it.each([
    ['/pressroom-journal/no-such-article', {}],
    ['/pressroom-journal/no-such-article', { accept: '*/*' }],
    ['/pressroom-journal/no-such-article', { accept: 'application/json' }],
    ['/pressroom-journal/no-such-article', { accept: 'application/json, text/html;q=0.5' }],
    ['/api/public/v1/channels/no-such-channel', { accept: BROWSER }],
    ['/api/v1/nothing', { accept: BROWSER }],
  ])('%s with %j keeps the JSON error body', async (address, headers) => {
    const res = await get(address, headers as Record<string, string>);
    expect(res.status).toBe(address === '/api/v1/nothing' ? 401 : 404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await res.json()).schema_version).toBe('1.0');
    if (!address.startsWith('/api/')) expect(res.headers.get('vary')).toMatch(/Accept/);
  });

  it('a HEAD gets the page\'s headers and no body', async () => {
    const res = await fetch(`${t.url}/pressroom-journal/gone`, { method: 'HEAD', headers: { accept: BROWSER } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('');
  });
});

describe('the search page (issue 34)', () => {
  it.each([
    ['/search/', 'en', 'ltr', 'null'],
    ['/search/ar/', 'ar', 'rtl', '"ar"'],
    ['/search/?q=Markdown', 'en', 'ltr', 'null'],
  ])('%s is a page in %s that carries the query form and the search data', async (address, lang, dir, language) => {
    const res = await get(address);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(`<html lang="${lang}" dir="${dir}">`);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<form id="search-form"[^>]* method="get"/);
    expect(html).toContain('name="q"');
    // Without JavaScript, the same search from the public API.
    expect(html).toContain('action="/api/public/v1/search"');
    const data = JSON.parse(/<script type="application\/json" id="search-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(JSON.stringify(data.language)).toBe(language);
    expect(data.channels['pressroom-journal']).toBeTruthy();
    expect(data.languages.ar).toBe('العربية');
  });

  it('every page\'s header sends its query to the search page of its language', async () => {
    expect(await (await get('/pressroom-journal/ar/welcome')).text()).toMatch(/<form class="search" role="search"[^>]* action="\/search\/ar\/" method="get">/);
    expect(await (await get('/')).text()).toMatch(/<form class="search" role="search"[^>]* action="\/search\/" method="get">/);
  });

  it('/search without the slash and a language no channel has are 404', async () => {
    expect((await get('/search')).status).toBe(404);
    expect((await get('/search/sw/')).status).toBe(404);
  });
});

describe('link-preview cards (issue 34)', () => {
  /** The `og:image` of a page, and the answer its address gets. */
  async function preview(address: string): Promise<{ url: string; status: number; type: string | null; size: [number, number] }> {
    const html = await (await get(address)).text();
    const url = /<meta property="og:image" content="([^"]+)">/.exec(html)![1]!;
    const res = await get(new URL(url).pathname);
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = res.status === 200 ? await sharp(bytes).metadata() : { width: 0, height: 0 };
    return { url: new URL(url).pathname, status: res.status, type: res.headers.get('content-type'), size: [meta.width ?? 0, meta.height ?? 0] };
  }

  it.each([
    ['/', '/index.png'],
    ['/pressroom-journal/', '/pressroom-journal/index.png'],
    ['/pressroom-journal/ar/', '/pressroom-journal/ar/index.png'],
    ['/pressroom-journal/welcome', '/pressroom-journal/en/welcome.png'],
    ['/pressroom-journal/ar/welcome', '/pressroom-journal/ar/welcome.png'],
    ['/search/', '/index.png'],
  ])('%s is previewed by its drawn card %s, a 1200 × 630 PNG', async (address, card) => {
    expect(await preview(address)).toEqual({ url: card, status: 200, type: 'image/png', size: [1200, 630] });
  });

  it('the site logo is a PNG, and the publisher logo of a channel without an avatar', async () => {
    const res = await get('/logo.png');
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(512);
    const html = await (await get('/pressroom-journal/welcome')).text();
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!);
    expect(ld.publisher.logo.url).toMatch(/\/logo\.png$/);
  });

  it('a draft has no card; publishing it draws one, withdrawing it removes it', async () => {
    const created = await t.request('POST', '/api/v1/channels/pressroom-journal/pages', {
      key,
      body: { slug: 'card-draft', default_language: 'en', translations: [{ language: 'en', title: 'A card to come', content_markdown: 'Draft.' }] },
    });
    expect(created.status).toBe(201);
    expect((await get('/pressroom-journal/en/card-draft.png')).status).toBe(404);
    await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/card-draft/status', { key, body: { status: 'published' } });
    expect(await pollUntil(async () => (await get('/pressroom-journal/en/card-draft.png')).status, (s) => s === 200, { what: 'the card', intervalMs: 50 })).toBe(200);
    await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/card-draft/status', { key, body: { status: 'draft' } });
    expect(await pollUntil(async () => (await get('/pressroom-journal/en/card-draft.png')).status, (s) => s === 404, { what: 'the card gone', intervalMs: 50 })).toBe(404);
  });
});
