/**
 * hono-rate-limiter's store over the database (`store/rate-limit.repository.ts`):
 * the read API's limits counted once for every instance on one Postgres
 * database (issue 38), so a client gets a limit once however a balancer
 * spreads its requests.
 *
 * One statement per request made every limited read several times slower
 * (docs/PERFORMANCE.md, "Several instances"), so an instance takes hits
 * from the database in small leases: it adds a
 * block of `lease` hits to the client's count in one statement and admits
 * that many requests from memory. A block is cut to what the limit leaves,
 * so the instances together never admit more than the limit; hits leased
 * and not used by the window's end count as made, so a client spread over
 * N instances may be refused up to N × (lease − 1) requests early (the
 * lease is a 32nd of the limit, at most 64: 3 early at 120 a minute).
 *
 * A database that does not answer lets the request through (logged once a
 * minute), as a limiter in memory would: a limit is not worth refusing
 * readers over.
 * @module
 */
import type { Store } from 'hono-rate-limiter';
import type { Db } from '../../store/database.ts';
import { hitRateLimit, pruneRateLimits, readRateLimit, resetRateLimit } from '../../store/rate-limit.repository.ts';

/** Leases taken between two deletions of ended windows. */
const PRUNE_EVERY = 1_000;
/** At most one log line of a failing store per this many ms. */
const FAILURE_LOG_MS = 60_000;
/** The largest lease. */
const MAX_LEASE = 64;
/** Local entries kept at most (beyond, the ended ones go, then the oldest). */
const MAX_ENTRIES = 100_000;

/** The hits one lease takes for a limit of `limit` a window. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / 32)));
}

/** What this instance holds of one client's window. */
interface Lease {
  /** The window's end (ms since the epoch). */
  resetAt: number;
  /** The count in the database after this instance's last lease. */
  leasedTo: number;
  /** Hits of the leases not used yet. */
  left: number;
}

/**
 * A store for one limiter: `scope` names it in the shared table (two
 * limiters on one client key count apart), `windowMs` is the limiter's.
 */
export function sharedRateLimitStore(db: Db, scope: string, windowMs: number, onFailure: (error: unknown) => void, now: () => number = Date.now): Store {
  let limit = 1;
  let leases = 0;
  let loggedAt = -Infinity;
  const held = new Map<string, Lease>();
  const failed = (error: unknown) => {
    if (now() - loggedAt < FAILURE_LOG_MS) return;
    loggedAt = now();
    onFailure(error);
  };
  const key = (client: string) => `${scope}:${client}`;
  const forgetEnded = (at: number) => {
    for (const [client, lease] of held) if (lease.resetAt <= at) held.delete(client);
    for (const client of held.keys()) {
      if (held.size < MAX_ENTRIES) break;
      held.delete(client);
    }
  };
  return {
    init(options) {
      // A function limit (per request) is not used here; the limiters pass a number.
      if (typeof options.limit === 'number') limit = options.limit;
    },
    async increment(client) {
      const at = now();
      const own = held.get(client);
      if (own && own.resetAt > at && own.left > 0) {
        own.left--;
        return { totalHits: own.leasedTo - own.left, resetTime: new Date(own.resetAt) };
      }
      if (++leases % PRUNE_EVERY === 0) {
        forgetEnded(at);
        void pruneRateLimits(db, at).catch(failed);
      }
      try {
        const size = leaseSize(limit);
        const count = await hitRateLimit(db, key(client), windowMs, at, size);
        // This lease is hits count - size + 1 … count; those past the limit are refusals, not admissions.
        const usable = Math.max(0, Math.min(size, limit - (count.hits - size)));
        if (usable === 0) return { totalHits: count.hits, resetTime: new Date(count.resetAt) };
        held.set(client, { resetAt: count.resetAt, leasedTo: count.hits - size + usable, left: usable - 1 });
        return { totalHits: count.hits - size + 1, resetTime: new Date(count.resetAt) };
      } catch (error) {
        failed(error);
        return { totalHits: 0, resetTime: new Date(at + windowMs) };
      }
    },
    async get(client) {
      const count = await readRateLimit(db, key(client), now()).catch((error: unknown) => void failed(error));
      return count ? { totalHits: count.hits, resetTime: new Date(count.resetAt) } : undefined;
    },
    async decrement(client) {
      // A request the limiter was told not to count: its hit goes back to this instance's lease.
      const own = held.get(client);
      if (own && own.resetAt > now()) own.left++;
    },
    async resetKey(client) {
      held.delete(client);
      await resetRateLimit(db, key(client)).catch(failed);
    },
  };
}
