/**
 * `translation_status_summary`: computed from the translations' statuses, so
 * it always agrees with `translations[].status`.
 * @module
 */
import type { TranslationStatus } from './article-status.ts';

/** The summary object of the article response. */
export interface TranslationStatusSummary {
  published: string[];
  scheduled: string[];
  draft: string[];
  moderation_review: string[];
  moderation_blocked: string[];
  /** Secondary translations still in draft: what `publish_translations=false` left behind. */
  draft_translation_languages: string[];
  all_translations_published: boolean;
  all_translations_scheduled: boolean;
  all_translations_public_or_pending: boolean;
}

/**
 * Summarises translation statuses.
 * @param primaryLanguage the article's default language.
 */
export function summarizeTranslations(
  translations: ReadonlyArray<{ language: string; status: TranslationStatus }>,
  primaryLanguage: string,
): TranslationStatusSummary {
  const having = (status: TranslationStatus) => translations.filter((t) => t.status === status).map((t) => t.language);
  const all = (test: (s: TranslationStatus) => boolean) => translations.length > 0 && translations.every((t) => test(t.status));
  return {
    published: having('published'),
    scheduled: having('scheduled'),
    draft: having('draft'),
    moderation_review: having('moderation_review'),
    moderation_blocked: having('moderation_blocked'),
    draft_translation_languages: translations.filter((t) => t.status === 'draft' && t.language !== primaryLanguage).map((t) => t.language),
    all_translations_published: all((s) => s === 'published'),
    all_translations_scheduled: all((s) => s === 'scheduled'),
    all_translations_public_or_pending: all((s) => s === 'published' || s === 'scheduled' || s === 'moderation_review'),
  };
}
