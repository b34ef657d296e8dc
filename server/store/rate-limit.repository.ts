/**
 * `rate_limit_hits` (migration 0021): the read API's per-client counters,
 * shared by every instance on one database (issue 38), so a client cannot
 * pass a limit by having a round-robin balancer spread its requests. One
 * fixed window per key, counted in one statement (no transaction: on
 * Postgres it takes no write lock, `postgres-database.ts`).
 * @module
 */
import { sql } from 'kysely';
import type { Executor } from './database.ts';

/** A key's count in its current window. */
export interface RateLimitCount {
  readonly hits: number;
  /** When the window ends (ms since the epoch). */
  readonly resetAt: number;
}

/** Counts `hits` hits of `key` at `nowMs` (one, or a lease of several); a window that ended starts again with them. */
export async function hitRateLimit(db: Executor, key: string, windowMs: number, nowMs: number, hits = 1): Promise<RateLimitCount> {
  const resetAt = nowMs + windowMs;
  const row = await db
    .insertInto('rate_limit_hits')
    .values({ key, hits, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limit_hits.reset_at <= ${nowMs} then ${hits} else rate_limit_hits.hits + ${hits} end`,
        reset_at: sql<number>`case when rate_limit_hits.reset_at <= ${nowMs} then ${resetAt} else rate_limit_hits.reset_at end`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}

/** The count of `key` now, or undefined when its window ended or it has none. */
export async function readRateLimit(db: Executor, key: string, nowMs: number): Promise<RateLimitCount | undefined> {
  const row = await db.selectFrom('rate_limit_hits').select(['hits', 'reset_at']).where('key', '=', key).where('reset_at', '>', nowMs).executeTakeFirst();
  return row ? { hits: Number(row.hits), resetAt: Number(row.reset_at) } : undefined;
}

/** Forgets `key`'s count. */
export async function resetRateLimit(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('key', '=', key).execute();
}

/** Deletes the windows that ended before `nowMs`. */
export async function pruneRateLimits(db: Executor, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_hits').where('reset_at', '<=', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
