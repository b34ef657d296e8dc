/**
 * Where each translation stands in moderation, derived from its status and
 * its latest revision (never stored twice), and the article-level aggregate.
 * Pure: the view reads the rows, these functions decide what is reported
 * (docs/LIFECYCLE.md, "Moderation").
 * @module
 */
import type { RevisionRow } from '../../store/article.table.ts';
import { MODERATION_PRIORITY, type ModerationState, type TranslationStatus } from './article-status.ts';

/** What the derivation needs of a translation. */
export interface ModerationInput {
  readonly status: TranslationStatus;
  /** The revision readers get; null while nothing of the translation is public. */
  readonly publishedRevisionId: number | null;
  /** The translation's newest revision (highest id), if it has any. */
  readonly latest: Pick<RevisionRow, 'id' | 'moderation_state' | 'moderation_reason'> | undefined;
}

/**
 * The latest revision of a published translation when it is newer than the
 * public one and is waiting (`pending`, `manual_review`) or was refused
 * (`blocked`): what `pending_revision` reports. Null otherwise.
 */
export function unpublishedRevisionState(input: ModerationInput): 'pending' | 'manual_review' | 'blocked' | null {
  const { status, publishedRevisionId, latest } = input;
  if (status !== 'published' || latest === undefined || latest.id === publishedRevisionId) return null;
  const state = latest.moderation_state;
  return state === 'pending' || state === 'manual_review' || state === 'blocked' ? state : null;
}

/**
 * The translation's `moderation`.
 *
 * - `draft` → `none`: nothing is submitted for the current state (an earlier,
 *   withdrawn submission does not count).
 * - `moderation_blocked` → `blocked`.
 * - `moderation_review` → the current submission's state: `pending`,
 *   `manual_review`, or `waiting_for_primary` once it passed and waits for the
 *   primary language (publishing rule 1); `passed` while it is being
 *   published (the build has not placed its files yet: `reported-status.ts`).
 * - `scheduled` → `passed`.
 * - `published` → the state of a newer revision that waits or was refused,
 *   else `passed`.
 */
export function translationModeration(input: ModerationInput): ModerationState {
  const { status, latest } = input;
  switch (status) {
    case 'draft':
      return 'none';
    case 'moderation_blocked':
      return 'blocked';
    case 'scheduled':
      return 'passed';
    case 'published':
      return unpublishedRevisionState(input) ?? 'passed';
    case 'moderation_review':
      if (latest?.moderation_state === 'manual_review') return 'manual_review';
      // Passed and held for the primary; any other pass is the moment the build is placing its files
      // (reported-status.ts: the store already says published).
      if (latest?.moderation_state === 'passed') return latest.moderation_reason === 'waiting_for_primary' ? 'waiting_for_primary' : 'passed';
      // A submission is queued (or, defensively, the row lost its revision: it still waits for the job).
      return 'pending';
  }
}

/**
 * The article's `moderation`: the first state of {@link MODERATION_PRIORITY}
 * that any translation is in; `none` for an article without translations.
 */
export function articleModeration(states: readonly ModerationState[]): ModerationState {
  return MODERATION_PRIORITY.find((s) => states.includes(s)) ?? 'none';
}
