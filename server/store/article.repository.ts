/**
 * Articles, translations and revisions. Functions take the executor first;
 * the caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type {
  ArticleRow,
  ArticleUpdate,
  NewArticleRow,
  NewTranslationRow,
  RevisionRow,
  TranslationRow,
  TranslationUpdate,
} from './article.table.ts';
import type { RevisionTable } from './article.table.ts';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { ArticleListState } from '../domain/article/article-status.ts';
import { foldCase } from './database.ts';

/** An article by slug within a channel. */
export async function findArticleBySlug(db: Executor, channelId: number, slug: string): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('channel_id', '=', channelId).where('slug', '=', slug).executeTakeFirst();
}

/** An article by id within a channel. */
export async function findArticleById(db: Executor, channelId: number, id: number): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('channel_id', '=', channelId).where('id', '=', id).executeTakeFirst();
}

/** Inserts an article and returns it. */
export async function insertArticle(db: Executor, row: NewArticleRow): Promise<ArticleRow> {
  return db.insertInto('articles').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Updates an article's columns. */
export async function updateArticle(db: Executor, id: number, patch: ArticleUpdate): Promise<void> {
  await db.updateTable('articles').set(patch).where('id', '=', id).execute();
}

/** Translations of the given articles, ordered by article then language. */
export async function listTranslations(db: Executor, articleIds: readonly number[]): Promise<TranslationRow[]> {
  if (articleIds.length === 0) return [];
  return db
    .selectFrom('article_translations')
    .selectAll()
    .where('article_id', 'in', articleIds)
    .orderBy('article_id')
    .orderBy('language')
    .execute();
}

/** Inserts a translation and returns it. */
export async function insertTranslation(db: Executor, row: NewTranslationRow): Promise<TranslationRow> {
  return db.insertInto('article_translations').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Updates a translation's columns. */
export async function updateTranslation(db: Executor, id: number, patch: TranslationUpdate): Promise<void> {
  await db.updateTable('article_translations').set(patch).where('id', '=', id).execute();
}

/** Inserts the next revision of a translation (number = last + 1). */
export async function insertRevision(
  db: Executor,
  row: Omit<Insertable<RevisionTable>, 'number'>,
): Promise<RevisionRow> {
  const last = await db
    .selectFrom('revisions')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('translation_id', '=', row.translation_id)
    .executeTakeFirst();
  const number = (last?.n ?? 0) + 1;
  return db.insertInto('revisions').values({ ...row, number }).returningAll().executeTakeFirstOrThrow();
}

/** Changes a revision's moderation outcome. */
export async function updateRevision(
  db: Executor,
  id: number,
  patch: Partial<Pick<RevisionRow, 'moderation_state' | 'moderation_reason' | 'decided_at'>>,
): Promise<void> {
  await db.updateTable('revisions').set(patch).where('id', '=', id).execute();
}

/** Revisions by id. */
export async function findRevisions(db: Executor, ids: readonly number[]): Promise<RevisionRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('revisions').selectAll().where('id', 'in', ids).execute();
}

/**
 * The newest revision (highest id) of each translation that has one: the
 * latest submission, which moderation state the publishing API reports.
 */
export async function latestRevisions(db: Executor, translationIds: readonly number[]): Promise<RevisionRow[]> {
  if (translationIds.length === 0) return [];
  return db
    .selectFrom('revisions')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb.selectFrom('revisions').select((e) => e.fn.max('id').as('id')).where('translation_id', 'in', translationIds).groupBy('translation_id'),
    )
    .execute();
}

/** A translation's revisions, newest first (at most `limit`). */
export async function listTranslationRevisions(db: Executor, translationId: number, limit: number): Promise<RevisionRow[]> {
  return db.selectFrom('revisions').selectAll().where('translation_id', '=', translationId).orderBy('number', 'desc').limit(limit).execute();
}

/** Marks every revision of a translation still waiting for moderation as superseded. */
export async function supersedePendingRevisions(db: Executor, translationId: number, at: string): Promise<void> {
  await db
    .updateTable('revisions')
    .set({ moderation_state: 'superseded', decided_at: at })
    .where('translation_id', '=', translationId)
    .where('moderation_state', 'in', ['pending', 'manual_review'])
    .execute();
}

/**
 * One page of a channel's articles, newest first, keyed by id so that a
 * cursor stays stable while articles are added.
 */
export async function listArticlesPage(
  db: Executor,
  query: { channelId: number; status?: ArticleRow['status']; state?: ArticleListState; search?: string; beforeId?: number; limit: number },
): Promise<ArticleRow[]> {
  let q = db.selectFrom('articles').selectAll().where('channel_id', '=', query.channelId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.state) q = q.where(STATE_CONDITIONS[query.state]);
  if (query.search !== undefined) {
    // instr, not LIKE: the text is matched as typed (% and _ are no wildcards); fold_case folds any script (database.ts).
    const needle = foldCase(query.search);
    q = q.where(
      sql<boolean>`(instr(articles.slug, ${needle}) > 0 OR EXISTS (SELECT 1 FROM article_translations t WHERE t.article_id = articles.id AND instr(fold_case(t.title), ${needle}) > 0))`,
    );
  }
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  return q.orderBy('id', 'desc').limit(query.limit).execute();
}

/**
 * A translation `t` of the article with `r`, its newest revision (none: null), for the states
 * that depend on moderation; the same derivation as `translation-moderation.ts`, in SQL.
 */
function translationWhere(condition: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM article_translations t
    LEFT JOIN revisions r ON r.id = (SELECT max(r2.id) FROM revisions r2 WHERE r2.translation_id = t.id)
    WHERE t.article_id = articles.id AND (${condition}))`;
}

/** A published translation's newest revision is not the public one: what `pending_revision` reports on. */
const NEWER_REVISION = sql`t.status = 'published' AND r.id IS NOT NULL AND r.id IS DISTINCT FROM t.published_revision_id`;

/** Each list state (`ARTICLE_LIST_STATES`) as a condition on `articles`. */
const STATE_CONDITIONS: Record<ArticleListState, RawBuilder<boolean>> = {
  draft: sql<boolean>`articles.status = 'draft'`,
  scheduled: sql<boolean>`articles.status = 'scheduled' AND articles.scheduled_paused = 0`,
  paused: sql<boolean>`articles.status = 'scheduled' AND articles.scheduled_paused = 1`,
  published: sql<boolean>`articles.status = 'published'`,
  archived: sql<boolean>`articles.status = 'archived'`,
  // Under review and neither waiting for a person nor passed (a submission lost, defensively, also waits for the job).
  moderation_pending: translationWhere(
    sql`(t.status = 'moderation_review' AND (r.id IS NULL OR r.moderation_state NOT IN ('manual_review', 'passed'))) OR (${NEWER_REVISION} AND r.moderation_state = 'pending')`,
  ),
  manual_review: translationWhere(sql`r.moderation_state = 'manual_review' AND (t.status = 'moderation_review' OR (${NEWER_REVISION}))`),
  blocked: translationWhere(sql`t.status = 'moderation_blocked' OR (${NEWER_REVISION} AND r.moderation_state = 'blocked')`),
  pending_revision: translationWhere(sql`${NEWER_REVISION} AND r.moderation_state IN ('pending', 'manual_review', 'blocked')`),
};

/** Whether the store holds at least `count` articles, whatever their status (without counting them all). */
export async function articlesAtLeast(db: Executor, count: number): Promise<boolean> {
  if (count <= 0) return true;
  return (await db.selectFrom('articles').select('id').limit(1).offset(count - 1).execute()).length > 0;
}

/** Ids of every article of a channel, whatever its status. */
export async function listArticleIdsOfChannel(db: Executor, channelId: number): Promise<number[]> {
  return (await db.selectFrom('articles').select('id').where('channel_id', '=', channelId).orderBy('id').execute()).map((r) => r.id);
}

/** An article by id alone (jobs, which carry no channel). */
export async function findArticleRow(db: Executor, id: number): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A translation row by id. */
export async function findTranslationById(db: Executor, id: number): Promise<TranslationRow | undefined> {
  return db.selectFrom('article_translations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A revision waiting for a person, with where it belongs. */
export interface ManualReviewRow {
  revisionId: number;
  channel: string;
  article: string;
  language: string;
  title: string;
  reason: string | null;
  submittedAt: string;
}

/** Every revision in `manual_review`, oldest first. */
export async function listManualReviewRows(db: Executor): Promise<ManualReviewRow[]> {
  return db
    .selectFrom('revisions')
    .innerJoin('article_translations', 'article_translations.id', 'revisions.translation_id')
    .innerJoin('articles', 'articles.id', 'article_translations.article_id')
    .innerJoin('channels', 'channels.id', 'articles.channel_id')
    .select([
      'revisions.id as revisionId',
      'channels.slug as channel',
      'articles.slug as article',
      'article_translations.language as language',
      'revisions.title as title',
      'revisions.moderation_reason as reason',
      'revisions.created_at as submittedAt',
    ])
    .where('revisions.moderation_state', '=', 'manual_review')
    .orderBy('revisions.id')
    .execute();
}

/** Pauses every unpaused scheduled article of the channels `accountId` owns. @returns how many. */
export async function pauseScheduledArticlesOfOwner(db: Executor, accountId: number, reason: string, now: string): Promise<number> {
  const result = await db
    .updateTable('articles')
    .set({ scheduled_paused: 1, scheduled_pause_reason: reason, updated_at: now })
    .where('status', '=', 'scheduled')
    .where('scheduled_paused', '=', 0)
    .where('channel_id', 'in', db.selectFrom('channels').select('id').where('owner_account_id', '=', accountId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
