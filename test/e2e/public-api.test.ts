/**
 * The public content API over real HTTP, against a real store and a real
 * built output: every endpoint and documented status, rules 1–8, the limits,
 * a cursor walk over a list that changes during the walk, search filters,
 * 304s and traversal probes. Every JSON answer is validated against
 * docs/openapi/public-content-api.yaml.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiValidator, type OpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const API = '/api/public/v1';
let t: TestService;
let key: string;
let openapi: OpenApiValidator;
/** (operation, status) pairs seen, to prove every documented status is provoked. */
const seen = new Set<string>();

interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function get(address: string, headers: Record<string, string> = {}, operation?: string): Promise<Got> {
  const res = await fetch(`${t.url}${address}`, { headers });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const op = operation ?? operationOf(address);
  if (op) {
    seen.add(`${op} ${res.status}`);
    if (res.status !== 304 && res.headers.get('content-type')?.startsWith('application/json')) {
      const problems = openapi.validateResponse('get', TEMPLATES[op]!, res.status, json);
      expect(problems, `${address} → ${res.status} does not match the OpenAPI document`).toEqual([]);
    }
  }
  return { status: res.status, headers: res.headers, text, json };
}

const TEMPLATES: Record<string, string> = {
  listPublicChannels: '/channels',
  getPublicChannel: '/channels/{channel_slug}',
  listPublicArticles: '/channels/{channel_slug}/articles',
  getPublicArticle: '/channels/{channel_slug}/articles/{article_slug}',
  getPublicArticleMarkdown: '/channels/{channel_slug}/articles/{article_slug}.md',
  searchPublicArticles: '/search',
};

function operationOf(address: string): string | null {
  const p = new URL(address, 'http://x').pathname.slice(API.length);
  if (!address.startsWith(API)) return null;
  if (p === '/channels') return 'listPublicChannels';
  if (p === '/search') return 'searchPublicArticles';
  if (/^\/channels\/[^/]+$/.test(p)) return 'getPublicChannel';
  if (/^\/channels\/[^/]+\/articles$/.test(p)) return 'listPublicArticles';
  if (/^\/channels\/[^/]+\/articles\/[^/]+\.md$/.test(p)) return 'getPublicArticleMarkdown';
  if (/^\/channels\/[^/]+\/articles\/[^/]+$/.test(p)) return 'getPublicArticle';
  return null;
}

/** Runs moderation, then waits for the build and the search index. */
/** The files of the server's kept answers (`http/answer-files.ts`) whose text contains `text`. */
function keptAnswersHolding(text: string): string[] {
  const dir = t.config.answerCacheDir;
  return fs.readdirSync(dir).filter((name) => {
    try {
      return fs.readFileSync(path.join(dir, name), 'utf8').includes(text);
    } catch {
      return false; // removed meanwhile
    }
  });
}

async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
  await t.service.searchIndex!.idle();
}

async function publish(slug: string, en: string, ar: string | null, extra: Record<string, unknown> = {}): Promise<void> {
  t.clock.advance(60_000);
  const translations = [{ language: 'en', title: en, content_markdown: `${en}.\n\nBody text about ${slug}.` }];
  if (ar) translations.push({ language: 'ar', title: ar, content_markdown: `${ar}.\n\nنص المقال.` });
  const res = await t.request('POST', '/api/v1/channels/wire/pages', {
    key,
    body: { slug, default_language: 'en', status: 'published', publish_translations: true, translations, ...extra },
  });
  expect(res.status, res.text).toBe(201);
}

async function unpublish(slug: string): Promise<void> {
  const res = await t.request('PATCH', `/api/v1/channels/wire/pages/${slug}/status`, { key, body: { status: 'draft', publish_translations: true } });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  openapi = createOpenApiValidator(path.join(PROJECT_ROOT, 'docs/openapi/public-content-api.yaml'));
  t = await startTestService(
    {
      PRESSROOM_STATIC_BUILD: 'true',
      PRESSROOM_IMPORT_CONTENT: 'true',
      PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content'),
      // Limits have their own suite (public-rate-limit.test.ts).
      PRESSROOM_RATE_LIMIT_CONTENT: '0',
      PRESSROOM_RATE_LIMIT_SEARCH: '0',
    },
    { startWorker: false },
  );
  key = await t.key('wire-owner', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: 'wire', default_language: 'en', translations: [{ language: 'en', title: 'Wire' }, { language: 'ar', title: 'السلك' }] },
  });
  expect(ch.status, ch.text).toBe(201);
  for (let i = 1; i <= 7; i++) await publish(`story-${i}`, `Story ${i} about lighthouses`, i % 2 === 1 ? `القصة ${i} عن المنارات` : null);
  await publish('secret-draft', 'Secret draft zeppelin', null, { status: 'draft' });
  await settle();
}, 180_000);
afterAll(async () => t?.stop());

describe('default forms come from the static files, byte for byte', () => {
  it.each([
    `${API}/channels`,
    `${API}/channels?lang=ar`,
    `${API}/channels/wire`,
    `${API}/channels/wire?lang=ar`,
    `${API}/channels/wire/articles`,
    `${API}/channels/wire/articles?lang=ar`,
    `${API}/channels/wire/articles/story-1`,
    `${API}/channels/wire/articles/story-1?lang=ar`,
    `${API}/channels/wire/articles/story-1.md?lang=ar`,
  ])('%s', async (address) => {
    const res = await get(address);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}(?:-br|-gzip)?"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
  });

  it('rendering a default form on demand gives the same bytes as its file', async () => {
    // limit=20 is the default value spelled out: answered by the renderer, not the file.
    for (const [variant, file] of [
      [`${API}/channels/wire/articles?limit=20`, 'api/public/v1/channels/wire/articles.json'],
      [`${API}/channels/wire/articles?lang=ar&limit=20`, 'api/public/v1/channels/wire/articles/_lang/ar.json'],
      [`${API}/channels?limit=20`, 'api/public/v1/channels.json'],
      [`${API}/channels?lang=ar&limit=20`, 'api/public/v1/channels/_lang/ar.json'],
    ] as const) {
      const res = await get(variant);
      expect(res.status).toBe(200);
      expect(res.text, variant).toBe(fs.readFileSync(path.join(t.config.outputDir, file), 'utf8'));
    }
  });
});

describe('rule 1: lang is exact, never substituted', () => {
  it('404 for a language the article is not published in, naming the ones it is', async () => {
    const res = await get(`${API}/channels/wire/articles/story-2?lang=ar`);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('TRANSLATION_NOT_FOUND');
    expect(res.json.error.message).toContain('en');
    const md = await get(`${API}/channels/wire/articles/story-2.md?lang=ar`);
    expect(md.status).toBe(404);
    expect(md.headers.get('content-type')).toContain('application/json');
    expect(md.json.error.code).toBe('TRANSLATION_NOT_FOUND');
  });

  it('is compared exactly (AR is not ar)', async () => {
    expect((await get(`${API}/channels/wire/articles/story-1?lang=AR`)).status).toBe(404);
  });

  it('a language list holds only articles published in it, shown in it', async () => {
    const res = await get(`${API}/channels/wire/articles?lang=ar&limit=50`);
    expect(res.json.articles.map((a: { slug: string }) => a.slug)).toEqual(['story-7', 'story-5', 'story-3', 'story-1']);
    expect(res.json.articles.every((a: { language: string }) => a.language === 'ar')).toBe(true);
  });

  it('422 for a value that cannot be a language code where 422 is documented, 404 elsewhere', async () => {
    for (const address of [`${API}/channels/wire/articles?lang=${'x'.repeat(17)}`, `${API}/channels/wire/articles/story-1?lang=en_US`, `${API}/channels?lang=12`]) {
      const res = await get(address);
      expect(res.status, address).toBe(422);
      expect(res.json.error.details.fields.lang, address).toBeTruthy();
    }
    expect((await get(`${API}/channels/wire?lang=${'x'.repeat(17)}`)).status).toBe(404);
    expect((await get(`${API}/channels/wire/articles/story-1.md?lang=${'x'.repeat(17)}`)).status).toBe(404);
  });

  it('the channel list in a language shows the channels published in it, in it', async () => {
    const res = await get(`${API}/channels?lang=ar`);
    expect(res.status).toBe(200);
    expect(res.json.channels.map((c: { slug: string }) => c.slug).sort()).toEqual(['pressroom-journal', 'wire']);
    expect(res.json.channels.find((c: { slug: string }) => c.slug === 'wire')).toMatchObject({ title: 'السلك', language: 'ar' });
    expect((await get(`${API}/channels?lang=fr`)).json.channels).toEqual([]);
  });
});

describe('rules 2 and 3: limit and cursor', () => {
  it.each(['0', '51', '-1', '2.5', 'ten', '', '1e1', '007x'])('limit=%j is 422', async (value) => {
    const res = await get(`${API}/channels/wire/articles?limit=${value}`);
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json.error.details.fields.limit).toMatch(/1 to 50/);
  });

  it('limit twice is 422', async () => {
    expect((await get(`${API}/channels/wire/articles?limit=2&limit=3`)).json.error.details.fields.limit).toMatch(/once/);
  });

  it('pages agree: _links.next and pagination, and the walk covers the list once', async () => {
    const slugs: string[] = [];
    let address: string | null = `${API}/channels/wire/articles?limit=3`;
    while (address) {
      const res: Got = await get(address.replace('http://pressroom.test', ''));
      expect(res.status).toBe(200);
      const { pagination, _links } = res.json;
      expect(pagination.limit).toBe(3);
      expect(pagination.has_more).toBe(pagination.next_cursor !== null);
      expect(_links.next === null).toBe(pagination.next_cursor === null);
      if (_links.next) expect(new URL(_links.next).searchParams.get('cursor')).toBe(pagination.next_cursor);
      slugs.push(...res.json.articles.map((a: { slug: string }) => a.slug));
      address = _links.next;
    }
    expect(slugs).toEqual(['story-7', 'story-6', 'story-5', 'story-4', 'story-3', 'story-2', 'story-1']);
  });

  it('a walk over a list that changes during the walk shows no duplicate and skips nothing that stayed published', async () => {
    const first = await get(`${API}/channels/wire/articles?limit=2`);
    const seenSlugs: string[] = first.json.articles.map((a: { slug: string }) => a.slug);
    expect(seenSlugs).toEqual(['story-7', 'story-6']);
    // Between pages: a new article on top, one already seen and one not yet seen are unpublished.
    await publish('story-8', 'Story 8 about lighthouses', null);
    await unpublish('story-6');
    await unpublish('story-3');
    await settle();
    let next: string | null = first.json._links.next;
    while (next) {
      const res: Got = await get(next.replace('http://pressroom.test', ''));
      seenSlugs.push(...res.json.articles.map((a: { slug: string }) => a.slug));
      next = res.json._links.next;
    }
    expect(new Set(seenSlugs).size).toBe(seenSlugs.length);
    expect(seenSlugs).toEqual(['story-7', 'story-6', 'story-5', 'story-4', 'story-2', 'story-1']);
  });

  it('a tampered, forged or foreign cursor is 422', async () => {
    const page = await get(`${API}/channels/wire/articles?limit=1`);
    const cursor: string = page.json.pagination.next_cursor;
    const [body, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 'public-articles:1:', p: { p: '2099-01-01', id: 1 } })).toString('base64url');
    for (const bad of [`${body}x.${mac}`, `${forged}.${mac}`, 'not-a-cursor', `${cursor}.extra`, `${cursor}A`, `${cursor}!`, cursor.slice(0, -1)]) {
      const res = await get(`${API}/channels/wire/articles?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.json.error.details.fields.cursor).toMatch(/next_cursor/);
    }
    // A cursor of the English list does not continue the Arabic one, nor another channel's.
    expect((await get(`${API}/channels/wire/articles?lang=ar&cursor=${encodeURIComponent(cursor)}`)).status).toBe(422);
    expect((await get(`${API}/channels/pressroom-journal/articles?cursor=${encodeURIComponent(cursor)}`)).status).toBe(422);
    expect((await get(`${API}/channels?cursor=${encodeURIComponent(cursor)}`)).status).toBe(422);
  });

  it('the channel list pages too', async () => {
    const first = await get(`${API}/channels?limit=1`);
    expect(first.json.channels).toHaveLength(1);
    expect(first.json.pagination.has_more).toBe(true);
    const second = await get(first.json._links.next.replace('http://pressroom.test', ''));
    expect(second.json.channels).toHaveLength(1);
    expect(second.json.channels[0].slug).not.toBe(first.json.channels[0].slug);
    expect(second.json.pagination).toEqual({ limit: 1, next_cursor: null, has_more: false });
  });
});

describe('include=html', () => {
  it('adds content_html, the rendered body, and nothing else changes', async () => {
    const plain = await get(`${API}/channels/wire/articles/story-1?lang=ar`);
    const withHtml = await get(`${API}/channels/wire/articles/story-1?lang=ar&include=html`);
    expect(withHtml.status).toBe(200);
    expect(withHtml.json.content_html).toContain('<p>');
    const { content_html: _html, ...rest } = withHtml.json;
    expect(rest).toEqual(plain.json);
    expect(withHtml.headers.get('etag')).not.toBe(plain.headers.get('etag'));
  });

  it('answers kept follow every change: a revision, a withdrawal, a new article on a kept page', async () => {
    await publish('kept', 'Kept first', null);
    await settle();
    const address = `${API}/channels/wire/articles/kept?include=html`;
    const first = await get(address);
    expect(first.json.content_html).toContain('Kept first');
    // The document was written to the folder of kept answers; the next request reads it from there.
    await until(() => keptAnswersHolding('Kept first').length === 1);
    expect((await get(address)).text).toBe(first.text);
    // Served again (from memory or disk), by the server's fast path this time (the app rendered and kept it): the
    // same status, headers and bytes, compressed alike, and a 304 for its validator.
    const headersOf = (g: Got) => Object.fromEntries([...g.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
    // Each spelling is a key of its own: its first request is the app's, the next the fast path's.
    const spellings: Array<[string, Record<string, string>]> = [
      [`${API}/channels/wire/articles/kept?include=html&lang=en`, {}],
      [`${API}/channels/wire/articles/kept?lang=en&include=html`, { 'accept-encoding': 'gzip' }],
      [`${API}/channels/wire/articles/kept?include=%68tml&lang=en`, { 'accept-encoding': 'br' }],
      [`${API}/channels/wire/articles/kept?include=%68tml`, { 'if-none-match': first.headers.get('etag')! }],
    ];
    for (const [spelling, extra] of spellings) {
      const byApp = await get(spelling, extra);
      const byFastPath = await get(spelling, extra);
      expect(byFastPath.status).toBe(byApp.status);
      expect(byFastPath.text).toBe(byApp.text);
      expect(headersOf(byFastPath)).toEqual(headersOf(byApp));
    }
    expect((await get(address, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
    const listAddress = `${API}/channels/wire/articles?limit=1`;
    const page = await get(listAddress);
    expect(page.json.articles.map((a: { slug: string }) => a.slug)).toEqual(['kept']);
    const pageAgain = await get(listAddress);
    expect(pageAgain.text).toBe(page.text);
    expect(headersOf(pageAgain)).toEqual(headersOf(page));

    t.clock.advance(60_000);
    const revised = await t.request('PUT', '/api/v1/channels/wire/pages/kept/translations/en', { key, body: { title: 'Kept revised', content_markdown: 'Kept revised body.' } });
    expect(revised.status, revised.text).toBe(200);
    await settle();
    // The build that rewrote the document dropped the answers made from it.
    await until(() => keptAnswersHolding('Kept first').length === 0);
    const now = await get(address);
    expect(now.json.content_html).toContain('Kept revised body');
    expect(now.headers.get('etag')).not.toBe(first.headers.get('etag'));
    await until(() => keptAnswersHolding('Kept revised body').length > 0);
    expect((await get(address)).text).toBe(now.text);

    await publish('kept-later', 'Kept later', null);
    await settle();
    expect((await get(`${API}/channels/wire/articles?limit=1`)).json.articles.map((a: { slug: string }) => a.slug)).toEqual(['kept-later']);

    await unpublish('kept');
    await settle();
    // Withdrawn: its kept answers left the folder with its files, before anyone asked again.
    await until(() => keptAnswersHolding('Kept revised body').length === 0);
    expect((await get(address)).status).toBe(404);
    expect((await get(`${API}/channels/wire/articles?limit=2`)).json.articles.map((a: { slug: string }) => a.slug)).not.toContain('kept');
    await unpublish('kept-later');
    await settle();
  }, 120_000);

  it.each(['markdown', 'HTML', '', 'html,text'])('include=%j is 422', async (value) => {
    const res = await get(`${API}/channels/wire/articles/story-1?include=${value}`);
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.include).toMatch(/html/);
  });
});

describe('rule 6: validators and 304 on the article JSON and Markdown, static or rendered', () => {
  it.each([
    `${API}/channels/wire/articles/story-1`,
    `${API}/channels/wire/articles/story-1.md`,
    `${API}/channels/wire/articles/story-1?include=html`,
    `${API}/channels/wire/articles?limit=2`,
  ])('%s', async (address) => {
    const first = await get(address);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(first.headers.get('last-modified')).toBeTruthy();
    const again = await get(address, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await get(address, { 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(304);
    expect((await get(address, { 'if-none-match': '"other"', 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(200);
  });
});

describe('validators on every other resource', () => {
  it.each([`${API}/channels`, `${API}/channels?lang=ar`, `${API}/channels/wire`, `${API}/search?q=story`])('%s answers 304 to its ETag', async (address) => {
    const first = await get(address);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toContain('max-age=');
    expect((await get(address, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
  });
});

describe('404s', () => {
  it.each([
    [`${API}/channels/nope`, 'CHANNEL_NOT_FOUND'],
    [`${API}/channels/nope/articles`, 'CHANNEL_NOT_FOUND'],
    [`${API}/channels/wire/articles/nope`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire/articles/nope.md`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire/articles/secret-draft`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire/articles/secret-draft.md`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire/articles/secret-draft?include=html`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire/articles/story-6`, 'ARTICLE_NOT_FOUND'],
    [`${API}/channels/wire?lang=fr`, 'TRANSLATION_NOT_FOUND'],
    [`${API}/channels/wire/articles?lang=fr`, 'TRANSLATION_NOT_FOUND'],
    [`${API}/nothing`, 'NOT_FOUND'],
    [`${API}/channels/wire/articles/story-1/more`, 'NOT_FOUND'],
  ])('%s is 404 %s with the JSON error body', async (address, code) => {
    const res = await get(address);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.json).toMatchObject({ schema_version: '1.0', error: { code, message: expect.stringMatching(/\. /) } });
  });

  it.each([
    `${API}/channels/..%2F..%2Fpackage.json`,
    `${API}/channels/wire/articles/..%2F..%2F..%2F..%2F..%2Fpackage`,
    `${API}/channels/%2e%2e/articles`,
    `${API}/channels/wire/articles/story-1.md?lang=..%2F..%2F..%2Fpackage`,
    `${API}/channels/wire/articles/%00`,
  ])('traversal probe %s is 404 and reads nothing outside the output', async (address) => {
    const res = await get(address);
    expect([400, 404]).toContain(res.status);
    expect(res.text).not.toContain('"dependencies"');
  });
});

describe('never a 500 for any query string', () => {
  it.each([
    '?lang=%ZZ',
    '?limit=99999999999999999999',
    '?cursor=%E0%A4%A',
    '?cursor=' + 'a'.repeat(5000),
    '?lang[]=en',
    '?include=html&include=html',
    '?q=%00%01',
    '?=&&&=',
  ])('%s', async (query) => {
    for (const base of [`${API}/channels`, `${API}/channels/wire/articles`, `${API}/channels/wire/articles/story-1`, `${API}/search`]) {
      const res = await fetch(`${t.url}${base}${query}`);
      expect(res.status, `${base}${query}`).toBeLessThan(500);
    }
  });
});

describe('search', () => {
  it('finds published translations only, with filters', async () => {
    const all = await get(`${API}/search?q=lighthouses`);
    expect(all.status).toBe(200);
    expect(all.json.query).toBe('lighthouses');
    const found = all.json.results.map((r: { slug: string; language: string }) => `${r.slug}:${r.language}`);
    expect(found).toEqual(expect.arrayContaining(['story-8:en', 'story-7:en', 'story-1:en']));
    expect(found.some((f: string) => f.startsWith('story-6:') || f.startsWith('story-3:'))).toBe(false);
    expect(all.json.returned_count).toBe(all.json.results.length);
    expect((await get(`${API}/search?q=zeppelin`)).json.results).toEqual([]);

    const ar = await get(`${API}/search?q=${encodeURIComponent('المنارات')}`);
    expect(ar.json.results.map((r: { slug: string }) => r.slug)).toEqual(['story-7', 'story-5', 'story-1']);
    expect((await get(`${API}/search?q=lighthouses&language=ar`)).json.results).toEqual([]);
    expect((await get(`${API}/search?q=lighthouses&channel=pressroom-journal`)).json.results).toEqual([]);
    expect((await get(`${API}/search?q=lighthouses&channel=wire&language=en&limit=50`)).json.results).toHaveLength(found.length);
  });

  it('matches a prefix of the last word and ignores case and punctuation', async () => {
    const res = await get(`${API}/search?q=${encodeURIComponent('STORY 7, lightho')}`);
    expect(res.json.results[0]).toMatchObject({ slug: 'story-7', language: 'en' });
  });

  it('ranks title matches first, then newest', async () => {
    const res = await get(`${API}/search?q=story&language=en&limit=50`);
    const slugs = res.json.results.map((r: { slug: string }) => r.slug);
    expect(slugs).toEqual(['story-8', 'story-7', 'story-5', 'story-4', 'story-2', 'story-1']);
  });

  it('pages with a cursor bound to its query', async () => {
    const first = await get(`${API}/search?q=story&language=en&limit=4`);
    expect(first.json.pagination.has_more).toBe(true);
    const second = await get(first.json._links.next.replace('http://pressroom.test', ''));
    expect([...first.json.results, ...second.json.results].map((r: { slug: string }) => r.slug)).toEqual([
      'story-8', 'story-7', 'story-5', 'story-4', 'story-2', 'story-1',
    ]);
    expect(second.json.pagination).toEqual({ limit: 4, next_cursor: null, has_more: false });
    const foreign = await get(`${API}/search?q=other&cursor=${encodeURIComponent(first.json.pagination.next_cursor)}`);
    expect(foreign.status).toBe(422);
  });

  it.each([
    ['', 'q'],
    ['?q=a', 'q'],
    ['?q=%20a%20', 'q'],
    [`?q=${'x'.repeat(161)}`, 'q'],
    ['?q=ok&limit=0', 'limit'],
    ['?q=ok&language=toolonglanguagecode', 'language'],
    ['?q=ok&cursor=', 'cursor'],
  ])('%s is 422 naming %s', async (query, field) => {
    const res = await get(`${API}/search${query}`);
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields[field]).toBeTruthy();
  });

  it('accepts exactly 2 and 160 characters', async () => {
    expect((await get(`${API}/search?q=ab`)).status).toBe(200);
    expect((await get(`${API}/search?q=${'x'.repeat(160)}`)).status).toBe(200);
  });

  it('a published change is searchable, an unpublished one is gone', async () => {
    await publish('story-9', 'Story 9 about quasars', null);
    await settle();
    expect((await get(`${API}/search?q=quasars`)).json.results.map((r: { slug: string }) => r.slug)).toEqual(['story-9']);
    await unpublish('story-9');
    await settle();
    expect((await get(`${API}/search?q=quasars`)).json.results).toEqual([]);
  });
});

describe('openapi', () => {
  it('is served at /api/public/v1/openapi.json and equals the YAML', async () => {
    const res = await fetch(`${t.url}${API}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(openapi.document);
  });

  it('every documented status but 429 and 503 was provoked above (those have their own suites)', () => {
    const missing = openapi
      .documentedResponses()
      .filter((r) => r.operationId && r.operationId !== 'getPublicOpenApi' && !['429', '503'].includes(r.status))
      .map((r) => `${r.operationId} ${r.status}`)
      .filter((k) => !seen.has(k));
    expect(missing).toEqual([]);
  });
});
