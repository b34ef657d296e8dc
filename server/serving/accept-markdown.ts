/**
 * Whether a request for an article page asks for its Markdown document
 * instead (`Accept: text/markdown`), decided by the `Accept` header's
 * q-values as HTTP defines them (negotiator): `text/markdown;q=0` refuses
 * Markdown, `text/markdown, text/html;q=0.5` prefers it, `*\/*` and no
 * header get the page. Shared by the routes and the server's fast path.
 * @module
 */
import Negotiator from 'negotiator';

const OFFERED = ['text/html', 'text/markdown'];

/**
 * Media-type parameters the Markdown answer satisfies, removed before
 * negotiating: it is UTF-8 (`charset=utf-8`) and GFM-flavoured CommonMark
 * (RFC 7763's `variant`). Negotiator matches a range with parameters only
 * to an offer with the same ones, so `text/markdown; charset=utf-8` got the
 * page (issue 34). Any other parameter (another charset) still does not match.
 */
const SATISFIED_PARAMETERS = /;\s*(?:charset\s*=\s*"?utf-8"?|variant\s*=\s*"?[\w.-]+"?)(?=\s*(?:;|,|$))/gi;

/** True when `accept` prefers `text/markdown` to `text/html` (see module doc). */
export function prefersMarkdown(accept: string | undefined): boolean {
  // Almost every request is a browser's or a crawler's: no negotiation without the word.
  if (accept === undefined || !/markdown/i.test(accept)) return false;
  return new Negotiator({ headers: { accept: accept.replace(SATISFIED_PARAMETERS, '') } }).mediaType(OFFERED) === 'text/markdown';
}
