/**
 * An article list item's states in words, as the dashboard's list shows
 * them: the article's status (with its schedule, and why a schedule is
 * paused), then what waits in moderation and where, from the item's
 * `translation_status_summary` (the same fields the publishing API reports).
 * Pure.
 * @module
 */
import type { ArticleListItem } from '../../domain/article/article-view.ts';
import type { ArticleListState } from '../../domain/article/article-status.ts';

/** The list states as the dashboard names them, in the order of its filters. */
export const LIST_STATE_LABELS: Readonly<Record<ArticleListState, string>> = {
  draft: 'draft',
  scheduled: 'scheduled',
  paused: 'paused',
  moderation_pending: 'moderation pending',
  manual_review: 'manual review',
  blocked: 'blocked',
  published: 'published',
  pending_revision: 'pending revision',
  archived: 'archived',
};

/** Why a schedule is paused, in words. */
export function pauseReason(reason: string | null): string {
  return reason === 'account_plan' ? 'the plan lost scheduling' : reason ?? 'no reason recorded';
}

const minus = (from: readonly string[], ...without: ReadonlyArray<readonly string[]>) => from.filter((l) => !without.some((w) => w.includes(l)));
const languages = (list: readonly string[]) => `(${list.join(', ')})`;

/**
 * The item's states, most important first, each a short phrase:
 * "scheduled for 2026-12-01 09:00 UTC (paused: the plan lost scheduling; …)",
 * "published", "revision waiting for moderation (fr)".
 */
export function describeStates(item: Pick<ArticleListItem, 'status' | 'scheduled_at' | 'scheduled_paused' | 'scheduled_pause_reason' | 'translation_status_summary' | 'languages'>): string[] {
  const s = item.translation_status_summary;
  const states: string[] = [];
  const at = item.scheduled_at ? ` for ${item.scheduled_at.slice(0, 16).replace('T', ' ')} UTC` : '';
  switch (item.status) {
    case 'scheduled':
      states.push(item.scheduled_paused ? `scheduled${at} (paused: ${pauseReason(item.scheduled_pause_reason)}; give it a new time or publish it by hand)` : `scheduled${at}`);
      break;
    case 'moderation_review':
      states.push('in moderation');
      break;
    default:
      states.push(item.status);
  }
  // Languages whose revision (of a published translation) waits, against first submissions that wait.
  const revisionsWaiting = s.revisions_in_review;
  const firstForPerson = minus(s.manual_review, revisionsWaiting);
  const revisionsForPerson = s.manual_review.filter((l) => revisionsWaiting.includes(l));
  const firstAutomatic = minus(s.moderation_review, s.manual_review, s.waiting_for_primary);
  const revisionsAutomatic = minus(revisionsWaiting, s.manual_review);
  if (firstAutomatic.length > 0) states.push(`waiting for the automatic moderation ${languages(firstAutomatic)}`);
  if (firstForPerson.length > 0) states.push(`waiting for a person (manual review) ${languages(firstForPerson)}`);
  if (s.waiting_for_primary.length > 0) states.push(`approved, waiting for the primary language ${languages(s.waiting_for_primary)}`);
  if (s.moderation_blocked.length > 0) states.push(`blocked by moderation ${languages(s.moderation_blocked)}`);
  if (revisionsAutomatic.length > 0) states.push(`published, revision waiting for moderation ${languages(revisionsAutomatic)}`);
  if (revisionsForPerson.length > 0) states.push(`published, revision waiting for a person (manual review) ${languages(revisionsForPerson)}`);
  if (s.revisions_blocked.length > 0) states.push(`published, revision blocked: readers keep the published version ${languages(s.revisions_blocked)}`);
  if (item.status !== 'draft' && s.draft_translation_languages.length > 0) states.push(`still a draft ${languages(s.draft_translation_languages)}`);
  return states;
}
