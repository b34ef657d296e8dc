/**
 * Zod building blocks shared by the API schemas and the content/ front matter.
 * @module
 */
import { z } from 'zod';
import { canonicalLanguage, isLanguageCode, LANGUAGE_RULE } from './language.ts';
import { isSlug, SLUG_RULE } from './slug.ts';

/** A BCP 47 language code, canonicalised (`pt-br` → `pt-BR`). */
export const languageSchema = z
  .string({ invalid_type_error: 'Expected a string language code such as "en".' })
  .refine(isLanguageCode, `Not a valid language code. ${LANGUAGE_RULE}`)
  .transform(canonicalLanguage);

/** A slug for a channel or an article. */
export const slugSchema = z.string().refine(isSlug, `Not a valid slug. ${SLUG_RULE}`);

// ISO 8601 with an explicit offset or Z; a local time without zone is ambiguous.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 date-time with `Z` or an explicit offset, normalised to UTC ISO. */
export const dateTimeSchema = z
  .string()
  .refine(
    (value) => ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)),
    'Not an ISO 8601 date-time with a time zone. Send for example "2026-12-01T09:00:00Z" or "2026-12-01T10:00:00+01:00".',
  )
  .transform((value) => new Date(value).toISOString());

/** A non-empty single-line title. */
export const titleSchema = z
  .string()
  .trim()
  .min(1, 'Must not be empty. Give a title.')
  .max(300, 'Too long: at most 300 characters.')
  .refine((v) => !/[\r\n]/.test(v), 'A title is one line; remove line breaks.');
