/**
 * `translation_status_summary`: computed from the translations' statuses and
 * moderation states, so it always agrees with `translations[].status`,
 * `translations[].moderation` and `translations[].pending_revision`.
 * @module
 */
import type { ModerationState, TranslationStatus } from './article-status.ts';

/** The summary object of the article response. */
export interface TranslationStatusSummary {
  published: string[];
  scheduled: string[];
  draft: string[];
  moderation_review: string[];
  moderation_blocked: string[];
  /** Secondary translations still in draft: what `publish_translations=false` left behind. */
  draft_translation_languages: string[];
  /** Languages waiting for a person: a first submission or a revision of published content. */
  manual_review: string[];
  /** Languages approved and held until the primary language is public (publishing rule 1). */
  waiting_for_primary: string[];
  /** Published languages with a revision waiting for moderation (automatic or a person), or approved and being published. */
  revisions_in_review: string[];
  /** Published languages whose latest revision was refused; readers keep the public version. */
  revisions_blocked: string[];
  all_translations_published: boolean;
  all_translations_scheduled: boolean;
  all_translations_public_or_pending: boolean;
  /** No translation (nor revision) waits for the automatic check or for its files: a polling client can stop. */
  all_translations_settled: boolean;
}

/** What the summary needs of one translation. */
export interface SummaryInput {
  language: string;
  status: TranslationStatus;
  moderation: ModerationState;
  /** An approved revision of this published translation is being published (its files are not in place yet). */
  revisionPublishing?: boolean;
}

/**
 * Summarises translation statuses.
 * @param primaryLanguage the article's default language.
 */
export function summarizeTranslations(translations: readonly SummaryInput[], primaryLanguage: string): TranslationStatusSummary {
  const languages = (test: (t: SummaryInput) => boolean) => translations.filter(test).map((t) => t.language);
  const having = (status: TranslationStatus) => languages((t) => t.status === status);
  const all = (test: (s: TranslationStatus) => boolean) => translations.length > 0 && translations.every((t) => test(t.status));
  const revision = (t: SummaryInput) => (t.status === 'published' ? t.moderation : null);
  return {
    published: having('published'),
    scheduled: having('scheduled'),
    draft: having('draft'),
    moderation_review: having('moderation_review'),
    moderation_blocked: having('moderation_blocked'),
    draft_translation_languages: languages((t) => t.status === 'draft' && t.language !== primaryLanguage),
    manual_review: languages((t) => t.moderation === 'manual_review'),
    waiting_for_primary: languages((t) => t.moderation === 'waiting_for_primary'),
    revisions_in_review: languages((t) => revision(t) === 'pending' || revision(t) === 'manual_review' || t.revisionPublishing === true),
    revisions_blocked: languages((t) => revision(t) === 'blocked'),
    all_translations_published: all((s) => s === 'published'),
    all_translations_scheduled: all((s) => s === 'scheduled'),
    all_translations_public_or_pending: all((s) => s === 'published' || s === 'scheduled' || s === 'moderation_review'),
    // Being published (passed, files not yet placed) is not final either: the status is about to change.
    all_translations_settled: translations.every(
      (t) => t.moderation !== 'pending' && !(t.status === 'moderation_review' && t.moderation === 'passed') && t.revisionPublishing !== true,
    ),
  };
}
