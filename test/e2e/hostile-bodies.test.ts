/**
 * Issue 18, items 1 and 3, over real HTTP: bodies that used to take minutes
 * or overflow the stack are refused with a 422 naming the field and the
 * limit; a body over the time limit is stopped on its thread while the
 * server keeps answering; a draft is read without being rendered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectReadsDuring } from '../helpers/reads-during.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;

const TIME_LIMIT_MS = 1_500;
// Within every limit, each per-body total near its maximum and padded to 1 MB: the costliest body the
// limits let through, a few seconds of parsing, so only the time limit (set low here) stops it.
const SLOW_HEAD = `${'word *x* and [y](http://x.example/) '.repeat(10).trim()}\n\n`.repeat(500) + `${'*x* '.repeat(10)}\n\n`.repeat(499) + '> quote\n\n'.repeat(499);
const SLOW_MARKDOWN = SLOW_HEAD + 'word '.repeat(Math.floor((999_000 - SLOW_HEAD.length) / 5));

const MARKDOWN: Array<[string, () => string, string]> = [
  ['"*a" × 100,000 (was 530 s)', () => '*a'.repeat(100_000), 'delimitersPerBlock'],
  ['">" × 100,000 (was 382 s, then a 500)', () => '>'.repeat(100_000), 'markdownDepth'],
  ['">" × 2,000 (was a stack overflow)', () => '>'.repeat(2_000), 'markdownDepth'],
  ['"[" × 200,000 + "a" + "]" × 200,000 (was > 20 min)', () => '['.repeat(200_000) + 'a' + ']'.repeat(200_000), 'bracketsPerBlock'],
  ['a 500-deep nested list (was 25 s)', () => Array.from({ length: 500 }, (_, k) => `${'  '.repeat(k)}- item`).join('\n'), 'markdownDepth'],
  ['a 10,000-deep list (was a stack overflow)', () => `${'- '.repeat(10_000)}a`, 'markdownDepth'],
  ['a 5,000-column table (was 5 s)', () => `|${'a|'.repeat(5_000)}\n|${'-|'.repeat(5_000)}\n`, 'tableColumns'],
  ['1.5 MB of plain text in one paragraph (was ~15 s)', () => 'word '.repeat(300_000), 'segmentChars'],
];

const HTML: Array<[string, () => string, string]> = [
  ['10,000 nested <div> (110 KB, was a stack overflow)', () => `${'<div>'.repeat(10_000)}x${'</div>'.repeat(10_000)}`, 'htmlDepth'],
  ['3,000 nested <b> (was a stack overflow)', () => `<p>${'<b>'.repeat(3_000)}x</p>`, 'htmlDepth'],
  ['10,000-deep lists (was a stack overflow)', () => `${'<ul><li>'.repeat(10_000)}x`, 'htmlDepth'],
];

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_BODY_TIME_LIMIT_MS: String(TIME_LIMIT_MS), PRESSROOM_BODY_WORKERS: '1' });
  key = await t.key('hostile', 'free');
  const res = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'bodies', default_language: 'en', translations: [{ language: 'en', title: 'Bodies' }] } });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => t?.stop());

const save = (slug: string, body: Record<string, string>) =>
  t.request('POST', '/api/v1/channels/bodies/pages', { key, body: { slug, default_language: 'en', translations: [{ language: 'en', title: 'T', ...body }] } });

describe('bodies over a limit', () => {
  it.each(MARKDOWN)('content_markdown %s → 422 naming the field and its limit', async (_name, make, limit) => {
    const res = await save('md', { content_markdown: make() });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.json.error.code).toBe('VALIDATION_FAILED');
    const message: string = res.json.error.details.fields['translations.0.content_markdown'];
    expect(message).toContain(`limit ${limit}`);
    expect(message).toMatch(/at most [\d,]+/);
  });

  it('a stretch of over a million characters that cannot be divided is refused, naming the translation and saying how to divide it', async () => {
    const res = await t.request('POST', '/api/v1/channels/bodies/pages', {
      key,
      body: {
        slug: 'two-big',
        default_language: 'en',
        translations: [
          { language: 'en', title: 'T', content_markdown: 'Short.' },
          { language: 'fr', title: 'T', content_markdown: 'a'.repeat(1_000_001) },
        ],
      },
    });
    expect(res.status).toBe(422);
    const message: string = res.json.error.details.fields['translations.1.content_markdown'];
    expect(message).toContain('limit segmentChars');
    expect(message).toMatch(/Line 1 begins 1000001 characters that cannot be divided.*Start a paragraph/);
  });

  it.each(HTML)('content_html %s → 422 naming the field and its limit', async (_name, make, limit) => {
    const res = await save('html', { content_html: make() });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.json.error.details.fields['translations.0.content_html']).toContain(`limit ${limit}`);
  });

  it('PUT of one translation names its own field', async () => {
    expect((await save('put', { content_markdown: 'Fine.' })).status).toBe(201);
    const res = await t.request('PUT', '/api/v1/channels/bodies/pages/put/translations/en', { key, body: { title: 'T', content_markdown: '>'.repeat(2_000) } });
    expect(res.status).toBe(422);
    expect(res.json.error.details.fields.content_markdown).toContain('limit markdownDepth');
  });

  it('saves nothing of a refused article', async () => {
    expect((await t.request('GET', '/api/v1/channels/bodies/pages/md', { key })).status).toBe(404);
  });
});

describe('a body over the time limit', () => {
  it('is stopped and refused with 422 while the server goes on answering other requests', async () => {
    const res = await expectReadsDuring(t, key, 'the save', () => save('slow', { content_markdown: SLOW_MARKDOWN }));
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    const message: string = res.json.error.details.fields['translations.0.content_markdown'];
    expect(message).toContain(`${TIME_LIMIT_MS} ms`);
    expect(message).toContain('limit timeMs');
  });

  it('leaves the pool working: the next save is processed', async () => {
    const res = await save('after', { content_markdown: 'After the **slow** one.' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.translations[0].content_html).toBe('<p>After the <strong>slow</strong> one.</p>');
  });
});

describe('reading a draft', () => {
  it('serves the rendering stored at save time instead of rendering again', async () => {
    const created = await save('draft', { content_markdown: 'Draft *body*.' });
    expect(created.status).toBe(201);
    expect(created.json.translations[0].content_html).toBe('<p>Draft <em>body</em>.</p>');
    const row = await t.service.db.selectFrom('article_translations').select(['id', 'content_html', 'content_text', 'body_version']).where('content_markdown', '=', 'Draft *body*.\n').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content_html: '<p>Draft <em>body</em>.</p>', content_text: 'Draft body.', body_version: expect.any(String) });

    // A marker only the stored column holds: a GET that rendered the Markdown again could not show it.
    await t.service.db.updateTable('article_translations').set({ content_html: '<p>stored</p>' }).where('id', '=', row.id).execute();
    const read = await t.request('GET', '/api/v1/channels/bodies/pages/draft', { key });
    expect(read.json.translations[0].content_html).toBe('<p>stored</p>');
  });

  it('renders a row saved before renderings were kept, for the answer only: a read writes nothing (the next start keeps it)', async () => {
    expect((await save('old', { content_markdown: 'Old *row*.' })).status).toBe(201);
    await t.service.db.updateTable('article_translations').set({ content_html: null, content_text: null, body_version: null }).where('content_markdown', '=', 'Old *row*.\n').execute();
    const read = await t.request('GET', '/api/v1/channels/bodies/pages/old', { key });
    expect(read.json.translations[0].content_html).toBe('<p>Old <em>row</em>.</p>');
    const row = await t.service.db.selectFrom('article_translations').select(['content_html', 'body_version']).where('content_markdown', '=', 'Old *row*.\n').executeTakeFirstOrThrow();
    expect(row).toEqual({ content_html: null, body_version: null });
  });
});
