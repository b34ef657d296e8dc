/**
 * hono-rate-limiter's store over the database (`store/rate-limit.repository.ts`):
 * the read API's limits counted once for every instance on one Postgres
 * database (issue 38). Each request costs one statement outside any
 * transaction. A database that does not answer lets the request through
 * (logged once a minute), as a limiter's own memory would: a limit is not
 * worth refusing readers over.
 * @module
 */
import type { Store } from 'hono-rate-limiter';
import type { Db } from '../../store/database.ts';
import { hitRateLimit, pruneRateLimits, readRateLimit, resetRateLimit, unhitRateLimit } from '../../store/rate-limit.repository.ts';

/** Hits counted between two deletions of ended windows. */
const PRUNE_EVERY = 1_000;
/** At most one log line of a failing store per this many ms. */
const FAILURE_LOG_MS = 60_000;

/**
 * A store for one limiter: `scope` names it in the shared table (two
 * limiters on one client key count apart), `windowMs` is the limiter's.
 */
export function sharedRateLimitStore(db: Db, scope: string, windowMs: number, onFailure: (error: unknown) => void, now: () => number = Date.now): Store {
  let hits = 0;
  let loggedAt = -Infinity;
  const failed = (error: unknown) => {
    if (now() - loggedAt < FAILURE_LOG_MS) return;
    loggedAt = now();
    onFailure(error);
  };
  const key = (client: string) => `${scope}:${client}`;
  return {
    async increment(client) {
      const at = now();
      if (++hits % PRUNE_EVERY === 0) void pruneRateLimits(db, at).catch(failed);
      try {
        const count = await hitRateLimit(db, key(client), windowMs, at);
        return { totalHits: count.hits, resetTime: new Date(count.resetAt) };
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
      await unhitRateLimit(db, key(client)).catch(failed);
    },
    async resetKey(client) {
      await resetRateLimit(db, key(client)).catch(failed);
    },
  };
}
