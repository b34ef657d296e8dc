/**
 * Migration 0014 on a real SQLite file written by 0013: the documents already
 * indexed still match (title filters included), the index keeps no text, and
 * the repository replaces and deletes documents in it as before.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../database.ts';
import { deleteDocuments, documentsOfArticles, matchDocuments, putDocument, type SearchDocument } from '../search-document.repository.ts';
import { databaseBefore, type DatabaseBefore } from '../../../test/helpers/migrated-database.ts';

let before: DatabaseBefore;
let db: Db;

beforeEach(async () => {
  before = await databaseBefore('0014');
  db = before.db;
});
afterEach(() => before.remove());

const apply = () => before.applyRest();
const matching = async (word: string) =>
  (await matchDocuments(db, { words: [word], language: null, channelSlug: null, after: null, limit: 10 })).map((m) => `${m.articleId}:${m.language}:${m.inTitle}`);
const doc = (articleId: number, language: string, title: string, body: string): SearchDocument => ({
  articleId,
  language,
  channelId: 1,
  channelSlug: 'news',
  publishedAt: `2026-11-0${articleId}T00:00:00.000Z`,
  version: 'v1',
  title,
  excerpt: '',
  body,
});

it('keeps every indexed document searchable and stores no text', async () => {
  await sql`INSERT INTO search_documents (id, article_id, language, channel_id, channel_slug, published_at, version) VALUES
    (1, 1, 'en', 1, 'news', '2026-11-01T00:00:00.000Z', 'v1'), (2, 2, 'fr', 1, 'news', '2026-11-02T00:00:00.000Z', 'v1')`.execute(db);
  await sql`INSERT INTO search_fts (rowid, title, excerpt, body) VALUES (1, 'Harbour lights', '', 'Boats running late'), (2, 'Le café', '', 'Une histoire du port')`.execute(db);

  await apply();

  expect(await matching('harbour')).toEqual(['1:en:true']);
  expect(await matching('run')).toEqual(['1:en:false']); // stemmed as before
  expect(await matching('cafe')).toEqual(['2:fr:true']); // diacritics folded as before
  const options = (await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'search_fts'`.execute(db)).rows[0]!.sql;
  expect(options).toMatch(/content = ''/);
  expect((await sql<{ body: string | null }>`SELECT body FROM search_fts WHERE rowid = 1`.execute(db)).rows[0]!.body).toBeNull();
});

it('replaces a document in place and deletes it without a trace in the index', async () => {
  await apply();
  await putDocument(db, doc(1, 'en', 'Harbour lights', 'Boats running late'));
  await putDocument(db, doc(2, 'en', 'Mountain air', 'Snow on the pass'));
  const before = await documentsOfArticles(db, [1, 2]);

  await putDocument(db, { ...doc(1, 'en', 'Quiet streets', 'Walking home'), version: 'v2' });

  expect(await documentsOfArticles(db, [1, 2])).toEqual(before); // same row ids
  expect(await matching('harbour')).toEqual([]);
  expect(await matching('walk')).toEqual(['1:en:false']);
  const version = await db.selectFrom('search_documents').select('version').where('article_id', '=', 1).executeTakeFirstOrThrow();
  expect(version.version).toBe('v2');

  await deleteDocuments(db, [before.get('1:en')!]);
  expect(await matching('walk')).toEqual([]);
  expect(await matching('snow')).toEqual(['2:en:false']);
});
