/**
 * `content_prose` on translations and revisions: the body's paragraphs as
 * plain text (no headings, tables, code, lists or image text), made with
 * `content_html` and `content_text` when the body is rendered
 * (`server/domain/body/prose.ts`). Every automatic summary (list items,
 * descriptions, feeds, llms.txt) is cut from it, so a build reads it instead
 * of parsing the body. Null on older rows: the renderer that makes it is
 * `BODY_RENDER_VERSION` 3, so those rows are rendered again and kept once,
 * when the service starts (`refresh-renderings.ts`).
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds `content_prose` to `article_translations` and `revisions`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE article_translations ADD COLUMN content_prose TEXT`.execute(db);
  await sql`ALTER TABLE revisions ADD COLUMN content_prose TEXT`.execute(db);
}

/** Drops the two columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE revisions DROP COLUMN content_prose`.execute(db);
  await sql`ALTER TABLE article_translations DROP COLUMN content_prose`.execute(db);
}
