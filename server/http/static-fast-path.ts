/**
 * The bundled server's fast path for the static output: a GET or HEAD that a
 * static host would answer from a file is answered straight from the output
 * file cache on Node's `http` objects, without building a Fetch `Request`,
 * a Hono context and a `Response` (measured: about three times the requests
 * per second of the same answer through the framework, on this 2-core
 * machine). Everything else (and every case the fast path is unsure of)
 * goes to the Hono app, which answers the same requests the same way: both
 * use `resolveOutputRequest` and the same headers.
 *
 * Not taken for: the publishing API and media (their own routes); public API
 * requests while a content rate limit is on (the limiter lives in the app);
 * public API requests with any query parameter other than a single `lang`
 * (variants, and the 422s of bad parameters); requests that map to no file
 * (the app answers the 404 with the right error code).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_API_PREFIX } from '../urls/public-urls.ts';
import { conditionalHeaders, validatorsMatch } from './conditional-get.ts';
import type { OutputFileCache } from './output-file-cache.ts';
import { outputFileHeaders, resolveOutputRequest, type CachePolicy } from './routes/site-files.ts';

/** What the fast path needs. */
export interface StaticFastPathDeps {
  readonly files: OutputFileCache;
  readonly policy: CachePolicy;
  /** Whether public API reads are rate limited (then they take the app's path, where the limiter is). */
  readonly apiRateLimited: boolean;
  /** Called for each request answered here, like the app's request log. */
  readonly onAnswered?: (method: string, path: string, status: number, ms: number) => void;
}

/** Paths the app alone answers. */
const APP_ONLY = /^\/(?:api\/v1(?:\/|$)|media\/)/;

/**
 * Creates the fast path: resolves true when it answered the request, false
 * when the caller must hand it to the app.
 */
export function createStaticFastPath(deps: StaticFastPathDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const started = performance.now();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    if (APP_ONLY.test(pathname)) return false;
    const query = q < 0 ? '' : raw.slice(q + 1);
    let lang: string | null = null;
    if (pathname === PUBLIC_API_PREFIX || pathname.startsWith(`${PUBLIC_API_PREFIX}/`)) {
      if (deps.apiRateLimited) return false;
      if (query !== '') {
        const params = new URLSearchParams(query);
        const names = [...params.keys()];
        if (names.length !== 1 || names[0] !== 'lang') return false;
        lang = params.get('lang');
      }
    } else if (query !== '') {
      lang = new URLSearchParams(query).get('lang');
    }
    const accept = req.headers.accept;
    const answer = resolveOutputRequest(pathname, lang, Array.isArray(accept) ? accept.join(',') : accept);
    if (!answer) return false;
    const file = await deps.files.get(answer.file);
    if (!file) return false;
    const headers = conditionalHeaders(outputFileHeaders(answer.file, file, deps.policy, answer.headers));
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    let status = 200;
    if (validatorsMatch(header('if-none-match'), header('if-modified-since'), file.etag, file.mtime)) {
      status = 304;
      res.writeHead(304, headers);
      res.end();
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(file.bytes.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : file.bytes);
    }
    deps.onAnswered?.(req.method, pathname, status, performance.now() - started);
    return true;
  };
}
