/**
 * Each revision keeps its rendered body: the sanitised HTML and the plain
 * text, made once when the revision is saved (`article-events.ts`) instead of
 * on every build and every search rebuild. `body_version` names the body
 * renderer that made them (`BODY_RENDER_VERSION`); a row whose version
 * differs, or older rows (null), are rendered when read and stored again by
 * the builder (`server/read-model/public-model.ts`). Nothing is rendered here:
 * a migration over a large site would take minutes, and the first full build
 * renders those bodies anyway.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds the nullable columns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE revisions ADD COLUMN content_html TEXT`.execute(db);
  await sql`ALTER TABLE revisions ADD COLUMN content_text TEXT`.execute(db);
  await sql`ALTER TABLE revisions ADD COLUMN body_version TEXT`.execute(db);
}

/** Drops them (SQLite ≥ 3.35). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE revisions DROP COLUMN body_version`.execute(db);
  await sql`ALTER TABLE revisions DROP COLUMN content_text`.execute(db);
  await sql`ALTER TABLE revisions DROP COLUMN content_html`.execute(db);
}
