/**
 * Each translation keeps the rendering of its current body, as revisions do
 * since 0006: the sanitised HTML and the plain text, made off the request
 * thread when the body is saved (the body pool), so reading a draft
 * (GET …/pages/{ref}) never parses Markdown again and a revision created
 * from the row reuses them. `body_version` is `BODY_RENDER_VERSION`; rows
 * of another version, or older rows (null), are rendered once when read and
 * stored back. Nothing is rendered here, for the reason given in 0006.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds the nullable columns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE article_translations ADD COLUMN content_html TEXT`.execute(db);
  await sql`ALTER TABLE article_translations ADD COLUMN content_text TEXT`.execute(db);
  await sql`ALTER TABLE article_translations ADD COLUMN body_version TEXT`.execute(db);
}

/** Drops them (SQLite ≥ 3.35). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE article_translations DROP COLUMN body_version`.execute(db);
  await sql`ALTER TABLE article_translations DROP COLUMN content_text`.execute(db);
  await sql`ALTER TABLE article_translations DROP COLUMN content_html`.execute(db);
}
