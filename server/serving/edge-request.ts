/**
 * What an edge function in front of the output's files does with a request
 * before it looks for a file: the checks the bundled server makes on a list
 * or an article's JSON (with its 422 bodies), the answers no file holds
 * (a page size other than the default, `include=html`: a 422 naming the
 * parameter), and the file that answers the rest. The generated Cloudflare
 * worker (Pages or R2) and the CloudFront Function both decide with this one
 * function, so they cannot drift apart; only how each reads its query and
 * fetches a file differs. Pure: no HTTP framework, no URL parser (CloudFront
 * Functions have none).
 * @module
 */
import { isLanguageCode, LANGUAGE_MAX_LENGTH } from '../domain/language.ts';
import { resolveOutputRequest, type OutputAnswer } from './output-request.ts';
import { fileForRequest } from './static-files.ts';

/** The error bodies and patterns an edge is generated with (`host-errors.ts`), so it bundles no validation library. */
export interface EdgeConstants {
  readonly errors: Readonly<Record<'invalidCursor' | 'emptyCursor' | 'invalidLimit' | 'limitNotOnHost' | 'includeNotOnHost' | 'repeated' | 'notALanguage' | 'langTooLong' | 'repeatedOnArticle', string>>;
  readonly defaultLimit: string;
  readonly validLimit: string;
}

/** A request's query, as each edge reads it: every value of a parameter, decoded, in order. */
export interface EdgeQuery {
  values(name: string): readonly string[];
}

/** What to answer. */
export type EdgeDecision =
  /** An explicit error, with the bundled server's body. */
  | { readonly kind: 'error'; readonly status: 422; readonly body: string }
  /** No file can answer: a 404 (the page for a browser outside the API, else the JSON body). */
  | { readonly kind: 'not-found' }
  /**
   * The file that answers, and the headers to send with it. For a later page of a list (`?cursor=`), `list` is
   * the list's first page: when the page's file is missing, the answer is 422 (the cursor names no page of the
   * list) if that file exists, else 404.
   */
  | { readonly kind: 'file'; readonly answer: OutputAnswer; readonly list: string | null }
  /** A cursor that can name no page at all: 422 if the list (`list`, its first page's file) exists, else 404. */
  | { readonly kind: 'no-page'; readonly list: string | null };

const API = '/api/public/v1';
const LIST = /^\/api\/public\/v1\/channels(?:\/[^/]+\/articles)?$/;
const ARTICLE_JSON = /^\/api\/public\/v1\/channels\/[^/]+\/articles\/[^/]+$/;

function error(body: string): EdgeDecision {
  return { kind: 'error', status: 422, body };
}

/** The decision for a GET of `path` (raw, percent-encoded) with `query` and `accept`. */
export function decideEdgeRequest(path: string, query: EdgeQuery, accept: string | undefined, constants: EdgeConstants): EdgeDecision {
  const api = path === API || path.startsWith(`${API}/`);
  const list = api && LIST.test(path);
  const langs = query.values('lang');
  const lang = langs.length > 0 ? langs[0]! : null;
  let cursor: string | null = null;
  if (list) {
    // The checks the bundled server makes before it reads a list, with its bodies; a size the files do not hold is said so.
    const cursors = query.values('cursor');
    if (cursors.includes('')) return error(constants.errors.emptyCursor);
    if (langs.length > 1 || cursors.length > 1 || query.values('limit').length > 1) return error(constants.errors.repeated);
    const limit = query.values('limit')[0];
    if (limit !== undefined && !new RegExp(constants.defaultLimit).test(limit)) {
      return error(new RegExp(constants.validLimit).test(limit) ? constants.errors.limitNotOnHost : constants.errors.invalidLimit);
    }
    cursor = cursors[0] ?? null;
  }
  const articleJson = api && ARTICLE_JSON.test(path) && !path.endsWith('.md');
  // Lists and an article's JSON document 422 for a `lang` that is no language code (the others answer 404).
  if ((articleJson || list) && lang !== null && !isLanguageCode(lang)) {
    return error(lang.length > LANGUAGE_MAX_LENGTH ? constants.errors.langTooLong : constants.errors.notALanguage);
  }
  const includes = query.values('include');
  if (articleJson && (langs.length > 1 || includes.length > 1)) return error(constants.errors.repeatedOnArticle);
  if (articleJson && includes.length > 0) return error(constants.errors.includeNotOnHost);
  if (cursor !== null) {
    const page = fileForRequest(path, lang, cursor);
    const first = fileForRequest(path, lang);
    const listFile = 'file' in first ? first.file : null;
    return 'file' in page ? { kind: 'file', answer: { file: page.file, headers: {} }, list: listFile } : { kind: 'no-page', list: listFile };
  }
  const answer = resolveOutputRequest(path, lang, accept);
  return answer ? { kind: 'file', answer, list: null } : { kind: 'not-found' };
}
