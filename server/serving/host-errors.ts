/**
 * The error bodies the generated host configurations send (nginx, the
 * Cloudflare Pages Function, Netlify), made by the same functions as the
 * bundled server's, so where a host can tell the same error it sends the
 * same bytes. Where a host cannot answer a valid request from files (a page
 * size other than the default, `include=html`), it says so with a 422 that
 * names the parameter, never with another answer.
 * @module
 */
import { INVALID_LIST_CURSOR } from '../domain/cursor.ts';
import { PressroomError, validationError } from '../domain/errors.ts';
import { errorBody } from './error-body.ts';
import { EMPTY_CURSOR_MESSAGE, LANG_TOO_LONG_MESSAGE, LIMIT, LIMIT_MESSAGE, NOT_A_LANGUAGE_MESSAGE } from '../public-api/public-query.ts';

/** The JSON text of an error, as the bundled server sends it. */
export function errorJson(error: PressroomError): string {
  return JSON.stringify(errorBody(error.code, error.message, error.details));
}

/**
 * The body of every 404 a host sends: the bundled server's, without the path
 * its message names (a static body cannot hold it).
 */
export const NOT_FOUND_JSON = errorJson(new PressroomError('NOT_FOUND', 'Nothing is published at this address. It does not exist, or it is not published (any more).'));

/** The 422 bodies a static host sends, by case. */
export const HOST_ERRORS = Object.freeze({
  /** A cursor that names no page of the list (the list itself exists). */
  invalidCursor: errorJson(validationError({ cursor: INVALID_LIST_CURSOR })),
  /** `?cursor=` with no value. */
  emptyCursor: errorJson(validationError({ cursor: EMPTY_CURSOR_MESSAGE })),
  /** A `limit` that is not a whole number from 1 to 50. */
  invalidLimit: errorJson(validationError({ limit: LIMIT_MESSAGE })),
  /** A valid `limit` other than the default: the files hold pages of the default size only. */
  limitNotOnHost: errorJson(
    validationError({
      limit: `This static host serves pages of the default size only: leave limit out (or give ${LIMIT.default}) and follow _links.next. Other sizes are answered by the Pressroom server itself.`,
    }),
  ),
  /** `include=` on an article: the files hold the Markdown text only. */
  includeNotOnHost: errorJson(
    validationError({
      include: 'This static host serves the article without content_html: leave include out, or read the page (html_url) or the Markdown (markdown_url). The Pressroom server itself answers include=html.',
    }),
  ),
  /** `lang` on a list or an article's JSON that is no language code (those operations document 422). */
  notALanguage: errorJson(validationError({ lang: NOT_A_LANGUAGE_MESSAGE })),
  /** `lang` longer than a language code can be. */
  langTooLong: errorJson(validationError({ lang: LANG_TOO_LONG_MESSAGE })),
  /** A known parameter given more than once. */
  repeated: errorJson(validationError({ query: 'A parameter (lang, limit or cursor) is given more than once. Give each once.' })),
  /** `lang` or `include` given more than once on an article's JSON. */
  repeatedOnArticle: errorJson(validationError({ query: 'A parameter (lang or include) is given more than once. Give each once.' })),
});

/** The pattern of a `limit` the files answer: the default, in at most three digits as the server reads it. */
export const DEFAULT_LIMIT_PATTERN = `^0?${LIMIT.default}$`;
/** A whole number from 1 to 50 in at most three digits, as `parsePublicQuery` accepts. */
export const VALID_LIMIT_PATTERN = '^(0{0,2}[1-9]|0?[1-4][0-9]|0?50)$';
