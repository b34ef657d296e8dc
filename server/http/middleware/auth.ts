/**
 * API key authentication: `Authorization: Bearer <key>` or `X-API-Key: <key>`.
 * Sets the principal for the handlers.
 * @module
 */
import { createMiddleware } from 'hono/factory';
import { authenticate, type Principal } from '../../domain/account/account.service.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/database.ts';

/** Variables set on the Hono context. */
export type AuthEnv = { Variables: { principal: Principal } };

/** Extracts the key from the request headers, if any. */
export function keyFromHeaders(authorization: string | undefined, apiKey: string | undefined): string | undefined {
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? (apiKey?.trim() || undefined);
}

/** Middleware that authenticates every request or answers 401. */
export function requireApiKey(deps: { db: Db; clock: Clock }) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const key = keyFromHeaders(c.req.header('authorization'), c.req.header('x-api-key'));
    c.set('principal', await authenticate(deps, key));
    await next();
  });
}
