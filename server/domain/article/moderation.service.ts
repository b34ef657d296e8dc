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
import type { ModerationDecision, ModerationPolicy, ModerationSubject } from '../moderation/moderation-policy.ts';
import type { LifecycleEvent } from './article-lifecycle.ts';
import { applyTranslationEvents, secondaryMustWait, syncArticleRecord } from './article-events.ts';

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
 * Reads a revision waiting for a decision and what of it readers would get:
 * 'decided' when it no longer waits (or is gone), 'superseded' when it is no
 * longer its translation's current revision.
 */
async function loadReviewSubject(db: Executor, revisionId: number) {
  const revision = (await articles.findRevisions(db, [revisionId]))[0];
  if (!revision || (revision.moderation_state !== 'pending' && revision.moderation_state !== 'manual_review')) return 'decided' as const;
  const translation = await articles.findTranslationById(db, revision.translation_id);
  if (!translation || translation.current_revision_id !== revision.id) return 'superseded' as const;
  const article = (await articles.findArticleRow(db, translation.article_id))!;
  const channel = await findChannelById(db, article.channel_id);
  const owner = channel ? await findAccountById(db, channel.owner_account_id) : undefined;
  const subject: ReviewSubject = {
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
  };
  return { revision, translation, article, subject };
}

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
    const found = await loadReviewSubject(trx, revisionId);
    if (found === 'decided') return 'skipped';
    if (found === 'superseded') {
      await articles.updateRevision(trx, revisionId, { moderation_state: 'superseded', decided_at: now });
      return 'skipped';
    }
    const { revision, translation, article, subject } = found;
    const decision = decide(subject);
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

/** What the policy sees of a review subject. */
function policySubject(s: ReviewSubject): ModerationSubject {
  return {
    language: s.language,
    title: s.revision.title,
    excerpt: s.revision.excerpt,
    markdown: s.revision.markdown,
    seoTitle: s.revision.seoTitle,
    seoDescription: s.revision.seoDescription,
    authorName: s.authorName,
    channelSlug: s.channelSlug,
    accountReviewRequired: s.accountReviewRequired,
  };
}

function sameSubject(a: ModerationSubject, b: ModerationSubject): boolean {
  return (Object.keys(a) as Array<keyof ModerationSubject>).every((key) => a[key] === b[key]);
}

// Rounds of judging when the byline, channel or account keep changing meanwhile; then a person decides.
const ASYNC_ATTEMPTS = 3;

/**
 * Runs the policy on a revision (the `moderate_revision` job). A policy that
 * can judge off this thread (`evaluateAsync`, the rule policy on the body
 * threads) does so before the transaction, which then applies the decision
 * only if what was judged is still what readers would get; a revision
 * already waiting for a person is not re-run through the rules.
 */
export async function moderateRevision(deps: { db: Db; clock: Clock; policy: ModerationPolicy }, revisionId: number): Promise<ModerationOutcome> {
  const { policy } = deps;
  if (!policy.evaluateAsync) {
    return decideRevision(deps, revisionId, (s) => (s.state === 'manual_review' ? null : policy.evaluate(policySubject(s))));
  }
  for (let attempt = 0; attempt < ASYNC_ATTEMPTS; attempt++) {
    // Read outside any transaction: judging takes up to the body time limit and must hold no lock meanwhile.
    const found = await loadReviewSubject(deps.db, revisionId);
    if (typeof found === 'string' || found.subject.state === 'manual_review') return decideRevision(deps, revisionId, () => null);
    const judged = policySubject(found.subject);
    const decision = await policy.evaluateAsync(judged);
    let changed = false;
    const outcome = await decideRevision(deps, revisionId, (s) => {
      if (s.state === 'manual_review') return null;
      changed = !sameSubject(policySubject(s), judged);
      return changed ? null : decision;
    });
    if (!changed) return outcome;
  }
  return decideRevision(deps, revisionId, (s) =>
    s.state === 'manual_review' ? null : { outcome: 'manual', reason: 'moderation_unsettled: the byline, channel or account changed each time the submission was judged; a person decides' },
  );
}

/** A translation waiting for a person, for `admin moderation list`. */
export type ManualReviewItem = articles.ManualReviewRow;

/** Every revision waiting for a person, oldest first. */
export async function listManualReviews(db: Executor): Promise<ManualReviewItem[]> {
  return articles.listManualReviewRows(db);
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
