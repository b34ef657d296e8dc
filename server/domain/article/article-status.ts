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
