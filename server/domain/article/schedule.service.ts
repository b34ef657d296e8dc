/**
 * Scheduled publication: firing a due schedule, and pausing schedules when an
 * owner's plan loses scheduling.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import type { ArticleRow } from '../../store/article.table.ts';
import * as articles from '../../store/article.repository.ts';
import { findAccountById } from '../../store/account.repository.ts';
import { findChannelById } from '../../store/channel.repository.ts';
import { hasPendingJob, insertJob } from '../../store/job.repository.ts';
import { toPlanId } from '../account/account.service.ts';
import { planFeatures } from '../account/plans.ts';
import { nextTranslationState } from './article-lifecycle.ts';
import { applyTranslationEvents, SCHEDULE_JOB, stateOf, syncArticleRecord } from './article-events.ts';

/** What a schedule job did. */
export type ScheduleOutcome = 'published' | 'paused' | 'not_due' | 'not_scheduled';

/** The reason reported in `scheduled_pause_reason`. */
export const PAUSE_REASON_PLAN = 'account_plan';

async function ownerCanSchedule(trx: Executor, channelId: number): Promise<boolean> {
  const channel = await findChannelById(trx, channelId);
  const owner = channel ? await findAccountById(trx, channel.owner_account_id) : undefined;
  return planFeatures(toPlanId(owner?.plan ?? 'reader')).scheduling;
}

/**
 * Publishes an article whose scheduled time has come (the `publish_scheduled`
 * job). Idempotent: firing twice publishes once; firing early re-arms the job
 * for the stored time; a plan without scheduling pauses instead of publishing.
 */
export async function publishIfDue(deps: { db: Db; clock: Clock }, articleId: number): Promise<ScheduleOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    const now = isoNow(deps.clock);
    let article = await articles.findArticleRow(trx, articleId);
    if (article?.status === 'published') return publishDueSecondaries(trx, now, article);
    if (!article || article.status !== 'scheduled' || article.scheduled_at === null) return 'not_scheduled';
    if (article.scheduled_paused === 1) return 'paused';
    if (article.scheduled_at > now) {
      // The schedule moved later (or the clock fired early): make sure a job waits for the new time.
      const waiting = await hasPendingJob(trx, SCHEDULE_JOB, { articleId }, article.scheduled_at);
      if (!waiting) await insertJob(trx, { kind: SCHEDULE_JOB, payload: { articleId }, runAt: article.scheduled_at, now });
      return 'not_due';
    }
    const allowed = await ownerCanSchedule(trx, article.channel_id);
    const translations = await articles.listTranslations(trx, [article.id]);
    let primary = translations.find((t) => t.language === article!.default_language)!;
    // The lifecycle decides: without scheduling in the plan the schedule pauses.
    const step = nextTranslationState(await stateOf(trx, primary, article), { type: 'schedule_due', schedulingAllowed: allowed }, now);
    if (step.state.scheduledPaused) {
      await articles.updateArticle(trx, article.id, { scheduled_paused: 1, scheduled_pause_reason: PAUSE_REASON_PLAN, updated_at: now });
      return 'paused';
    }
    for (const t of translations) {
      if (t.status !== 'scheduled') continue;
      const applied = await applyTranslationEvents(trx, { now, mode: 'queue' }, article, t, [{ type: 'schedule_due', schedulingAllowed: true }]);
      if (t.language === article.default_language) primary = applied.row;
    }
    article = await syncArticleRecord(trx, now, article, primary, false);
    return article.status === 'published' ? 'published' : 'not_due';
  });
}

/** Publishes secondary translations scheduled later than their (already published) primary. */
async function publishDueSecondaries(trx: Executor, now: string, article: ArticleRow): Promise<ScheduleOutcome> {
  const allowed = await ownerCanSchedule(trx, article.channel_id);
  let published = false;
  for (const t of await articles.listTranslations(trx, [article.id])) {
    if (t.status !== 'scheduled' || t.scheduled_at === null || t.scheduled_at > now) continue;
    const applied = await applyTranslationEvents(trx, { now, mode: 'queue' }, article, t, [{ type: 'schedule_due', schedulingAllowed: allowed }]);
    published ||= applied.row.status === 'published';
  }
  return published ? 'published' : 'not_due';
}

/**
 * After a plan change: when the owner's plan no longer allows scheduling,
 * every scheduled article of the owner's channels is paused (never published
 * retroactively). An upgrade does not resume them: a new time or a manual
 * publish is needed.
 * @returns how many articles were paused.
 */
export async function pauseSchedulesIfPlanDisallows(trx: Executor, clock: Clock, accountId: number): Promise<number> {
  const account = await findAccountById(trx, accountId);
  if (!account || planFeatures(toPlanId(account.plan)).scheduling) return 0;
  return articles.pauseScheduledArticlesOfOwner(trx, accountId, PAUSE_REASON_PLAN, isoNow(clock));
}
