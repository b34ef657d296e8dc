/**
 * Hostile input over real HTTP (issue 18, items 6, 7 and 10): unsafe
 * Markdown never reaches the public Markdown, JSON or `Accept:
 * text/markdown` answers; all-digit slugs, impossible dates, invalid UTF-8,
 * lone surrogates, control/bidi characters and `__proto__` keys get a clear
 * 4xx naming the field.
 */
import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DANGEROUS_MARKDOWN } from '../fixtures/dangerous-markdown.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;

const UNSAFE_HTML = /<(?:script|iframe|meta|svg|style)|\son\w+=|(?:href|src)="\s*(?:javascript|vbscript|data):/i;
const UNSAFE_MARKDOWN = /<(?:script|iframe|meta|svg|style)|\son\w+=|\]\(\s*(?:javascript|vbscript|data)|<(?:javascript|vbscript|data):|\]:\s*(?:javascript|vbscript|data)/i;
const markdownIt = new MarkdownIt({ html: true });

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request('POST', path, { key, body, headers });
}

const page = (slug: string, overrides: Record<string, unknown> = {}, translation: Record<string, unknown> = {}) => ({
  slug,
  default_language: 'en',
  translations: [{ language: 'en', title: `Title ${slug}`, content_markdown: 'Text.', ...translation }],
  ...overrides,
});

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true' });
  key = await t.key('hostile', 'pro');
  const ch = await post('/api/v1/channels', { slug: 'wire', default_language: 'en', translations: [{ language: 'en', title: 'Wire' }] });
  expect(ch.status, ch.text).toBe(201);
}, 60_000);
afterAll(async () => t?.stop());

describe('public Markdown carries no unsafe HTML (item 6)', () => {
  it('stores, publishes and answers every dangerous body safely', async () => {
    const slugs = DANGEROUS_MARKDOWN.map((_, i) => `danger-${i + 1}`);
    for (const [i, [name, markdown]] of DANGEROUS_MARKDOWN.entries()) {
      const res = await post('/api/v1/channels/wire/pages', page(slugs[i]!, { status: 'published' }, { content_markdown: `Safe start.\n\n${markdown}` }));
      expect(res.status, `${name}: ${res.text}`).toBe(201);
      expect(res.json.translations[0].content_markdown, name).not.toMatch(UNSAFE_MARKDOWN);
      expect(res.json.warnings.map((w: { code: string }) => w.code), name).toEqual(
        expect.arrayContaining([expect.stringMatching(/^BODY_(HTML|UNSAFE_URL)_REMOVED$/)]),
      );
    }
    await t.service.worker.runDue();
    t.service.staticSite!.queue.kick();
    await t.service.staticSite!.queue.idle();

    for (const [i, [name]] of DANGEROUS_MARKDOWN.entries()) {
      const api = `/api/public/v1/channels/wire/articles/${slugs[i]}`;
      const json = await t.request('GET', api);
      expect(json.status, `${name}: ${json.text}`).toBe(200);
      expect(json.json.content_markdown, name).toContain('Safe start.');
      expect(json.json.content_markdown, name).not.toMatch(UNSAFE_MARKDOWN);
      const md = await t.request('GET', `${api}.md`);
      expect(md.status, name).toBe(200);
      expect(md.text, name).not.toMatch(UNSAFE_MARKDOWN);
      expect(markdownIt.render(md.text), name).not.toMatch(UNSAFE_HTML);
      const negotiated = await t.request('GET', `/wire/en/${slugs[i]}`, { headers: { accept: 'text/markdown' } });
      expect(negotiated.headers.get('content-type'), name).toMatch(/^text\/markdown/);
      expect(negotiated.text, name).toBe(md.text);
    }
  }, 120_000);
});

describe('all-digit slugs (item 7)', () => {
  it('refuses an all-digit article slug with a 422 naming slug', async () => {
    const res = await post('/api/v1/channels/wire/pages', page('38'));
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.slug).toMatch(/only digits/);
  });

  it('reads digits in …/pages/{ref} as the id only', async () => {
    const created = await post('/api/v1/channels/wire/pages', page('digits-target'));
    expect(created.status, created.text).toBe(201);
    const byId = await t.request('GET', `/api/v1/channels/wire/pages/${created.json.id}`, { key });
    expect(byId.json.slug).toBe('digits-target');
    expect((await t.request('GET', '/api/v1/channels/wire/pages/999999', { key })).status).toBe(404);
  });
});

describe('input validation (item 10)', () => {
  it('refuses an impossible scheduled_at instead of rolling it over', async () => {
    const res = await post('/api/v1/channels/wire/pages', page('leap', { status: 'scheduled', scheduled_at: '2027-02-29T09:00:00Z' }));
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.scheduled_at).toMatch(/must exist in the calendar/);
  });

  it('refuses a body that is not UTF-8 with a 400', async () => {
    const bytes = Buffer.concat([Buffer.from('{"slug":"utf","default_language":"en","translations":[{"language":"en","title":"Caf'), Buffer.from([0xe9]), Buffer.from('","content_markdown":"x"}]}')]);
    const res = await fetch(`${t.url}/api/v1/channels/wire/pages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: bytes });
    const json = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(json.error).toMatchObject({ code: 'MALFORMED_JSON', message: expect.stringContaining('UTF-8') });
  });

  it.each([
    ['a value', '{"slug":"sur","default_language":"en","translations":[{"language":"en","title":"a\\uD800b","content_markdown":"x"}]}', 'translations.0.title'],
    ['a trailing low surrogate', '{"slug":"sur","default_language":"en","translations":[{"language":"en","title":"ok","content_markdown":"x\\uDC00"}]}', 'translations.0.content_markdown'],
    ['a key', '{"slug":"sur","default_language":"en","\\uD800":1,"translations":[]}', null],
  ])('refuses a lone surrogate in %s with a 422 naming the field', async (_name, body, field) => {
    const res = await post('/api/v1/channels/wire/pages', body);
    expect(res.status, res.text).toBe(422);
    const fields = Object.keys(res.json.error.details.fields);
    expect(fields).toHaveLength(1);
    if (field) expect(fields).toEqual([field]);
    expect(Object.values(res.json.error.details.fields)[0]).toMatch(/lone UTF-16 surrogate/);
  });

  it('keeps a complete surrogate pair', async () => {
    const res = await post('/api/v1/channels/wire/pages', '{"slug":"pair","default_language":"en","translations":[{"language":"en","title":"Smile \\uD83D\\uDE00","content_markdown":"x"}]}');
    expect(res.status, res.text).toBe(201);
    expect(res.json.translations[0].title).toBe('Smile 😀');
  });

  it.each([
    ['an article title', page('c1', {}, { title: 'Invoice \u202Egpj.exe' }), 'translations.0.title'],
    ['an excerpt', page('c2', {}, { excerpt: 'a\u0007b' }), 'translations.0.excerpt'],
    ['an SEO title', page('c3', {}, { seo_title: 'x\u001b[2J' }), 'translations.0.seo_title'],
    ['an SEO description', page('c4', {}, { seo_description: 'x\u2066y' }), 'translations.0.seo_description'],
    ['an author name', page('c5', { author: { name: 'Eve\u0000' } }), 'author.name'],
  ])('refuses a control or bidi character in %s with a 422 naming it', async (_name, body, field) => {
    const res = await post('/api/v1/channels/wire/pages', body);
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.details.fields[field]).toMatch(/invisible control character U\+/);
  });

  it.each([
    ['title', { title: 'Wire \u202E' }, 'translations.0.title'],
    ['description', { title: 'Wire', description: 'a\u0085b' }, 'translations.0.description'],
  ])('refuses a control or bidi character in a channel %s', async (_name, translation, field) => {
    const res = await post('/api/v1/channels', { slug: 'ctl', default_language: 'en', translations: [{ language: 'en', ...translation }] });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.details.fields[field]).toMatch(/invisible control character/);
  });

  it('refuses a control character in media alt text', async () => {
    const form = new FormData();
    form.set('alt', 'photo\u202Egnp.exe');
    form.set('image', new Blob([Buffer.from('not really an image')], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${t.url}/api/v1/channels/wire/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const json = (await res.json()) as any;
    expect(res.status).toBe(422);
    expect(json.error.details.fields.alt).toMatch(/invisible control character U\+202E/);
  });

  it('names a top-level __proto__ key in details.fields', async () => {
    const res = await post('/api/v1/channels/wire/pages', '{"__proto__":{"x":1},"slug":"proto","default_language":"en","translations":[{"language":"en","title":"P","content_markdown":"x"}]}');
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.error.details.fields)).toEqual(['__proto__']);
    expect(res.json.error.message).toContain('__proto__');
  });
});
