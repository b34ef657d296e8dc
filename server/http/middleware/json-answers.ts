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

/** The Cache-Control of every error answer. */
export const ERROR_CACHE_CONTROL = 'no-store';

/** Completes the headers of JSON answers (see the module doc). */
export function jsonAnswerHeaders() {
  return createMiddleware(async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type');
    if (type === null || !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) return;
    const headers = new Headers(c.res.headers);
    if (!/charset=/i.test(type)) headers.set('content-type', `${type.split(';')[0]!.trim()}; charset=utf-8`);
    headers.set('x-content-type-options', 'nosniff');
    if (c.res.status >= 400 && !headers.has('cache-control')) headers.set('cache-control', ERROR_CACHE_CONTROL);
    c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
  });
}
