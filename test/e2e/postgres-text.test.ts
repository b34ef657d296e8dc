/**
 * Postgres cannot store or compare text holding U+0000, which SQLite takes
 * (issue 38). Every input reaching the store is refused with a 422 naming
 * its field, cleaned (a body: CommonMark turns U+0000 into U+FFFD), or
 * matches nothing (a sign-in name): never a 500. The fuzz corpus and the
 * hostile-input suite run on Postgres too (`vitest.config.ts`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedPostgres } from '../helpers/postgres-cluster.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_DATABASE_URL: await (await sharedPostgres()).createDatabase() });
  key = await t.key('texts', 'pro');
  expect((await t.request('POST', '/api/v1/channels', { key, body: { slug: 'texts', default_language: 'en', translations: [{ language: 'en', title: 'Texts' }] } })).status).toBe(201);
});
afterAll(async () => t?.stop());

it('refuses U+0000 in a title or a description with 422 naming the field', async () => {
  const channel = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'nul', default_language: 'en', translations: [{ language: 'en', title: 'A\u0000B', description: 'x\u0000' }] } });
  expect(channel.status).toBe(422);
  expect(Object.keys(channel.json.error.details.fields)).toEqual(['translations.0.title', 'translations.0.description']);
  const article = await t.request('POST', '/api/v1/channels/texts/pages', { key, body: { slug: 'a', default_language: 'en', translations: [{ language: 'en', title: 'T', excerpt: 'e\u0000', content_markdown: 'B' }] } });
  expect(article.status).toBe(422);
  expect(Object.keys(article.json.error.details.fields)).toEqual(['translations.0.excerpt']);
});

it('stores a body holding U+0000 with the character replaced, as CommonMark asks', async () => {
  const saved = await t.request('POST', '/api/v1/channels/texts/pages', { key, body: { slug: 'body', default_language: 'en', translations: [{ language: 'en', title: 'T', content_markdown: 'one\u0000two' }] } });
  expect(saved.status, saved.text).toBe(201);
  const read = await t.request('GET', '/api/v1/channels/texts/pages/body', { key });
  expect(read.json.translations[0].content_markdown).not.toContain('\u0000');
});

it('answers a search or a sign-in holding U+0000 without a 500', async () => {
  const search = await t.request('GET', '/api/v1/channels/texts/pages?q=a%00b', { key });
  expect(search.status).toBe(422);
  expect(search.json.error.details.fields.q).toMatch(/control character/);
  const signIn = await fetch(`${t.url}/dashboard/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url }, body: 'name=lo%00cal&password=x', redirect: 'manual' });
  expect(signIn.status).toBe(401);
});
