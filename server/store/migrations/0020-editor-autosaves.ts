/**
 * The editor's autosave slot (issue 37, item 5): what an editor was writing
 * in the dashboard's editor of a translation that a save would send to
 * moderation (published, scheduled, in moderation), kept privately instead
 * of saved. One row per account, article and language; never read by
 * anything public. New table only: no rewrite.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE editor_autosaves (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    article_id INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    title TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    content_markdown TEXT NOT NULL,
    seo_title TEXT NOT NULL,
    seo_description TEXT NOT NULL,
    based_on_version TEXT,
    saved_at TEXT NOT NULL,
    PRIMARY KEY (account_id, article_id, language)
  )`.execute(db);
  await sql`CREATE INDEX editor_autosaves_by_article ON editor_autosaves (article_id)`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE editor_autosaves`.execute(db);
}
