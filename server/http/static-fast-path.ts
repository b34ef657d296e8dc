/**
 * The bundled server's fast path for the static output: a GET or HEAD that a
 * static host would answer from a file is answered straight from the output
 * file cache on Node's `http` objects, without building a Fetch `Request`,
 * a Hono context and a `Response` (the framework's way answers several
 * times fewer requests a second: docs/PERFORMANCE.md, "What bounds them").
 * Everything else (and every case the fast path is unsure of) goes to the
 * Hono app, which answers the same requests the same way: both use
 * `resolveOutputRequest` and the same headers.
 *
 * Not taken for: the publishing API and media (their own routes); public API
 * requests while a content rate limit is on (the limiter lives in the app);
 * public API requests with any query parameter other than a single `lang`
 * and, on a list, a single `cursor` (a later page of the default size is a
 * file too: `read-model/list-pages.ts`); other variants and the 422s of bad
 * parameters are the app's; requests that map to no file (a cursor that names
 * no page among them)
 * (the app answers the 404 with the right error code). Every decision is
 * taken on the path's canonical spelling (`normalizeRequestPath`), the one
 * the app routes and rate-limits on.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerKey } from '../public-api/answer-cache.ts';
import { PUBLIC_API_PREFIX } from '../urls/public-urls.ts';
import { normalizeRequestPath } from '../urls/request-path.ts';
import { chooseEncoding, compressed, encodedEtag, isCompressible, varyWithEncoding } from './compression.ts';
import type { KeptFileAnswer } from './answer-files.ts';
import { conditionalAnswer, identityHeaders, validatorsMatch, type ConditionalBody } from './conditional-get.ts';
import type { CachedFile, OutputFileCache } from './output-file-cache.ts';
import { prefersMarkdown } from '../serving/accept-markdown.ts';
import { cacheTagHeaders, tagsOfFile } from '../serving/cache-tags.ts';
import { cacheControlOf, resolveOutputRequest, type CachePolicy } from './routes/site-files.ts';
import { contentTypeOf } from '../serving/content-types.ts';

/** What the fast path needs. */
export interface StaticFastPathDeps {
  readonly files: OutputFileCache;
  readonly policy: CachePolicy;
  /** Whether public API reads are rate limited (then they take the app's path, where the limiter is). */
  readonly apiRateLimited: boolean;
  /**
   * An answer of the public API rendered on demand that the app kept and whose sources are still current
   * (`public-api/answer-cache.ts`), for its key (`answerKey`) and canonical path; undefined when there is none.
   * The app rendered it for this very key after validating its query, so it answers as the app would.
   */
  readonly keptAnswer?: (key: string, canonicalPath: string) => ConditionalBody | undefined;
  /**
   * The same from the answers kept on disk (`answer-files.ts`): `meta` is the same object while the answer is kept.
   * The app made it for this very key too.
   */
  readonly keptAnswerFile?: (key: string) => Promise<KeptFileAnswer | undefined>;
  /** Called for each request answered here, like the app's request log. */
  readonly onAnswered?: (method: string, path: string, status: number, ms: number) => void;
}

/** Paths the app alone answers. */
const APP_ONLY = /^\/(?:api\/v1(?:\/|$)|media\/)/;

/** The lists of the public API, whose later pages are files (`?cursor=`, with or without `lang`). */
function isListPath(pathname: string): boolean {
  const rest = pathname.slice(PUBLIC_API_PREFIX.length);
  return pathname.startsWith(PUBLIC_API_PREFIX) && (rest === '/channels' || /^\/channels\/[^/]+\/articles$/.test(rest));
}

/** How a request URL resolves: the file and the headers that do not depend on its bytes; null when the app must answer. */
interface Route {
  readonly file: string;
  /** Content-Type, Cache-Control, X-Content-Type-Options, Link, Content-Location, flattened (Vary apart). */
  readonly fixed: readonly string[];
  readonly contentType: string;
  /** The answer's own Vary (`Accept` on article pages), to which compressible files add `Accept-Encoding`. */
  readonly vary: string | undefined;
  /** The headers for the file version last served other than ETag, Content-Encoding and Content-Length, made once per version. */
  last?: { readonly file: CachedFile; readonly compressible: boolean; readonly headers: string[] };
}

// Resolving a URL costs more than sending the file; the answer depends only on the URL and on
// whether Markdown is asked for, so it is remembered (bounded: cleared when full).
const MAX_ROUTES = 20_000;

/**
 * Creates the fast path: resolves true when it answered the request, false
 * when the caller must hand it to the app.
 */
export function createStaticFastPath(deps: StaticFastPathDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const routes = new Map<string, Route | null>();
  // The answer key and canonical path of a request URL that may have a kept answer (null: it cannot), bounded as `routes`.
  const keptKeys = new Map<string, { readonly key: string; readonly pathname: string } | null>();
  // A kept answer's headers, flattened once (the caller gives the same body while the answer is kept).
  const flatHeaders = new WeakMap<object, { readonly headers: string[]; readonly compressible: boolean }>();

  function route(raw: string, wantsMarkdown: boolean): Route | null {
    const q = raw.indexOf('?');
    // Decisions are taken on the canonical spelling, as the app's router and limiter take them:
    // `/%61pi/public/v1/…` is a public API request. Refused spellings are the app's 404.
    const pathname = normalizeRequestPath(q < 0 ? raw : raw.slice(0, q));
    if (pathname === null || APP_ONLY.test(pathname)) return null;
    const query = q < 0 ? '' : raw.slice(q + 1);
    let lang: string | null = null;
    let cursor: string | null = null;
    if (pathname === PUBLIC_API_PREFIX || pathname.startsWith(`${PUBLIC_API_PREFIX}/`)) {
      if (deps.apiRateLimited) return null;
      if (query !== '') {
        const params = new URLSearchParams(query);
        const names = [...params.keys()];
        const allowed = isListPath(pathname) ? ['lang', 'cursor'] : ['lang'];
        // Each parameter at most once (twice is the app's 422), and none but these.
        if (names.some((n, i) => !allowed.includes(n) || names.indexOf(n) !== i)) return null;
        lang = params.get('lang');
        cursor = params.get('cursor');
      }
    } else if (query !== '') {
      lang = new URLSearchParams(query).get('lang');
    }
    const answer = resolveOutputRequest(pathname, lang, wantsMarkdown ? 'text/markdown' : undefined, cursor);
    if (!answer) return null;
    const { Vary: vary, ...headers } = answer.headers;
    const fixed: Record<string, string> = {
      'Content-Type': contentTypeOf(answer.file),
      'Cache-Control': cacheControlOf(answer.file, deps.policy),
      'X-Content-Type-Options': 'nosniff',
      ...cacheTagHeaders(tagsOfFile(deps.policy.tagPrefix, answer.file)),
      ...headers,
    };
    return { file: answer.file, fixed: Object.entries(fixed).flat(), contentType: fixed['Content-Type']!, vary };
  }

  /**
   * Sends a kept answer as `respondConditionally` sends it in the app (the same `conditionalAnswer`). Uncompressed,
   * its headers are flattened once per answer (`identityHeaders`), as a file's are once per version.
   */
  async function sendKept(req: IncomingMessage, res: ServerResponse, body: ConditionalBody, meta: object = body): Promise<number> {
    const header = (name: string) => req.headers[name] as string | undefined;
    let flat = flatHeaders.get(meta);
    if (!flat) {
      flat = { headers: Object.entries(identityHeaders(body)).flat(), compressible: isCompressible(body.contentType, body.bytes.byteLength) };
      flatHeaders.set(meta, flat);
    }
    if (!flat.compressible || !chooseEncoding(header('accept-encoding'))) {
      const notModified = validatorsMatch(header('if-none-match'), header('if-modified-since'), body.etag, body.lastModified);
      if (notModified) {
        res.writeHead(304, flat.headers);
        res.end();
        return 304;
      }
      res.writeHead(200, [...flat.headers, 'Content-Length', String(body.bytes.byteLength)]);
      res.end(req.method === 'HEAD' ? undefined : body.bytes);
      return 200;
    }
    const answer = await conditionalAnswer(body, { acceptEncoding: header('accept-encoding'), ifNoneMatch: header('if-none-match'), ifModifiedSince: header('if-modified-since') });
    if (answer.status === 304) {
      res.writeHead(304, answer.headers);
      res.end();
    } else {
      res.writeHead(200, { ...answer.headers, 'Content-Length': String(answer.bytes.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : answer.bytes);
    }
    return answer.status;
  }

  /** A kept answer of the public API for this request, when the app left one and it is current: in memory, else on disk. */
  async function kept(raw: string): Promise<{ body: ConditionalBody; meta?: object } | undefined> {
    if (!(deps.keptAnswer || deps.keptAnswerFile) || deps.apiRateLimited) return undefined;
    let found = keptKeys.get(raw);
    if (found === undefined) {
      const q = raw.indexOf('?');
      const pathname = q < 0 ? null : normalizeRequestPath(raw.slice(0, q));
      found = pathname !== null && pathname.startsWith(`${PUBLIC_API_PREFIX}/`) ? { key: answerKey(pathname, raw), pathname } : null;
      if (keptKeys.size >= MAX_ROUTES) keptKeys.clear();
      keptKeys.set(raw, found);
    }
    if (found === null) return undefined;
    const body = deps.keptAnswer?.(found.key, found.pathname);
    return body ? { body } : deps.keptAnswerFile?.(found.key);
  }

  return async (req, res) => {
    const started = performance.now();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const raw = req.url ?? '/';
    const accept = req.headers.accept;
    const wantsMarkdown = prefersMarkdown(accept);
    const key = wantsMarkdown ? `md:${raw}` : raw;
    let found = routes.get(key);
    if (found === undefined) {
      found = route(raw, wantsMarkdown);
      if (routes.size >= MAX_ROUTES) routes.clear();
      routes.set(key, found);
    }
    if (!found) {
      const answer = await kept(raw);
      if (!answer) return false;
      const status = await sendKept(req, res, answer.body, answer.meta);
      deps.onAnswered?.(req.method, raw, status, performance.now() - started);
      return true;
    }
    const file = deps.files.peek(found.file) ?? (await deps.files.get(found.file));
    if (!file) return false;
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    if (found.last?.file !== file) {
      const compressible = isCompressible(found.contentType, file.bytes.byteLength);
      const notModifiedHeaders = [...found.fixed, ...(compressible ? ['Vary', varyWithEncoding(found.vary)] : found.vary ? ['Vary', found.vary] : []), 'Last-Modified', file.lastModified];
      found.last = { file, compressible, headers: notModifiedHeaders };
    }
    // Compressed answers (compression.ts) have their own bytes and ETag; the rest of the headers are the same.
    const encoding = found.last.compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
    const etag = encoding ? encodedEtag(file.etag, encoding) : file.etag;
    const notModified = (ifNoneMatch !== undefined || ifModifiedSince !== undefined) && validatorsMatch(ifNoneMatch, ifModifiedSince, etag, file.mtime);
    const headers = encoding ? [...found.last.headers, 'ETag', etag, 'Content-Encoding', encoding] : [...found.last.headers, 'ETag', etag];
    if (notModified) {
      res.writeHead(304, headers);
      res.end();
    } else {
      const bytes = encoding ? await compressed(file.bytes, file.etag, encoding) : file.bytes;
      res.writeHead(200, [...headers, 'Content-Length', String(bytes.byteLength)]);
      res.end(req.method === 'HEAD' ? undefined : bytes);
    }
    deps.onAnswered?.(req.method, raw, notModified ? 304 : 200, performance.now() - started);
    return true;
  };
}
