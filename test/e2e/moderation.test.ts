/**
 * Moderation over every public field, over real HTTP (issue 18 item 5):
 * article fields that used to skip moderation now go through the job, and
 * texts that go public as they are written (channel title and description,
 * the byline) are refused in the request with `CONTENT_REFUSED`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
let rulesDir: string;

beforeAll(async () => {
  rulesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-rules-'));
  const rules = path.join(rulesDir, 'rules.json');
  fs.writeFileSync(rules, JSON.stringify({ blocked_terms: ['zzblockmarker', 'casino bonus'], blocked_link_domains: ['spam.example'], review_terms: ['needsaperson'] }));
  t = await startTestService({ PRESSROOM_MODERATION_FILE: rules });
  key = await t.key('moderated', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'mod', default_language: 'en', translations: [{ language: 'en', title: 'Mod' }] } });
  expect(ch.status).toBe(201);
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(rulesDir, { recursive: true, force: true });
});

async function publishedRevision(slug: string): Promise<number | null> {
  const row = await t.service.db
    .selectFrom('article_translations')
    .innerJoin('articles', 'articles.id', 'article_translations.article_id')
    .select('article_translations.published_revision_id')
    .where('articles.slug', '=', slug)
    .executeTakeFirstOrThrow();
  return row.published_revision_id;
}

describe('article fields go through the moderation job', () => {
  it.each([
    ['seo-title', { seo_title: 'Win a casino\u00a0bonus' }, 'Body.'],
    ['seo-description', { seo_description: 'zz**block**marker' }, 'Body.'],
    ['excerpt-entity', { excerpt: 'zzblock&#109;arker' }, 'Body.'],
    ['alt-text', {}, '![zzblock\u00admarker](/media/x.png)'],
    ['html-link', {}, 'See <a href="//spam.example/">this</a>.'],
    ['md-link', {}, 'See [this](https://user@SPAM.example./x).'],
  ])('%s: ends moderation_blocked and is not public', async (slug, fields, body) => {
    const res = await t.request('POST', '/api/v1/channels/mod/pages', {
      key,
      body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Fine', content_markdown: body, ...fields }] },
    });
    expect(res.status, res.text).toBe(201);
    await t.service.worker.runDue();
    const article = (await t.request('GET', `/api/v1/channels/mod/pages/${slug}`, { key })).json;
    expect(article).toMatchObject({ status: 'draft', moderation: 'blocked' });
    expect(article.translations[0].status).toBe('moderation_blocked');
    expect(await publishedRevision(slug)).toBeNull();
  });

  it('a clean article with SEO fields and a byline is published', async () => {
    const res = await t.request('POST', '/api/v1/channels/mod/pages', {
      key,
      body: { slug: 'clean', default_language: 'en', status: 'published', author: { name: 'Ana' }, translations: [{ language: 'en', title: 'A class act', seo_title: 'Classic', seo_description: 'On https://good.example/', content_markdown: 'Text.' }] },
    });
    expect(res.status, res.text).toBe(201);
    await t.service.worker.runDue();
    expect((await t.request('GET', '/api/v1/channels/mod/pages/clean', { key })).json).toMatchObject({ status: 'published', moderation: 'passed' });
  });

  it('a blocked byline is refused in the request, naming author.name', async () => {
    const res = await t.request('POST', '/api/v1/channels/mod/pages', {
      key,
      body: { slug: 'clean', default_language: 'en', author: { name: 'ＺＺblockmarker' }, translations: [{ language: 'en', title: 'A class act', content_markdown: 'Text.' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('CONTENT_REFUSED');
    expect(Object.keys(res.json.error.details.fields)).toEqual(['author.name']);
  });
});

describe('channel texts are checked in the request', () => {
  it.each([
    ['POST', '/api/v1/channels', { slug: 'c1', default_language: 'en', translations: [{ language: 'en', title: 'zz\u200bblockmarker' }] }, 'translations.0.title'],
    ['POST', '/api/v1/channels', { slug: 'c2', default_language: 'en', translations: [{ language: 'en', title: 'Fine', description: 'Visit <a href="//spam.example/">us</a>' }] }, 'translations.0.description'],
    ['PATCH', '/api/v1/channels/mod', { title: 'Casino\u00a0Bonus' }, 'title'],
    ['PATCH', '/api/v1/channels/mod', { description: 'This needsaperson' }, 'description'],
    ['PATCH', '/api/v1/channels/mod', { translations: [{ language: 'fr', title: 'Bien' }, { language: 'de', title: 'https:\\\\spam.example/' }] }, 'translations.1.title'],
  ])('%s %s → 422 CONTENT_REFUSED naming the field', async (method, url, body, field) => {
    const res = await t.request(method, url, { key, body });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('CONTENT_REFUSED');
    expect(Object.keys(res.json.error.details.fields)).toEqual([field]);
    expect(res.json.error.details.fields[field]).toMatch(/blocked_term|blocked_link_domain|review_term/);
  });

  it('refused writes change nothing; clean ones pass', async () => {
    const channel = (await t.request('GET', '/api/v1/channels/mod', { key })).json;
    expect(JSON.stringify(channel)).not.toMatch(/spam|casino|needsaperson|bien/i);
    expect((await t.request('GET', '/api/v1/channels/c1', { key })).status).toBe(404);
    const ok = await t.request('PATCH', '/api/v1/channels/mod', { key, body: { title: 'A classy channel', description: 'See https://good.example/' } });
    expect(ok.status, ok.text).toBe(200);
  });
});
