/**
 * The read API's search index on Postgres (`search_fts`: a document's
 * title and its every field as `tsvector`s, `migrations/0001-schema.ts`),
 * answering as SQLite's FTS5 index does (`../search-document.repository.ts`,
 * which calls these): every word required, the last also as a prefix; case
 * and diacritics ignored; English stems; title matches first, then newest.
 *
 * The text is cut into words as FTS5 cuts it, and lowered by Unicode's
 * rules whatever the database's locale ({@link searchableText}).
 * Where the answers differ (docs/SEARCH.md; `test/e2e/search-stores.test.ts`
 * compares them): `unaccent` also folds letters such as ß (to ss) and æ,
 * which FTS5 keeps; and a document's vector holds at most 1 MB, so the
 * words of a very long body past that are not indexed.
 * @module
 */
import { sql } from 'kysely';
import type { Executor } from '../database.ts';

/** Characters per piece of text turned into a vector at once (the last piece may be shorter; a word is never cut). */
export const VECTOR_PIECE_CHARS = 50_000;

/** `text` cut at white space into pieces of about {@link VECTOR_PIECE_CHARS}. */
export function vectorPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > VECTOR_PIECE_CHARS) {
    let end = text.indexOf(' ', start + VECTOR_PIECE_CHARS);
    if (end === -1) end = text.length;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * The words of `text` with one space between each: letters, digits and
 * marks, as FTS5's unicode61 tokenizer and the reader's query
 * (`searchWords`) cut them. Postgres's own parser would keep an e-mail
 * address, a host name or a version number as one word, which a search for
 * one of its parts would then miss.
 */
export function searchableText(text: string): string {
  // Lower case here, by Unicode's rules: Postgres lowers by the database's locale, which under "C" is ASCII only.
  return text.replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ').toLowerCase();
}

/** Stores the vectors of document `id` (its row in `search_documents` exists). */
export async function putSearchText(db: Executor, id: number, doc: { title: string; excerpt: string; body: string }): Promise<void> {
  const title = searchableText(doc.title);
  const pieces = [title, searchableText(doc.excerpt), ...vectorPieces(searchableText(doc.body))];
  await sql`
    INSERT INTO search_fts (id, title, everything)
    VALUES (${id}, pressroom_search_vector(ARRAY[${title}::text]), pressroom_search_vector(${pieces}::text[]))
    ON CONFLICT (id) DO UPDATE SET title = excluded.title, everything = excluded.everything`.execute(db);
}

/** Removes the vectors of document `id`. */
export async function deleteSearchText(db: Executor, id: number): Promise<void> {
  await sql`DELETE FROM search_fts WHERE id = ${id}`.execute(db);
}

/**
 * The query for `words`: each whole word's lexemes (`plainto_tsquery`: a
 * word the parser cuts in two needs both parts), and the last word's as
 * prefixes. A `tsquery` made from the lexemes directly, never from the
 * reader's text, so nothing typed is read as query syntax.
 */
function wordsQuery(words: readonly string[]) {
  // Lowered as the documents' text is ({@link searchableText}).
  const lowered = words.map((w) => w.toLowerCase());
  const whole = lowered.slice(0, -1).map((w) => sql`plainto_tsquery('pressroom_search', ${w}::text)`);
  const last = sql`(SELECT string_agg(quote_literal(lexeme) || ':*', ' & ')::tsquery FROM unnest(to_tsvector('pressroom_search', ${lowered[lowered.length - 1]!}::text)))`;
  return sql.join([...whole, last], sql` && `);
}

/** See `matchDocuments` (`../search-document.repository.ts`): the same rows in the same order. */
export async function matchSearchText(
  db: Executor,
  query: {
    words: readonly string[];
    language: string | null;
    channelSlug: string | null;
    after: { t: number; p: string; id: number; l: string } | null;
    limit: number;
  },
): Promise<Array<{ article_id: number; language: string; published_at: string; t: number }>> {
  const a = query.after;
  const { rows } = await sql<{ article_id: number; language: string; published_at: string; t: number }>`
    SELECT article_id, language, published_at, t FROM (
      SELECT d.article_id, d.language, d.published_at, CASE WHEN f.title @@ q.query THEN 0 ELSE 1 END AS t
      FROM (SELECT ${wordsQuery(query.words)} AS query) q
        JOIN search_fts f ON f.everything @@ q.query
        JOIN search_documents d ON d.id = f.id
      WHERE (${query.language}::text IS NULL OR d.language = ${query.language}::text)
        AND (${query.channelSlug}::text IS NULL OR d.channel_slug = ${query.channelSlug}::text)
    ) m
    WHERE ${a === null}::boolean OR t > ${a?.t ?? 0}::int
      OR (t = ${a?.t ?? 0}::int AND (published_at < ${a?.p ?? ''}::text
        OR (published_at = ${a?.p ?? ''}::text AND (article_id < ${a?.id ?? 0}::bigint
          OR (article_id = ${a?.id ?? 0}::bigint AND language > ${a?.l ?? ''}::text)))))
    ORDER BY t, published_at DESC, article_id DESC, language
    LIMIT ${query.limit}::int`.execute(db);
  return rows;
}
