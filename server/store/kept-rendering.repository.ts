/**
 * The kept renderings of bodies (`content_html`, `content_text`,
 * `body_version`, `link_targets`, and a revision's `image_html`): which rows
 * hold one of another renderer, and storing a new one. Used only by the
 * refresh at start (`domain/article/refresh-renderings.ts`); saves keep
 * theirs with the row.
 * @module
 */
import { sql, type SqlBool } from 'kysely';
import type { Executor } from './database.ts';

/** A body to render again: its row's id and Markdown. */
export interface StaleBody {
  readonly id: number;
  readonly content_markdown: string;
}

/** A rendering to keep, as `keptColumns` makes it. */
export interface KeptColumns {
  readonly content_html: string;
  readonly content_text: string;
  readonly body_version: string;
  readonly link_targets: string | null;
}

// Stale means another renderer's `body_version` (or none). Only that head column is tested, never the bodies'
// own columns, which come after the bodies in the row (migration 0013): this runs at every start. A rendering of
// `version` always keeps all of them together (`keptColumns`).
const staleTranslation = (version: string) => sql<SqlBool>`article_translations.body_version IS DISTINCT FROM ${version}`;

// A revision is read only while a translation shows it (published) or edits it (current); older ones are history.
// The ids are collected once (a set SQLite builds before the scan), not looked up per revision: an OR of two
// columns cannot use an index, and a correlated lookup scanned every translation for every revision.
// Rows older than migration 0012 have no image slice (a head column), and are rendered again too.
const staleRevision = (version: string) =>
  sql<SqlBool>`(revisions.body_version IS DISTINCT FROM ${version} OR revisions.image_html IS NULL)
    AND revisions.id IN (SELECT published_revision_id FROM article_translations UNION SELECT current_revision_id FROM article_translations)`;

/** How many translations and read revisions hold no rendering of `version`. */
export async function countStaleBodies(db: Executor, version: string): Promise<{ translations: number; revisions: number }> {
  const t = await db.selectFrom('article_translations').select((eb) => eb.fn.countAll<number>().as('n')).where(staleTranslation(version)).executeTakeFirstOrThrow();
  const r = await db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).where(staleRevision(version)).executeTakeFirstOrThrow();
  return { translations: Number(t.n), revisions: Number(r.n) };
}

/** The next `limit` translations after id `afterId` that hold no rendering of `version`. */
export async function listStaleTranslations(db: Executor, version: string, afterId: number, limit: number): Promise<StaleBody[]> {
  return db
    .selectFrom('article_translations')
    .select(['id', 'content_markdown'])
    .where(staleTranslation(version))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The next `limit` read revisions (published or current) after id `afterId` that hold no rendering of `version`. */
export async function listStaleRevisions(db: Executor, version: string, afterId: number, limit: number): Promise<StaleBody[]> {
  return db.selectFrom('revisions').select(['id', 'content_markdown']).where(staleRevision(version)).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

/**
 * Keeps a translation's rendering, unless its Markdown is no longer
 * `markdown` (a save came first, and kept its own).
 */
export async function keepTranslationRendering(db: Executor, id: number, markdown: string, kept: KeptColumns): Promise<void> {
  await db.updateTable('article_translations').set(kept).where('id', '=', id).where('content_markdown', '=', markdown).execute();
}

/** Keeps a revision's rendering and its image slice ('' for none). A revision's Markdown never changes. */
export async function keepRevisionRendering(db: Executor, id: number, kept: KeptColumns & { readonly image_html: string }): Promise<void> {
  await db.updateTable('revisions').set(kept).where('id', '=', id).execute();
}

/**
 * Gives each translation with no rendering of `version` the one its current
 * revision keeps, when that revision holds the same Markdown (most do: a
 * saved translation's revision is a snapshot of it) and is of `version`.
 * One statement instead of rendering the body a second time.
 * @returns how many translations it gave one.
 */
export async function copyRenderingsFromRevisions(db: Executor, version: string): Promise<number> {
  const result = await sql`
    UPDATE article_translations
    SET (content_html, content_text, body_version, link_targets, content_prose) = (
      SELECT r.content_html, r.content_text, r.body_version, r.link_targets, r.content_prose FROM revisions r WHERE r.id = article_translations.current_revision_id
    )
    WHERE ${staleTranslation(version)}
      AND EXISTS (
        SELECT 1 FROM revisions r
        WHERE r.id = article_translations.current_revision_id AND r.body_version = ${version} AND r.content_html IS NOT NULL
          AND r.content_text IS NOT NULL AND r.content_prose IS NOT NULL AND r.content_markdown = article_translations.content_markdown
      )`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
