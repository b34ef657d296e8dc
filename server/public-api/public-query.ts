/**
 * The query parameters of the public read API (spec, "Endpoints" and
 * "Limits"), validated with one zod schema per operation. Unknown parameters
 * are ignored (tracking parameters and cache busters must not break a read);
 * a known parameter given twice, or with a bad value, is a 422 naming it.
 * @module
 */
import { z } from 'zod';
import { validationError, type FieldErrors } from '../domain/errors.ts';
import { isLanguageCode, LANGUAGE_MAX_LENGTH } from '../domain/language.ts';
import { parseInput } from '../domain/validation.ts';

/** Default and bounds of `limit` (rule 2). */
export const LIMIT = Object.freeze({ min: 1, max: 50, default: 20 });
/** Bounds of `q` in characters (rule 4). */
export const QUERY_LENGTH = Object.freeze({ min: 2, max: 160 });

/** What is wrong with a `lang` longer than a language code can be. */
export const LANG_TOO_LONG_MESSAGE = `Too long: a language code has at most ${LANGUAGE_MAX_LENGTH} characters. Use an exact published code such as "en" or "ar".`;
/** What is wrong with a `lang` that is no language code. */
export const NOT_A_LANGUAGE_MESSAGE = 'Not a language code. Use an exact published BCP 47 code such as "en", "ar" or "pt-BR".';

const language = z.string().max(LANGUAGE_MAX_LENGTH, LANG_TOO_LONG_MESSAGE).refine(isLanguageCode, NOT_A_LANGUAGE_MESSAGE);

/** What is wrong with a `limit` that is not a whole number in bounds. */
export const LIMIT_MESSAGE = `Must be a whole number from ${LIMIT.min} to ${LIMIT.max} (default ${LIMIT.default}).`;
/** What is wrong with an empty `cursor`. */
export const EMPTY_CURSOR_MESSAGE = 'Empty. Pass the value of pagination.next_cursor from the previous response, or leave the parameter out for the first page.';

const limit = z
  .string()
  .regex(/^\d{1,3}$/, LIMIT_MESSAGE)
  .transform(Number)
  .refine((n) => n >= LIMIT.min && n <= LIMIT.max, LIMIT_MESSAGE);

const cursor = z
  .string()
  .min(1, EMPTY_CURSOR_MESSAGE)
  .max(2000, 'Not a valid cursor. Pass the value of pagination.next_cursor from the previous response unchanged.');

const include = z.enum(['html'], {
  errorMap: () => ({ message: 'The only value is "html" (adds content_html). Leave the parameter out for the Markdown text only.' }),
});

const q = z
  .string({ required_error: `Required. Send the words to search for, ${QUERY_LENGTH.min} to ${QUERY_LENGTH.max} characters.` })
  .refine((value) => [...value.trim()].length >= QUERY_LENGTH.min, `Too short: search for at least ${QUERY_LENGTH.min} characters.`)
  .refine((value) => [...value.trim()].length <= QUERY_LENGTH.max, `Too long: search for at most ${QUERY_LENGTH.max} characters.`)
  .transform((value) => value.trim());

const channelSlug = z.string().min(1, 'Empty. Give a channel slug, or leave the parameter out to search every channel.').max(100, 'Too long: a channel slug has at most 100 characters.');

// Where 422 is not a documented status, a value that cannot be a language simply names no translation (404).
const anyLanguage = z.string();

/** The schema of each operation's query. */
export const QUERY_SCHEMAS = {
  listPublicChannels: z.object({ lang: language.optional(), limit: limit.optional(), cursor: cursor.optional() }),
  getPublicChannel: z.object({ lang: anyLanguage.optional() }),
  listPublicArticles: z.object({ lang: language.optional(), limit: limit.optional(), cursor: cursor.optional() }),
  getPublicArticle: z.object({ lang: language.optional(), include: include.optional() }),
  getPublicArticleMarkdown: z.object({ lang: anyLanguage.optional() }),
  searchPublicArticles: z.object({
    q,
    language: language.optional(),
    channel: channelSlug.optional(),
    limit: limit.optional(),
    cursor: cursor.optional(),
  }),
} as const;

/** Operations whose documented statuses have no 422: a repeated parameter counts once (its first value). */
const WITHOUT_422: ReadonlySet<string> = new Set(['getPublicChannel', 'getPublicArticleMarkdown']);

/** An operation of the public API. */
export type PublicOperation = keyof typeof QUERY_SCHEMAS;
/** The parsed query of an operation. */
export type PublicQuery<O extends PublicOperation> = z.output<(typeof QUERY_SCHEMAS)[O]>;

/**
 * Reads the query of `operation` from the request's parameters.
 * @throws PressroomError VALIDATION_FAILED with `details.fields` keyed by parameter name.
 */
export function parsePublicQuery<O extends PublicOperation>(operation: O, params: URLSearchParams): PublicQuery<O> {
  const schema = QUERY_SCHEMAS[operation];
  const known = Object.keys(schema.shape);
  const repeated: FieldErrors = {};
  const input: Record<string, string> = {};
  for (const name of known) {
    const values = params.getAll(name);
    if (values.length > 1 && !WITHOUT_422.has(operation)) repeated[name] = `Given ${values.length} times. Give it once.`;
    if (values.length > 0) input[name] = values[0]!;
  }
  if (Object.keys(repeated).length > 0) throw validationError(repeated);
  return parseInput(schema, input, 'query') as PublicQuery<O>;
}

/** True when a parsed query names the default form of a resource, which the static files hold. */
export function isDefaultForm(query: { limit?: number; cursor?: string; include?: string }): boolean {
  return (query.limit === undefined || query.limit === LIMIT.default) && query.cursor === undefined && query.include === undefined;
}
