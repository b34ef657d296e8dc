/**
 * Zod building blocks shared by the API schemas and the content/ front matter.
 * @module
 */
import { z } from 'zod';
import { canonicalLanguage, isLanguageCode, LANGUAGE_RULE } from './language.ts';
import { ARTICLE_SLUG_DIGITS_RULE, isSlug, SLUG_RULE } from './slug.ts';
import { parseIsoDateTime } from './iso-date-time.ts';

/** A BCP 47 language code, canonicalised (`pt-br` → `pt-BR`). */
export const languageSchema = z
  .string({ invalid_type_error: 'Expected a string language code such as "en".' })
  .refine(isLanguageCode, `Not a valid language code. ${LANGUAGE_RULE}`)
  .transform(canonicalLanguage);

/** A slug for a channel or an article. */
export const slugSchema = z.string().refine(isSlug, `Not a valid slug. ${SLUG_RULE}`);

/** A slug for a new article: a slug that is not all digits (see `isArticleSlug`). */
export const articleSlugSchema = slugSchema.refine((value) => !/^\d+$/.test(value), ARTICLE_SLUG_DIGITS_RULE);

/** True when `value` is an ISO 8601 date-time with a zone that names a real calendar moment. */
export function isRealDateTime(value: string): boolean {
  return parseIsoDateTime(value) !== null;
}

/** An ISO 8601 date-time with `Z` or an explicit offset, normalised to UTC ISO. */
export const dateTimeSchema = z
  .string()
  .refine(
    isRealDateTime,
    'Not a real ISO 8601 date-time with a time zone: the date must exist in the calendar, hours are 00–23, minutes and seconds 00–59, and the zone offset (Z, +01:00, +0100 or +01) must be given. Send for example "2026-12-01T09:00:00Z", "2026-12-01T10:00:00+01:00", "20261201T090000Z" or "2026-W49-2T09:00Z".',
  )
  .transform((value) => parseIsoDateTime(value)!.toISOString());

// C0 controls except tab, LF and CR; DEL and the C1 controls (NEL U+0085
// among them); the bidi embeddings, overrides and isolates that bodies strip
// (U+202A–U+202E, U+2066–U+2069). Invisible, and able to reorder or hide
// what readers see ("Invoice \u202Egpj.exe").
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

/** Names the first forbidden control character of `value`, or returns null when there is none. */
export function findControlCharacter(value: string): string | null {
  const match = FORBIDDEN_CONTROL.exec(value);
  if (!match) return null;
  const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `U+${code} at position ${[...value.slice(0, match.index)].length + 1}`;
}

const controlMessage = (value: string) => ({
  message:
    `Contains the invisible control character ${findControlCharacter(value)}. Remove it: control characters and ` +
    'bidirectional embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069) are not allowed in text fields. ' +
    'For right-to-left text use the marks U+200F/U+200E, or write it in the body',
});

const LINE_BREAK = /[\r\n]/;

/**
 * The length of `value` in characters as the API documents them: Unicode
 * code points, so an emoji counts once (JavaScript's `length` and zod's
 * `max()` count UTF-16 code units, two for each emoji).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** At least `min` and at most `max` characters (code points) of `schema`'s string. */
function characters<T extends z.ZodType<string, z.ZodTypeDef, string>>(schema: T, min: number, max: number, tooShort: string | undefined, tooLong: string) {
  return schema
    .refine((v) => characterCount(v) >= min, tooShort ?? `Too short: at least ${min} characters.`)
    .refine((v) => characterCount(v) <= max, tooLong);
}

/**
 * A plain-text field (excerpts, SEO fields, author names, alt text, channel
 * descriptions): trimmed, at most `max` characters, and refused (422) when
 * it holds a control or bidi override character. Every text field of
 * articles, channels and media goes through here or `titleSchema`, so the
 * rule lives in one place. Refused rather than stripped: unlike a body, a
 * short text has no `dir` markup to carry the intent, and silently editing
 * a title is worse than saying what to fix.
 * @param options.singleLine refuses line breaks too; tab, LF and CR are kept elsewhere.
 * @param options.tooLong replaces the "Too long" message.
 * @param options.min the fewest characters after trimming (default 0).
 */
export function plainTextSchema(max: number, options: { singleLine?: boolean; tooLong?: string; min?: number } = {}) {
  return characters(z.string().trim(), options.min ?? 0, max, undefined, options.tooLong ?? `Too long: at most ${max} characters.`)
    .refine((v) => !options.singleLine || !LINE_BREAK.test(v), 'Must be one line; remove line breaks.')
    .refine((v) => findControlCharacter(v) === null, controlMessage);
}

/** A non-empty single-line title. */
export const titleSchema = characters(z.string().trim(), 1, 300, 'Must not be empty. Give a title.', 'Too long: at most 300 characters.')
  .refine((v) => !LINE_BREAK.test(v), 'A title is one line; remove line breaks.')
  .refine((v) => findControlCharacter(v) === null, controlMessage);
