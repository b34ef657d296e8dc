/**
 * Per-client rate limits of the public content API (spec, "Limits"), with
 * the maintained `hono-rate-limiter` (fixed one-minute windows, in memory,
 * or on Postgres in the database every instance shares:
 * `shared-rate-limit-store.ts`).
 * Over the limit: 429 with `Retry-After` (whole seconds until the window
 * resets, at least 1), the `RateLimit-*` headers and the error body.
 * @module
 */
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter, type Store } from 'hono-rate-limiter';
import { errorBody } from '../../serving/error-body.ts';

/**
 * One key per client for an address as written: IPv4 as dotted decimal
 * (also when written as an IPv4-mapped IPv6 address or with a port), IPv6
 * by its /64 prefix (one subscriber's network: a client that holds a /64 can
 * otherwise rotate through 2^64 keys), lower-case and fully expanded. Null
 * when `text` is not an IP address at all.
 */
export function clientKey(text: string): string | null {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // a zone index names the interface, not the client
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const family = isIP(address);
  if (family === 4) return address.split('.').map((octet) => String(Number(octet))).join('.');
  if (family !== 6) return null;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, as four lower-case hex digits each. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail === null ? [] : tail ? tail.split(':') : [];
  const groups = tail === null ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => group.padStart(4, '0'));
}

/**
 * The client's rate-limit key: the connection's peer, or, behind
 * `trustProxyHops` trusted proxies, the address the outermost of them saw
 * (the n-th entry of X-Forwarded-For from the right; entries further left
 * are the client's own claims and are never trusted), made one key per
 * client by {@link clientKey}. An entry that is not an IP address (a
 * misconfigured hop count lets the client write it) counts as the peer, so
 * no text a client chooses becomes a key of its own.
 */
export function clientAddress(c: Context, trustProxyHops: number): string {
  let peer = 'unknown';
  try {
    const remote = getConnInfo(c).remote.address;
    if (remote) peer = clientKey(remote) ?? remote;
  } catch {
    // Not served by @hono/node-server (app.request in a unit test): one shared bucket.
  }
  if (trustProxyHops === 0) return peer;
  const chain = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops: the leftmost one was still written by a trusted proxy.
  const entry = chain[Math.max(0, chain.length - trustProxyHops)];
  return (entry === undefined ? null : clientKey(entry)) ?? peer;
}

/** The limiters' window: limits are per minute. */
const WINDOW_MS = 60_000;

/**
 * A limiter allowing `perMinute` requests per client address and minute; a
 * pass-through when `perMinute` is 0.
 * @param what names the limited requests in the 429 message ("content requests", "searches").
 * @param store where the counts live (`shared-rate-limit-store.ts`, for every instance on one database); default: this process's memory.
 */
export function perClientRateLimit(what: string, perMinute: number, trustProxyHops: number, store?: (windowMs: number) => Store): MiddlewareHandler {
  if (perMinute === 0) return async (_c, next) => next();
  return rateLimiter({
    windowMs: WINDOW_MS,
    ...(store ? { store: store(WINDOW_MS) } : {}),
    limit: perMinute,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => clientAddress(c, trustProxyHops),
    handler: (c) => {
      const reset = ((c.get as (key: string) => unknown)('rateLimit') as { resetTime?: Date } | undefined)?.resetTime;
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
