/**
 * Applies lifecycle events to stored translations and carries out their
 * effects (revisions, moderation jobs, withdrawal), then brings the
 * article-level record in line. Used by the API writes, the content/
 * importer and the lifecycle workers, so all follow one path.
 * Runs inside the caller's transaction.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import { insertJob } from '../../store/job.repository.ts';
import { announcePublicChange } from '../public-change.ts';
import type { ArticleRow, RevisionRow, TranslationRow, TranslationUpdate } from '../../store/article.table.ts';
import { articleStatusFor, nextTranslationState, type LifecycleEffect, type LifecycleEvent, type TranslationState } from './article-lifecycle.ts';
import type { ModerationState } from './article-status.ts';
import { currentRendering, keptColumns } from '../body/index.ts';
import { imageSlice } from '../body/article-image.ts';

/** Job kind that moderates one revision. */
export const MODERATION_JOB = 'moderate_revision';
/** Job kind that publishes a scheduled article when its time comes. */
export const SCHEDULE_JOB = 'publish_scheduled';
/** The jobs that change what is public when they run: each announces its change and asks for a build. */
export const CHANGING_JOBS: readonly string[] = [MODERATION_JOB, SCHEDULE_JOB];

/** How submissions are moderated: queued for the moderation worker, or trusted (content/ files). */
export type ModerationMode = 'queue' | 'trusted';

/** Hash of everything a revision snapshots; equal hashes mean equal content. */
export function contentHash(t: Pick<TranslationRow, 'title' | 'excerpt' | 'content_markdown' | 'seo_title' | 'seo_description'>): string {
  return createHash('sha256')
    .update(JSON.stringify([t.title, t.excerpt, t.content_markdown, t.seo_title, t.seo_description]))
    .digest('hex');
}

async function loadRevision(trx: Executor, id: number | null): Promise<RevisionRow | undefined> {
  if (id === null) return undefined;
  return (await articles.findRevisions(trx, [id]))[0];
}

/** The content columns of a translation row: what a revision snapshots, with its kept rendering. */
function contentOf(t: TranslationRow): TranslationUpdate {
  return {
    title: t.title,
    excerpt: t.excerpt,
    content_markdown: t.content_markdown,
    seo_title: t.seo_title,
    seo_description: t.seo_description,
    content_html: t.content_html,
    content_text: t.content_text,
    body_version: t.body_version,
    link_targets: t.link_targets,
  };
}

/**
 * The public revision's content as translation columns. When a revision of
 * published content is refused, the translation goes back to it: the API
 * then shows what readers get, and a later partial edit starts from the
 * public text, not the refused one (which `pending_revision` still reports).
 */
async function publicContent(trx: Executor, publishedRevisionId: number | null): Promise<Partial<TranslationRow> | undefined> {
  const revision = await loadRevision(trx, publishedRevisionId);
  if (!revision) return undefined;
  return {
    current_revision_id: revision.id,
    title: revision.title,
    excerpt: revision.excerpt,
    content_markdown: revision.content_markdown,
    seo_title: revision.seo_title,
    seo_description: revision.seo_description,
    // A rendering of an older renderer (or none) is made again when the translation is next read.
    content_html: revision.content_html,
    content_text: revision.content_text,
    body_version: revision.body_version,
    link_targets: revision.link_targets,
  };
}

/** The lifecycle's view of a stored translation. */
export async function stateOf(trx: Executor, row: TranslationRow, article: ArticleRow): Promise<TranslationState> {
  const current = await loadRevision(trx, row.current_revision_id);
  return {
    status: row.status,
    scheduledAt: row.scheduled_at,
    scheduledPaused: article.scheduled_paused === 1,
    hasPublicVersion: row.published_revision_id !== null,
    pendingRevision:
      row.status === 'published' &&
      current !== undefined &&
      current.id !== row.published_revision_id &&
      (current.moderation_state === 'pending' || current.moderation_state === 'manual_review'),
  };
}

/**
 * Each effect once, at its last place: what a later event asks for is done
 * after what an earlier one did. Scheduling a published translation while
 * saving new content (`revise`, then `schedule`) must withdraw before it
 * snapshots, or the withdrawal would supersede the new revision; saving as a
 * draft after a revision must supersede it, as it does.
 */
export function lastOccurrences<T>(items: readonly T[]): T[] {
  return items.filter((item, i) => items.lastIndexOf(item) === i);
}

/** The result of applying events to one translation. */
export interface AppliedTranslation {
  readonly row: TranslationRow;
  readonly effects: readonly LifecycleEffect[];
  /** The moderation state the events produced, when they changed it. */
  readonly moderation: ModerationState | null | undefined;
}

/**
 * Applies events, in order, to one translation and carries out the effects.
 * @returns the updated row.
 */
export async function applyTranslationEvents(
  trx: Executor,
  ctx: { now: string; mode: ModerationMode },
  article: ArticleRow,
  row: TranslationRow,
  events: readonly LifecycleEvent[],
): Promise<AppliedTranslation> {
  let state = await stateOf(trx, row, article);
  const effects: LifecycleEffect[] = [];
  let moderation: ModerationState | null | undefined;
  for (const event of events) {
    const step = nextTranslationState(state, event, ctx.now);
    state = step.state;
    effects.push(...step.effects);
    if (step.moderation !== undefined) moderation = step.moderation;
  }
  // Trusted sources (content/ files, reviewed in the repository) pass moderation as they are submitted.
  if (ctx.mode === 'trusted' && effects.includes('moderate')) {
    const step = nextTranslationState(state, { type: 'moderation_pass' }, ctx.now);
    state = step.state;
    effects.push(...step.effects);
    if (step.moderation !== undefined) moderation = step.moderation;
  }
  const next: TranslationRow = { ...row, status: state.status, scheduled_at: state.scheduledAt, updated_at: ctx.now };
  let contentRestored = false;
  for (const effect of lastOccurrences(effects)) {
    switch (effect) {
      case 'withdraw':
        await articles.supersedePendingRevisions(trx, row.id, ctx.now);
        next.published_revision_id = null;
        next.published_at = null;
        break;
      case 'moderate': {
        await articles.supersedePendingRevisions(trx, row.id, ctx.now);
        const trusted = ctx.mode === 'trusted';
        // The rendering the save made (off the request thread) and kept on the row (`currentRendering`), so
        // the revision is rendered once, where it is made, rather than by every build and search rebuild.
        const body = currentRendering(next);
        const revision = await articles.insertRevision(trx, {
          translation_id: row.id,
          title: next.title,
          excerpt: next.excerpt,
          content_markdown: next.content_markdown,
          seo_title: next.seo_title,
          seo_description: next.seo_description,
          content_hash: contentHash(next),
          ...keptColumns(body),
          image_html: imageSlice(body.html) ?? '',
          moderation_state: trusted ? 'passed' : 'pending',
          moderation_reason: trusted ? 'trusted_source' : null,
          created_at: ctx.now,
          decided_at: trusted ? ctx.now : null,
        });
        next.current_revision_id = revision.id;
        if (!trusted) {
          await insertJob(trx, { kind: MODERATION_JOB, payload: { revisionId: revision.id }, runAt: ctx.now, now: ctx.now });
        }
        break;
      }
      case 'make_public':
        next.published_revision_id = next.current_revision_id;
        next.published_at ??= ctx.now;
        if (next.current_revision_id !== null) {
          await articles.updateRevision(trx, next.current_revision_id, { moderation_state: 'passed', decided_at: ctx.now });
        }
        break;
      case 'discard_pending_revision':
        if (next.current_revision_id !== null && next.current_revision_id !== next.published_revision_id) {
          await articles.updateRevision(trx, next.current_revision_id, { moderation_state: 'blocked', decided_at: ctx.now });
          const restored = await publicContent(trx, next.published_revision_id);
          if (restored) {
            Object.assign(next, restored);
            contentRestored = true;
          }
        }
        break;
      case 'arm_schedule':
        if (state.scheduledAt !== null) {
          await insertJob(trx, { kind: SCHEDULE_JOB, payload: { articleId: article.id }, runAt: state.scheduledAt, now: ctx.now });
        }
        break;
      case 'record_moderation':
        break;
    }
  }
  // What readers see changed: tell the builder, in this same transaction (outbox).
  if (next.published_revision_id !== row.published_revision_id) {
    await announcePublicChange(trx, { kind: 'article', channelId: article.channel_id, articleId: article.id, languages: [row.language] }, ctx.now);
  }
  await articles.updateTranslation(trx, row.id, {
    ...(contentRestored ? contentOf(next) : {}),
    status: next.status,
    scheduled_at: next.scheduled_at,
    published_revision_id: next.published_revision_id,
    published_at: next.published_at,
    current_revision_id: next.current_revision_id,
    updated_at: next.updated_at,
  });
  return { row: next, effects, moderation };
}

/**
 * Releases secondary translations that passed moderation while the primary was
 * not out yet: they waited in `moderation_review` (publishing rule 1) and now
 * follow the primary, never going out before it.
 */
async function releaseWaitingSecondaries(trx: Executor, now: string, article: ArticleRow, primary: TranslationRow): Promise<void> {
  if (primary.status !== 'published' && primary.status !== 'scheduled') return;
  for (const t of await articles.listTranslations(trx, [article.id])) {
    if (t.language === article.default_language || t.status !== 'moderation_review') continue;
    const revision = await loadRevision(trx, t.current_revision_id);
    if (revision?.moderation_state !== 'passed') continue;
    const primaryAt = primary.status === 'scheduled' ? primary.scheduled_at : null;
    const at = [t.scheduled_at, primaryAt].filter((v): v is string => v !== null).sort().pop() ?? null;
    await applyTranslationEvents(trx, { now, mode: 'queue' }, article, { ...t, scheduled_at: at }, [{ type: 'moderation_pass' }]);
  }
}

/**
 * Whether a secondary translation that just passed moderation must wait for
 * the primary (which is neither published nor scheduled yet).
 */
export function secondaryMustWait(article: ArticleRow, language: string, primary: TranslationRow): boolean {
  return language !== article.default_language && primary.status !== 'published' && primary.status !== 'scheduled';
}

/**
 * Brings the article-level record, and the secondaries waiting for the
 * primary, in line with the primary translation.
 * @param archived whether the article is (still) archived.
 */
export async function syncArticleRecord(
  trx: Executor,
  now: string,
  article: ArticleRow,
  primary: AppliedTranslation | TranslationRow,
  archived: boolean,
): Promise<ArticleRow> {
  const row = 'row' in primary ? primary.row : primary;
  const moderation = 'row' in primary && primary.moderation !== undefined ? primary.moderation : article.moderation;
  const status = articleStatusFor(row.status, archived);
  const next: ArticleRow = {
    ...article,
    status,
    moderation,
    scheduled_at: row.status === 'scheduled' || row.status === 'moderation_review' ? row.scheduled_at : null,
    scheduled_paused: row.status === 'scheduled' ? article.scheduled_paused : 0,
    scheduled_pause_reason: row.status === 'scheduled' ? article.scheduled_pause_reason : null,
    published_at: row.published_revision_id !== null ? (article.published_at ?? now) : archived ? article.published_at : null,
    updated_at: now,
  };
  if (!archived) await releaseWaitingSecondaries(trx, now, article, row);
  await articles.updateArticle(trx, article.id, {
    status: next.status,
    moderation: next.moderation,
    scheduled_at: next.scheduled_at,
    scheduled_paused: next.scheduled_paused,
    scheduled_pause_reason: next.scheduled_pause_reason,
    published_at: next.published_at,
    updated_at: now,
  });
  return next;
}

/**
 * Changes an article's homepage visibility; tells the builder when the
 * article is public, since only the homepage changes.
 */
export async function setHomepageMode(trx: Executor, now: string, article: ArticleRow, mode: ArticleRow['homepage_mode']): Promise<ArticleRow> {
  if (mode === article.homepage_mode) return article;
  await articles.updateArticle(trx, article.id, { homepage_mode: mode, updated_at: now });
  if (article.published_at !== null && article.status !== 'archived') {
    await announcePublicChange(trx, { kind: 'article_homepage', channelId: article.channel_id, articleId: article.id }, now);
  }
  return { ...article, homepage_mode: mode, updated_at: now };
}
