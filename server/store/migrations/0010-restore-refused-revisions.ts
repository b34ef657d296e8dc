/**
 * A refused revision of published content used to stay the translation's
 * current content: the publishing API showed the refused text as if it were
 * current, and the next edit started from it. Since issue 13 the block
 * restores the translation's content from its published revision (the
 * refused one is reported by `pending_revision`, found as the newest
 * revision). This brings rows blocked before that in line, in one statement.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Restores the public content of published translations whose current revision was refused. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE article_translations
    SET (current_revision_id, title, excerpt, content_markdown, seo_title, seo_description, content_html, content_text, body_version) = (
      SELECT id, title, excerpt, content_markdown, seo_title, seo_description, content_html, content_text, body_version
      FROM revisions WHERE revisions.id = article_translations.published_revision_id
    )
    WHERE status = 'published'
      AND published_revision_id IS NOT NULL
      AND current_revision_id IS NOT NULL
      AND current_revision_id <> published_revision_id
      AND EXISTS (SELECT 1 FROM revisions WHERE revisions.id = article_translations.published_revision_id)
      AND (SELECT moderation_state FROM revisions WHERE revisions.id = article_translations.current_revision_id) = 'blocked'`.execute(db);
}

/** Nothing to undo: the refused text is kept in its revision. */
export async function down(): Promise<void> {}
