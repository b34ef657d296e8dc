/**
 * The status vocabularies of articles and translations (publishing spec,
 * "States and transitions"). Article-level and translation-level statuses are
 * separate records; both are reported.
 * @module
 */

/** Statuses an article can be in. */
export const ARTICLE_STATUSES = ['draft', 'moderation_review', 'scheduled', 'published', 'archived'] as const;
/** An article-level status. */
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** Statuses a translation can be in. */
export const TRANSLATION_STATUSES = ['draft', 'moderation_review', 'scheduled', 'published', 'moderation_blocked'] as const;
/** A translation-level status. */
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

/**
 * Statuses a publisher may ask for. `archived` is Pressroom's documented way
 * into the archive; `moderation_review` is never requested (spec rule 2).
 */
export const REQUESTABLE_STATUSES = ['draft', 'published', 'scheduled', 'archived'] as const;

/** Homepage visibility of an article and all its translations. */
export const HOMEPAGE_MODES = ['inherit', 'allow', 'hide'] as const;
/** A homepage mode. */
export type HomepageMode = (typeof HOMEPAGE_MODES)[number];

/**
 * The `moderation` field of a translation and of the article response
 * (docs/LIFECYCLE.md, "Moderation"): where the latest submission stands.
 * `none`: nothing submitted for the current state (a draft); `pending`:
 * automatic check queued; `manual_review`: waits for a person;
 * `waiting_for_primary`: approved, held until the primary language is public
 * (publishing rule 1); `passed`; `blocked`: the latest submission was refused.
 * The article's value is the aggregate over its translations, in the
 * priority {@link MODERATION_PRIORITY}.
 */
export const MODERATION_STATES = ['none', 'pending', 'manual_review', 'waiting_for_primary', 'passed', 'blocked'] as const;
/** A moderation state. */
export type ModerationState = (typeof MODERATION_STATES)[number];

/**
 * The article-level aggregate: the first of these any translation is in.
 * `pending` first, so a client polling for settled states keeps waiting while
 * any automatic check is queued; then the states that need the publisher or a
 * person, before the ones that need nothing.
 */
export const MODERATION_PRIORITY: readonly ModerationState[] = ['pending', 'blocked', 'manual_review', 'waiting_for_primary', 'passed', 'none'];

/**
 * The states GET …/pages filters by with `state` (and the dashboard's list):
 * every state the API reports an article in, where the article-level status
 * alone says too little. Several may hold at once (a published article whose
 * revision waits for a person is `published`, `manual_review` and
 * `pending_revision`).
 *
 * - `draft`, `published`, `archived`: the article's status.
 * - `scheduled`: status `scheduled` and the schedule runs; `paused`: status
 *   `scheduled` with `scheduled_paused` (the owner's plan lost scheduling).
 * - `moderation_pending`: a translation (or a revision of a published one)
 *   waits for the automatic check (`moderation: "pending"`).
 * - `manual_review`: a translation or revision waits for a person.
 * - `blocked`: a translation is `moderation_blocked`, or a published one's
 *   latest revision was refused (`moderation: "blocked"`).
 * - `pending_revision`: a published translation has a `pending_revision`
 *   (waiting for moderation, or refused while the public version stays).
 */
export const ARTICLE_LIST_STATES = ['draft', 'scheduled', 'paused', 'moderation_pending', 'manual_review', 'blocked', 'published', 'pending_revision', 'archived'] as const;
/** A state GET …/pages filters by. */
export type ArticleListState = (typeof ARTICLE_LIST_STATES)[number];
