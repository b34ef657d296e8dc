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

/** True when `accept` prefers `text/markdown` to `text/html` (see module doc). */
export function prefersMarkdown(accept: string | undefined): boolean {
  // Almost every request is a browser's or a crawler's: no negotiation without the word.
  if (accept === undefined || !/markdown/i.test(accept)) return false;
  return new Negotiator({ headers: { accept } }).mediaType(OFFERED) === 'text/markdown';
}
