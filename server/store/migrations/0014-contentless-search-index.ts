/**
 * The read API's FTS5 index keeps no copy of the texts (`content=''`).
 * Nothing reads a column back from `search_fts`: a search matches, then
 * shows the public state's summary of each match (`public-search.ts`). The
 * copy doubled what a fill writes (each translation's plain text) and the
 * database's size (docs/PERFORMANCE-HISTORY.md, issue 17's sixth session).
 * `contentless_delete=1` (SQLite 3.43 and later) keeps `DELETE` and
 * `INSERT OR REPLACE` by rowid working as before.
 *
 * The documents already indexed are indexed again from the old table, in
 * the migration, so search keeps answering across the upgrade. Indexing is
 * fast per document (same section), so this stays short even on a large
 * site (estimated, not measured at that size).
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Replaces `search_fts` with a contentless table holding the same documents. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The tokenizer as in 0005: porter over unicode61, diacritics folded.
  await sql`CREATE VIRTUAL TABLE search_fts_contentless USING fts5(title, excerpt, body, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`INSERT INTO search_fts_contentless (rowid, title, excerpt, body) SELECT rowid, title, excerpt, body FROM search_fts`.execute(db);
  await sql`DROP TABLE search_fts`.execute(db);
  await sql`ALTER TABLE search_fts_contentless RENAME TO search_fts`.execute(db);
}

/**
 * Back to a table with content. The texts are gone, so the documents go too
 * and the next start indexes every public translation again.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE search_fts`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, excerpt, body, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`DELETE FROM search_documents`.execute(db);
  await sql`DELETE FROM instance_settings WHERE key IN ('search_index_complete', 'search_index_through')`.execute(db);
}
