/**
 * What a missing address answers: pages for people, JSON for programs.
 * Outside `/api/`, a GET whose `Accept` prefers `text/html` to JSON (every
 * browser's) gets the site's 404 page, with status 404, in the language and
 * under the channel of the address; programs (`Accept: application/json`,
 * `*\/*`, or no `text/html`) and everything under `/api/` get the JSON
 * error body. The bundled server and the Cloudflare worker call these
 * functions; nginx and Netlify follow the same order with their own rules
 * (`server/hosting/`). Pure: no HTTP framework, no filesystem.
 * @module
 */
import Negotiator from 'negotiator';
import { SLUG_PATTERN } from '../domain/slug.ts';
import { normalizeRequestPath } from '../urls/request-path.ts';
import { LANG_SEGMENT, staticFiles } from './static-files.ts';



/** The media types a 404 is offered in, the program's first: a tie (`*\/*`) gets JSON. */
const OFFERED = ['application/json', 'text/html'];

/** True when `accept` prefers `text/html` to JSON by its q-values (HTTP's rules, as negotiator reads them). */
export function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined || !/html/i.test(accept)) return false;
  return new Negotiator({ headers: { accept } }).mediaType(OFFERED) === 'text/html';
}

/** True for the addresses whose errors are always JSON: both APIs. */
export function isApiPath(pathname: string): boolean {
  return /^\/api(?:\/|$)/.test(pathname);
}

/** Whether a 404 for a GET of `pathname` (canonical) with `accept` is the HTML page (else the JSON body). */
export function wantsNotFoundPage(pathname: string, accept: string | undefined): boolean {
  return !isApiPath(pathname) && acceptsHtml(accept);
}

/**
 * The output files that may hold the 404 page of `pathname` (raw or
 * canonical), most specific first; the first that exists answers, and the
 * last, `404.html`, always does:
 * - `/{channel}/{lang}/…` → the channel's page in that language (`{channel}/{lang}/_404.html`);
 * - `/{channel}/…` → the channel's page in its default language (`{channel}/_404.html`);
 * - `/{x}/{lang}/…` with no channel `x` → the site's page in that language (`_404/{lang}.html`);
 * - anything else → `404.html`.
 * A language segment is one only with something after it: `/{channel}/ar` is an article's address.
 * @example notFoundPageFiles('/tech/ar/gone') // ['tech/ar/_404.html', 'tech/_404.html', '_404/ar.html', '404.html']
 */
export function notFoundPageFiles(pathname: string): string[] {
  const canonical = normalizeRequestPath(pathname) ?? '/';
  const parts = canonical.split('/').slice(1);
  const segment = (i: number): string => {
    try {
      return decodeURIComponent(parts[i] ?? '');
    } catch {
      return '';
    }
  };
  const channel = parts.length >= 2 && SLUG_PATTERN.test(segment(0)) ? segment(0) : null;
  const lang = parts.length >= 3 && LANG_SEGMENT.test(segment(1)) ? segment(1) : null;
  const files: string[] = [];
  if (channel && lang) files.push(staticFiles.channelNotFound(channel, lang));
  if (channel) files.push(staticFiles.channelNotFound(channel));
  if (lang) files.push(staticFiles.languageNotFound(lang));
  files.push(staticFiles.notFound());
  return files;
}
