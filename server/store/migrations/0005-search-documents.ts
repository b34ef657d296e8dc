/**
 * The read API's full-text index: one document per public article
 * translation (`search_documents`) and its FTS5 index (`search_fts`, rowid =
 * document id). Kept in step with the public state by the search index
 * keeper (`server/public-api/search-keeper.ts`) from the same build reports
 * that drive the static output.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates `search_documents` and `search_fts`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE search_documents (
      id INTEGER PRIMARY KEY,
      article_id INTEGER NOT NULL,
      language TEXT NOT NULL,
      channel_id INTEGER NOT NULL,
      channel_slug TEXT NOT NULL,
      published_at TEXT NOT NULL,
      version TEXT NOT NULL,
      UNIQUE (article_id, language)
    )`.execute(db);
  await sql`CREATE INDEX search_documents_channel ON search_documents(channel_slug, language)`.execute(db);
  // porter over unicode61: English stemming for ASCII words, every other script tokenised as is;
  // diacritics folded so "cafe" finds "café" (as Pagefind does).
  await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, excerpt, body, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
}

/** Drops both tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS search_fts`.execute(db);
  await sql`DROP TABLE IF EXISTS search_documents`.execute(db);
}
