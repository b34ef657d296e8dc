/**
 * The read API's full-text index (`search_documents` + `search_fts`): one
 * document per public article translation. Functions take `db` or a
 * transaction first; the caller owns the transaction.
 * @module
 */
import { sql } from 'kysely';
import { storeKind, type Executor } from './database.ts';
import { deleteSearchText, matchSearchText, putSearchText } from './postgres/search-index.postgres.ts';

/** A document to store: its key, filters, version and text. */
export interface SearchDocument {
  readonly articleId: number;
  readonly language: string;
  readonly channelId: number;
  readonly channelSlug: string;
  readonly publishedAt: string;
  readonly version: string;
  readonly title: string;
  readonly excerpt: string;
  readonly body: string;
}

/** Key of a document in {@link documentVersions}. */
export const documentKey = (articleId: number, language: string) => `${articleId}:${language}`;

/** Every stored document: key → { id, version, articleId }. */
export async function documentVersions(db: Executor): Promise<Map<string, { id: number; version: string; articleId: number }>> {
  const rows = await db.selectFrom('search_documents').select(['id', 'article_id', 'language', 'version']).execute();
  return new Map(rows.map((r) => [documentKey(r.article_id, r.language), { id: r.id, version: r.version, articleId: r.article_id }]));
}

/** Documents of the given articles: key → id. */
export async function documentsOfArticles(db: Executor, articleIds: readonly number[]): Promise<Map<string, number>> {
  if (articleIds.length === 0) return new Map();
  const rows = await db.selectFrom('search_documents').select(['id', 'article_id', 'language']).where('article_id', 'in', articleIds).execute();
  return new Map(rows.map((r) => [documentKey(r.article_id, r.language), r.id]));
}

/**
 * Stores a document, replacing the one with the same article and language:
 * one upsert for its row, one replace in the index (which keeps no copy of
 * the text, migration 0014).
 */
export async function putDocument(db: Executor, doc: SearchDocument): Promise<void> {
  const row = {
    article_id: doc.articleId,
    language: doc.language,
    channel_id: doc.channelId,
    channel_slug: doc.channelSlug,
    published_at: doc.publishedAt,
    version: doc.version,
  };
  const { id } = await db
    .insertInto('search_documents')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['article_id', 'language']).doUpdateSet({ channel_id: doc.channelId, channel_slug: doc.channelSlug, published_at: doc.publishedAt, version: doc.version }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  if (storeKind(db) === 'postgres') return putSearchText(db, id, doc);
  await sql`INSERT OR REPLACE INTO search_fts (rowid, title, excerpt, body) VALUES (${id}, ${doc.title}, ${doc.excerpt}, ${doc.body})`.execute(db);
}

/** Deletes documents by id. */
export async function deleteDocuments(db: Executor, ids: readonly number[]): Promise<void> {
  const postgres = storeKind(db) === 'postgres';
  for (const id of ids) {
    if (postgres) await deleteSearchText(db, id);
    else await sql`DELETE FROM search_fts WHERE rowid = ${id}`.execute(db);
    await db.deleteFrom('search_documents').where('id', '=', id).execute();
  }
}

/** One matching document. */
export interface SearchMatch {
  readonly articleId: number;
  readonly language: string;
  readonly publishedAt: string;
  /** Whether the title (alone) matches the whole query. */
  readonly inTitle: boolean;
}

/** A result position in search order (see `server/public-api/search-query.ts`). */
export interface SearchKeyset {
  /** 0 when the title matches, 1 otherwise. */
  readonly t: number;
  readonly p: string;
  readonly id: number;
  readonly l: string;
}

/**
 * The FTS5 MATCH expression for `words` (`searchWords`): every word, the
 * last also as a prefix, each quoted so nothing is read as FTS5 syntax.
 * @example ftsExpression(['static', 'sites']) // '"static" AND "sites"*'
 */
export function ftsExpression(words: readonly string[]): string {
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' AND ');
}

/**
 * The first `limit` documents matching every one of `words` (the last also
 * as a prefix) after the keyset position `after`, narrowed by language and
 * channel slug, in search order: title matches first, then newest article,
 * higher id, language. Sorting and paging happen in the database, so a
 * common word costs a sort of row ids, not a row object per match. On
 * Postgres, `postgres/search-index.postgres.ts` answers.
 */
export async function matchDocuments(
  db: Executor,
  query: { words: readonly string[]; language: string | null; channelSlug: string | null; after: SearchKeyset | null; limit: number },
): Promise<SearchMatch[]> {
  if (query.words.length === 0) return [];
  if (storeKind(db) === 'postgres') return (await matchSearchText(db, query)).map(toMatch);
  const match = ftsExpression(query.words);
  const titleMatch = `title : (${match})`;
  const a = query.after;
  const rows = await sql<{ article_id: number; language: string; published_at: string; t: number }>`
    SELECT article_id, language, published_at, t FROM (
      SELECT d.article_id, d.language, d.published_at,
        CASE WHEN d.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${titleMatch}) THEN 0 ELSE 1 END AS t
      FROM search_fts JOIN search_documents d ON d.id = search_fts.rowid
      WHERE search_fts MATCH ${match}
        AND (${query.language} IS NULL OR d.language = ${query.language})
        AND (${query.channelSlug} IS NULL OR d.channel_slug = ${query.channelSlug})
    )
    WHERE ${a === null ? 1 : 0} OR t > ${a?.t ?? 0}
      OR (t = ${a?.t ?? 0} AND (published_at < ${a?.p ?? ''}
        OR (published_at = ${a?.p ?? ''} AND (article_id < ${a?.id ?? 0}
          OR (article_id = ${a?.id ?? 0} AND language > ${a?.l ?? ''})))))
    ORDER BY t, published_at DESC, article_id DESC, language
    LIMIT ${query.limit}`.execute(db);
  return rows.rows.map(toMatch);
}

const toMatch = (r: { article_id: number; language: string; published_at: string; t: number }): SearchMatch => ({
  articleId: r.article_id,
  language: r.language,
  publishedAt: r.published_at,
  inTitle: r.t === 0,
});
