/**
 * The headers every JSON answer of the app carries, set in one place (issue
 * 34: the publishing API's errors and its OpenAPI document had none):
 * `Content-Type: application/json; charset=utf-8` (Hono's `c.json` names no
 * charset), `X-Content-Type-Options: nosniff`, and on errors
 * `Cache-Control: no-store`: an error is the answer of one moment (a 404
 * before a publish, a 503 while busy), and a cache that kept it would answer
 * wrongly after it (docs/openapi, "Errors").
 * @module
 */
import { createMiddleware } from 'hono/factory';
import { ERROR_CACHE_CONTROL } from '../../serving/cache-policy.ts';

/** Completes the headers of JSON answers (see the module doc). */
export function jsonAnswerHeaders() {
  return createMiddleware(async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('content-type');
    if (type === null || !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) return;
    const charset = /charset=/i.test(type);
    const error = res.status >= 400 && !res.headers.has('cache-control');
    // The public API's files come with all of it already: nothing to do on the hot path.
    if (charset && !error && res.headers.has('x-content-type-options')) return;
    const set = (headers: Headers) => {
      if (!charset) headers.set('content-type', `${type.split(';')[0]!.trim()}; charset=utf-8`);
      headers.set('x-content-type-options', 'nosniff');
      if (error) headers.set('cache-control', ERROR_CACHE_CONTROL);
    };
    try {
      set(res.headers);
    } catch {
      // A response with immutable headers (one passed through from fetch): copied once.
      const headers = new Headers(res.headers);
      set(headers);
      c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
  });
}
