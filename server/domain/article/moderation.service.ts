/**
 * Moderation of submitted revisions: the worker asks the policy, an
 * administrator decides on manual reviews. Both go through {@link decideRevision}.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import { findAccountById } from '../../store/account.repository.ts';
import { findChannelById } from '../../store/channel.repository.ts';
import { PressroomError } from '../errors.ts';
import type { ModerationDecision, ModerationPolicy } from '../moderation/moderation-policy.ts';
import type { LifecycleEvent } from './article-lifecycle.ts';
import { applyTranslationEvents, secondaryMustWait, syncArticleRecord } from './article-write.ts';

/** A revision waiting for a decision, with everything of it that readers would get. */
export interface ReviewSubject {
  revision: { title: string; excerpt: string | null; markdown: string; seoTitle: string | null; seoDescription: string | null };
  /** The article's byline, as it is now: it is public beside the revision once that passes. */
  authorName: string | null;
  language: string;
  channelSlug: string;
  accountReviewRequired: boolean;
  state: 'pending' | 'manual_review';
}

/** What happened to a revision. */
export type ModerationOutcome = 'passed' | 'blocked' | 'manual_review' | 'skipped';

const EVENT: Record<ModerationDecision['outcome'], LifecycleEvent> = {
  pass: { type: 'moderation_pass' },
  block: { type: 'moderation_block' },
  manual: { type: 'moderation_manual' },
};

/**
 * Applies a decision to a revision, in one transaction. A revision that is no
 * longer the translation's current one, or was already decided, is skipped:
 * the job may run twice after a crash.
 * @param decide the policy's or a person's decision; called only when the revision still waits.
 */
export async function decideRevision(
  deps: { db: Db; clock: Clock },
  revisionId: number,
  decide: (subject: ReviewSubject) => ModerationDecision | null,
): Promise<ModerationOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    const now = isoNow(deps.clock);
    const revision = (await articles.findRevisions(trx, [revisionId]))[0];
    if (!revision || (revision.moderation_state !== 'pending' && revision.moderation_state !== 'manual_review')) return 'skipped';
    const translation = await trx.selectFrom('article_translations').selectAll().where('id', '=', revision.translation_id).executeTakeFirst();
    if (!translation || translation.current_revision_id !== revision.id) {
      await articles.updateRevision(trx, revision.id, { moderation_state: 'superseded', decided_at: now });
      return 'skipped';
    }
    const article = await trx.selectFrom('articles').selectAll().where('id', '=', translation.article_id).executeTakeFirstOrThrow();
    const channel = await findChannelById(trx, article.channel_id);
    const owner = channel ? await findAccountById(trx, channel.owner_account_id) : undefined;
    const decision = decide({
      revision: {
        title: revision.title,
        excerpt: revision.excerpt,
        markdown: revision.content_markdown,
        seoTitle: revision.seo_title,
        seoDescription: revision.seo_description,
      },
      authorName: article.author_name,
      language: translation.language,
      channelSlug: channel?.slug ?? '',
      accountReviewRequired: owner?.review_required === 1,
      state: revision.moderation_state,
    });
    if (decision === null) return 'skipped';
    if (decision.outcome === 'pass') {
      const primary = (await articles.listTranslations(trx, [article.id])).find((t) => t.language === article.default_language)!;
      if (secondaryMustWait(article, translation.language, primary)) {
        // Approved, but it waits in moderation_review until the primary is out (publishing rule 1).
        await articles.updateRevision(trx, revision.id, { moderation_state: 'passed', moderation_reason: 'waiting_for_primary', decided_at: now });
        return 'passed';
      }
      if (translation.language !== article.default_language && primary.status === 'scheduled' && (translation.scheduled_at ?? '') < primary.scheduled_at!) {
        translation.scheduled_at = primary.scheduled_at;
      }
    }
    // The lifecycle reads the revision as still waiting, so it is applied first.
    const applied = await applyTranslationEvents(trx, { now, mode: 'queue' }, article, translation, [EVENT[decision.outcome]]);
    // The revision's own record: manual review and blocks are kept with their reason.
    if (decision.outcome !== 'pass') {
      await articles.updateRevision(trx, revision.id, {
        moderation_state: decision.outcome === 'block' ? 'blocked' : 'manual_review',
        moderation_reason: decision.reason,
        decided_at: decision.outcome === 'block' ? now : null,
      });
    }
    if (translation.language === article.default_language) {
      await syncArticleRecord(trx, now, article, applied, article.status === 'archived');
    }
    return decision.outcome === 'pass' ? 'passed' : decision.outcome === 'block' ? 'blocked' : 'manual_review';
  });
}

/** Runs the policy on a revision (the `moderate_revision` job). */
export function moderateRevision(deps: { db: Db; clock: Clock; policy: ModerationPolicy }, revisionId: number): Promise<ModerationOutcome> {
  return decideRevision(deps, revisionId, (s) =>
    // A revision already waiting for a person is not re-run through the rules.
    s.state === 'manual_review'
      ? null
      : deps.policy.evaluate({
          language: s.language,
          title: s.revision.title,
          excerpt: s.revision.excerpt,
          markdown: s.revision.markdown,
          seoTitle: s.revision.seoTitle,
          seoDescription: s.revision.seoDescription,
          authorName: s.authorName,
          channelSlug: s.channelSlug,
          accountReviewRequired: s.accountReviewRequired,
        }),
  );
}

/** A translation waiting for a person, for `admin moderation list`. */
export interface ManualReviewItem {
  revisionId: number;
  channel: string;
  article: string;
  language: string;
  title: string;
  reason: string | null;
  submittedAt: string;
}

/** Every revision waiting for a person, oldest first. */
export async function listManualReviews(db: Executor): Promise<ManualReviewItem[]> {
  const rows = await db
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
  return rows;
}

/**
 * A person's decision on a translation waiting for manual review.
 * @throws PressroomError NOT_FOUND when nothing of it waits for review.
 */
export async function decideManualReview(
  deps: { db: Db; clock: Clock },
  target: { channel: string; article: string; language: string },
  outcome: 'pass' | 'block',
  note?: string,
): Promise<ModerationOutcome> {
  const item = (await listManualReviews(deps.db)).find(
    (r) => r.channel === target.channel && r.article === target.article && r.language === target.language,
  );
  if (!item) {
    throw new PressroomError(
      'NOT_FOUND',
      `Nothing waits for manual review in ${target.channel}/${target.article} (${target.language}). List what waits with "admin moderation list".`,
    );
  }
  return decideRevision(deps, item.revisionId, () =>
    outcome === 'pass' ? { outcome: 'pass', reason: null } : { outcome: 'block', reason: note ? `manual: ${note}` : 'manual' },
  );
}
