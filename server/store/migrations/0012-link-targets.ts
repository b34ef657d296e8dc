/**
 * `link_targets` on translations and revisions: where the body's relative
 * link targets are (`server/domain/body/link-targets.ts`), found when the
 * body is rendered and stored with `content_html` and `content_text`, so a
 * build makes them absolute in the public Markdown without parsing the body
 * again. Null on older rows (the first build that renders one finds and
 * stores them) and on bodies over the limits (found whenever built).
 *
 * `image_html` on revisions: the stored HTML from its first `<img`
 * (`imageSlice`, `server/domain/body/article-image.ts`), or '' when it has
 * none, so reading every article's head (lists, feeds, the read API's state
 * at start) no longer scans every body's HTML for an image. Null on older
 * rows, which are scanned until a build stores it with their link targets.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds `link_targets` to `article_translations` and `revisions`, and `image_html` to `revisions`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE article_translations ADD COLUMN link_targets TEXT`.execute(db);
  await sql`ALTER TABLE revisions ADD COLUMN link_targets TEXT`.execute(db);
  await sql`ALTER TABLE revisions ADD COLUMN image_html TEXT`.execute(db);
}

/** Drops the three columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE revisions DROP COLUMN image_html`.execute(db);
  await sql`ALTER TABLE revisions DROP COLUMN link_targets`.execute(db);
  await sql`ALTER TABLE article_translations DROP COLUMN link_targets`.execute(db);
}
