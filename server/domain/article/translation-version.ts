/**
 * A translation's version: what an editor's save was based on, so a save
 * made against an older version is refused instead of overwriting another
 * person's change (`If-Match` on `PUT …/translations/{language}`, and the
 * dashboard's editor). It is the hash of the texts an editor writes (title,
 * excerpt, body, SEO fields), so an approval or a publish, which change
 * none of them, never makes a save conflict (a refusal that puts the public
 * texts back does: the texts changed). Pure.
 * @module
 */
import type { TranslationRow } from '../../store/article.table.ts';
import { contentHash } from './article-events.ts';
import { PressroomError } from '../errors.ts';

/** The version of a translation's current texts (24 hex digits). */
export function translationVersion(row: Pick<TranslationRow, 'title' | 'excerpt' | 'content_markdown' | 'seo_title' | 'seo_description'>): string {
  return contentHash(row).slice(0, 24);
}

/**
 * Checks an `If-Match` value against the translation's current version (null: no such translation yet). `*`
 * matches any existing translation; otherwise one of the listed strong entity tags must be the version
 * (a weak tag, `W/"…"`, never matches, as RFC 9110 says for If-Match).
 * @throws PressroomError TRANSLATION_CHANGED when it does not match.
 */
export function checkIfMatch(ifMatch: string, current: string | null, language: string): void {
  const value = ifMatch.trim();
  if (value === '*') {
    if (current !== null) return;
    throw new PressroomError('TRANSLATION_CHANGED', `The article has no "${language}" translation, but If-Match: * asked for an existing one. Create it without If-Match, or check the language.`, { current_version: null });
  }
  const tags = value.split(',').map((tag) => tag.trim()).filter(Boolean);
  if (current !== null && tags.some((tag) => tag === `"${current}"`)) return;
  throw new PressroomError(
    'TRANSLATION_CHANGED',
    current === null
      ? `The article has no "${language}" translation any more, so If-Match cannot match. Read the article again (GET) and decide whether to create it.`
      : `The "${language}" translation changed since the version you sent in If-Match (it is now "${current}"): someone else saved it. Read the article again (GET), merge their change with yours, and send the save with If-Match: "${current}".`,
    { current_version: current },
  );
}

/**
 * Checks `If-None-Match: *` (create only): the translation must not exist yet.
 * @throws PressroomError TRANSLATION_CHANGED when it does.
 */
export function checkIfNoneMatch(ifNoneMatch: string, current: string | null, language: string): void {
  if (ifNoneMatch.trim() !== '*' || current === null) return;
  throw new PressroomError(
    'TRANSLATION_CHANGED',
    `The article has a "${language}" translation already (someone else created it), and If-None-Match: * asked to create it only if it did not exist. Read the article again and edit that translation instead.`,
    { current_version: current },
  );
}
