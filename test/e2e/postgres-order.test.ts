/**
 * Rows come back in the same order from both stores (issue 38). SQLite reads
 * a table by its key, so a query without ORDER BY still gives key order;
 * Postgres gives heap order, which an update changes. A build hashes what it
 * reads in order (`owner-inputs.ts`), so an unordered read made a warm full
 * build on Postgres render 6,417 of 10,330 owners again. Here rows are
 * updated until the heap order differs from the key order, and the reads
 * the build makes must still give key order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sharedPostgres } from '../helpers/postgres-cluster.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { readPublishedArticleRows, readPublishedLanguages, readPublishedRows } from '../../server/store/public-read.repository.ts';
import { BODY_RENDER_VERSION } from '../../server/domain/body/index.ts';

let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_DATABASE_URL: await (await sharedPostgres()).createDatabase() }, { startWorker: false });
  key = await t.key('orderly', 'pro');
  await t.request('POST', '/api/v1/channels', { key, body: { slug: 'order', default_language: 'en', translations: [{ language: 'en', title: 'Order' }] } });
  for (const slug of ['a', 'b', 'c']) {
    const written = await t.request('POST', '/api/v1/channels/order/pages', {
      key,
      body: { slug, default_language: 'fr', status: 'published', publish_translations: true, translations: ['fr', 'en', 'de'].map((language) => ({ language, title: `${slug} ${language}`, content_markdown: 'Text.' })) },
    });
    expect(written.status, written.text).toBe(201);
  }
  await t.service.worker.runDue();
});
afterAll(async () => t?.stop());

it('reads articles and translations in key order after updates moved them in the heap', async () => {
  // Updates write new row versions at the heap's end: the first-written rows now come last in a plain scan.
  await sql`UPDATE article_translations SET updated_at = updated_at WHERE language IN ('fr', 'de')`.execute(t.service.db);
  await sql`UPDATE articles SET updated_at = updated_at WHERE slug = 'a'`.execute(t.service.db);
  const heap = await sql<{ language: string }>`SELECT language FROM article_translations`.execute(t.service.db);
  expect(heap.rows.map((r) => r.language).slice(0, 3)).not.toEqual(['de', 'en', 'fr']);

  const articles = await readPublishedArticleRows(t.service.db, {});
  expect(articles.map((a) => a.id)).toEqual([...articles.map((a) => a.id)].sort((x, y) => x - y));
  const ids = articles.map((a) => a.id);
  const rows = await readPublishedRows(t.service.db, ids, { bodies: 'none', bodyVersion: BODY_RENDER_VERSION, imageSliceChars: 100 });
  const expected = ids.flatMap((id) => ['de', 'en', 'fr'].map((language) => `${id}:${language}`));
  expect(rows.map((r) => `${r.article_id}:${r.language}`)).toEqual(expected);
  expect((await readPublishedLanguages(t.service.db, ids)).map((r) => `${r.article_id}:${r.language}`)).toEqual(expected);
});
