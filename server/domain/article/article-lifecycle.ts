/**
 * The article lifecycle: every state transition of translations and of the
 * article that follows from them, as pure functions. No I/O, no clock: the
 * caller passes `now`, applies the returned state and carries out the effects
 * (enqueue moderation, make public, withdraw, arm the schedule).
 *
 * The rows of the publishing spec's state table map onto {@link nextTranslationState}
 * as documented in `docs/LIFECYCLE.md` and walked by `article-lifecycle.test.ts`.
 * @module
 */
import type { ArticleStatus, ModerationState, TranslationStatus } from './article-status.ts';

/** What the lifecycle needs to know about one translation. */
export interface TranslationState {
  readonly status: TranslationStatus;
  /** Publication time asked for; set while heading for or waiting in `scheduled`. */
  readonly scheduledAt: string | null;
  /** True while the schedule cannot fire because the plan lost scheduling. */
  readonly scheduledPaused: boolean;
  /** True while a version of this translation is visible to readers. */
  readonly hasPublicVersion: boolean;
  /** True while a revision of published content waits for moderation. */
  readonly pendingRevision: boolean;
}

/** Something that happens to a translation. */
export type LifecycleEvent =
  /** Publisher saves as draft (also: unpublish). */
  | { readonly type: 'save_draft' }
  /** Publisher asks to publish now. */
  | { readonly type: 'publish' }
  /** Publisher asks to publish at `at` (a plan with scheduling is checked by the caller). */
  | { readonly type: 'schedule'; readonly at: string }
  /** Publisher changed the content (title, excerpt, body or SEO fields). */
  | { readonly type: 'revise' }
  /** Moderation passed the submitted content. */
  | { readonly type: 'moderation_pass' }
  /** Moderation blocked the submitted content. */
  | { readonly type: 'moderation_block' }
  /** Moderation wants a person to decide. */
  | { readonly type: 'moderation_manual' }
  /** The clock reached `scheduledAt`; `schedulingAllowed` is the owner's plan now. */
  | { readonly type: 'schedule_due'; readonly schedulingAllowed: boolean }
  /** The owner's plan lost scheduled publishing. */
  | { readonly type: 'plan_lost_scheduling' }
  /** The article is archived: removed from public view. */
  | { readonly type: 'archive' };

/** Work the caller must do after applying a transition. */
export type LifecycleEffect =
  /** Snapshot the current content as a revision and queue it for moderation. */
  | 'moderate'
  /** Make the moderated revision the public one. */
  | 'make_public'
  /** Remove every public version of the translation, and drop the submissions waiting for moderation. */
  | 'withdraw'
  /** Drop the revision that waited for moderation; the public version stays. */
  | 'discard_pending_revision'
  /** Ensure a publication job exists for `scheduledAt`. */
  | 'arm_schedule'
  /** Nothing public changed, but the moderation outcome must be recorded. */
  | 'record_moderation';

/** The outcome of one event. */
export interface Transition {
  readonly state: TranslationState;
  readonly effects: readonly LifecycleEffect[];
  /** The moderation state to report, when the event changes it. */
  readonly moderation?: ModerationState | null;
}

/** A fresh, never-submitted draft. */
export const NEW_DRAFT: TranslationState = Object.freeze({
  status: 'draft',
  scheduledAt: null,
  scheduledPaused: false,
  hasPublicVersion: false,
  pendingRevision: false,
});

const same = (state: TranslationState): Transition => ({ state, effects: [] });

/**
 * Applies one event to a translation. Events that do not apply in the current
 * state leave it unchanged with no effects, so job handlers are idempotent
 * (a schedule that fires twice publishes once).
 * @param now ISO time, to decide whether a passed schedule is already due.
 */
export function nextTranslationState(state: TranslationState, event: LifecycleEvent, now: string): Transition {
  switch (event.type) {
    case 'save_draft':
    case 'archive':
      // A submission still waiting is dropped too: it must not be decided (or listed for a person) for a draft.
      return {
        state: { ...NEW_DRAFT },
        effects: state.hasPublicVersion || state.pendingRevision || state.status === 'moderation_review' ? ['withdraw'] : [],
        moderation: null,
      };
    case 'publish':
      // Already public: publishing again changes nothing (a pending revision is already in moderation).
      if (state.status === 'published') return same(state);
      return {
        state: { ...state, status: 'moderation_review', scheduledAt: null, scheduledPaused: false },
        effects: ['moderate'],
        moderation: 'pending',
      };
    case 'schedule':
      // From any state, published included (spec: "status change to scheduled → moderation_review"): published
      // content leaves public view until its time, and its latest content (a pending revision's, if any) is
      // moderated again as a new submission. Rescheduling is a new submission too.
      return {
        state: { ...state, status: 'moderation_review', scheduledAt: event.at, scheduledPaused: false, hasPublicVersion: false, pendingRevision: false },
        effects: state.hasPublicVersion || state.pendingRevision ? ['withdraw', 'moderate'] : ['moderate'],
        moderation: 'pending',
      };
    case 'revise':
      if (state.status === 'published') {
        return { state: { ...state, pendingRevision: true }, effects: ['moderate'], moderation: 'pending' };
      }
      if (state.status === 'moderation_review' || state.status === 'scheduled') {
        return { state: { ...state, status: 'moderation_review' }, effects: ['moderate'], moderation: 'pending' };
      }
      // Drafts and blocked content wait for an explicit publish request.
      return same(state);
    case 'moderation_pass':
      if (state.status === 'published' && state.pendingRevision) {
        return { state: { ...state, pendingRevision: false }, effects: ['make_public'], moderation: 'passed' };
      }
      if (state.status !== 'moderation_review') return same(state);
      if (state.scheduledAt !== null && state.scheduledAt > now) {
        return { state: { ...state, status: 'scheduled' }, effects: ['arm_schedule'], moderation: 'passed' };
      }
      return {
        state: { ...state, status: 'published', scheduledAt: null, hasPublicVersion: true },
        effects: ['make_public'],
        moderation: 'passed',
      };
    case 'moderation_block':
      if (state.status === 'published' && state.pendingRevision) {
        return { state: { ...state, pendingRevision: false }, effects: ['discard_pending_revision'], moderation: 'blocked' };
      }
      if (state.status !== 'moderation_review') return same(state);
      return {
        state: { ...state, status: 'moderation_blocked', scheduledAt: null },
        effects: ['record_moderation'],
        moderation: 'blocked',
      };
    case 'moderation_manual':
      if (state.status !== 'moderation_review' && !(state.status === 'published' && state.pendingRevision)) return same(state);
      return { state, effects: ['record_moderation'], moderation: 'manual_review' };
    case 'schedule_due':
      if (state.status !== 'scheduled' || state.scheduledPaused || state.scheduledAt === null || state.scheduledAt > now) {
        return same(state);
      }
      if (!event.schedulingAllowed) {
        // Never published retroactively: the schedule pauses until a new time or a manual publish.
        return { state: { ...state, scheduledPaused: true }, effects: [] };
      }
      return {
        state: { ...state, status: 'published', scheduledAt: null, hasPublicVersion: true },
        effects: ['make_public'],
      };
    case 'plan_lost_scheduling':
      if (state.status !== 'scheduled' || state.scheduledPaused) return same(state);
      return { state: { ...state, scheduledPaused: true }, effects: [] };
  }
}

/**
 * The article-level status that follows from its primary translation.
 * A blocked primary leaves the article a draft: nothing of it is public, and
 * `moderation: "blocked"` with the summary tells why.
 */
export function articleStatusFor(primary: TranslationStatus, archived: boolean): ArticleStatus {
  if (archived) return 'archived';
  return primary === 'moderation_blocked' ? 'draft' : primary;
}

/**
 * Whether a secondary translation may be asked to publish now: only together
 * with, or after, the primary language (publishing spec, rule 1).
 */
export function mayPublishSecondary(primary: TranslationStatus): boolean {
  return primary === 'published' || primary === 'moderation_review' || primary === 'scheduled';
}

/**
 * Whether one translation may be asked to publish (or schedule) on its own,
 * without an article-level status change. Not while the article is archived:
 * the translation would read `published` while nothing of the article is
 * public. Leaving `archived` is an article-level request (`PATCH …/status`, or
 * an upsert with `status`), as entering it is.
 */
export function mayPublishTranslationAlone(articleStatus: ArticleStatus): boolean {
  return articleStatus !== 'archived';
}

/**
 * Whether the primary language may become `newPrimary` (a translation with
 * that status) while the other translations have `others`. A secondary
 * translation is public only while the primary is, so a published or
 * scheduled translation must never end up under a primary that is not
 * published: it would read `published` (or become so at its time) while
 * readers get a 404. Switching is therefore allowed to a published
 * translation, or while no other translation is published or scheduled.
 */
export function mayChangePrimary(newPrimary: TranslationStatus, others: readonly TranslationStatus[]): boolean {
  return newPrimary === 'published' || others.every((status) => status !== 'published' && status !== 'scheduled');
}

/**
 * Whether a secondary translation in `status` must be withdrawn (saved as a
 * draft) when the primary language is unpublished. A secondary is public only
 * while the primary is, so a published or scheduled one would otherwise read
 * `published` (or become so at its time) while readers get a 404. One waiting
 * in moderation keeps waiting, and is released when the primary is out again.
 */
export function mustWithdrawWithPrimary(status: TranslationStatus): boolean {
  return status === 'published' || status === 'scheduled';
}

/**
 * Whether a translation is visible to readers right now. A secondary
 * translation is public only while the primary one is, and nothing of an
 * archived article or a hidden channel is public.
 */
export function isTranslationPublic(input: {
  translation: { hasPublicVersion: boolean };
  primary: { hasPublicVersion: boolean };
  articleStatus: ArticleStatus;
  channelActive: boolean;
}): boolean {
  return (
    input.channelActive &&
    input.articleStatus !== 'archived' &&
    input.primary.hasPublicVersion &&
    input.translation.hasPublicVersion
  );
}
