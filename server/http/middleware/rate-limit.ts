/**
 * Per-client rate limits of the public content API (spec, "Limits"), with
 * the maintained `hono-rate-limiter` (fixed one-minute windows, in memory).
 * Over the limit: 429 with `Retry-After` (whole seconds until the window
 * resets, at least 1), the `RateLimit-*` headers and the error body.
 * @module
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { errorBody } from '../error-body.ts';

/**
 * The client's address: the connection's peer, or, behind `trustProxyHops`
 * trusted proxies, the address the outermost of them saw (the n-th entry of
 * X-Forwarded-For from the right; entries further left are the client's own
 * claims and are never trusted).
 */
export function clientAddress(c: Context, trustProxyHops: number): string {
  let peer = 'unknown';
  try {
    peer = getConnInfo(c).remote.address ?? peer;
  } catch {
    // Not served by @hono/node-server (app.request in a unit test): one shared bucket.
  }
  if (trustProxyHops === 0) return peer;
  const chain = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops: the leftmost one was still written by a trusted proxy.
  return chain[Math.max(0, chain.length - trustProxyHops)] ?? peer;
}

/**
 * A limiter allowing `perMinute` requests per client address and minute; a
 * pass-through when `perMinute` is 0.
 * @param what names the limited requests in the 429 message ("content requests", "searches").
 */
export function perClientRateLimit(what: string, perMinute: number, trustProxyHops: number): MiddlewareHandler {
  if (perMinute === 0) return async (_c, next) => next();
  return rateLimiter({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => clientAddress(c, trustProxyHops),
    handler: (c) => {
      const reset = (c.get('rateLimit') as { resetTime?: Date } | undefined)?.resetTime;
      const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
      c.header('Retry-After', String(seconds));
      return c.json(
        errorBody(
          'RATE_LIMITED',
          `This address made more than ${perMinute} ${what} in a minute, the most the service answers. Wait ${seconds} s (the Retry-After header), then try again.`,
        ),
        429,
      );
    },
  });
}
