/**
 * The app routes on the canonical spelling of the request path
 * (`normalizeRequestPath`), so the router, the public API's rate limiter
 * (which picks its bucket from `c.req.path`) and the file lookup all see one
 * address however it was spelled. Paths the normalisation refuses are
 * answered 404 before any route runs.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { normalizeRequestPath, rawPathOf } from '../../urls/request-path.ts';
import { PressroomError } from '../../domain/errors.ts';

/**
 * The request path as the client sent it: Node's raw request target when
 * served by @hono/node-server (the Fetch `Request` has already resolved dot
 * segments and backslashes, which would hide them), else the URL's path.
 */
function rawRequestPath(request: Request, env: unknown): string {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.url !== undefined) return rawPathOf(incoming.url);
  const url = request.url;
  return rawPathOf(url.slice(url.indexOf('/', url.indexOf('://') + 3)));
}

/**
 * Hono's `getPath`: the canonical path, or the raw one when it is refused
 * (then {@link refuseUnsafePaths} answers before any route).
 */
export function canonicalGetPath(request: Request, options?: { env?: unknown }): string {
  const raw = rawRequestPath(request, options?.env);
  return normalizeRequestPath(raw) ?? raw;
}

/** Answers 404 for a path the normalisation refuses (a dot segment, an encoded separator, …). */
export function refuseUnsafePaths(): MiddlewareHandler {
  return async (c: Context, next) => {
    if (normalizeRequestPath(rawRequestPath(c.req.raw, c.env)) !== null) return next();
    // Thrown, so the error handler answers it as every 404 (a person's browser gets the 404 page).
    throw new PressroomError('NOT_FOUND', 'This address is not valid: it has a dot segment, an empty segment, an encoded "/" or "\\", or a control character. Use the plain address.');
  };
}
