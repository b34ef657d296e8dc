import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from 'hono-rate-limiter';
import { databaseBefore, type DatabaseBefore } from '../../../test/helpers/migrated-database.ts';
import { leaseSize, sharedRateLimitStore } from './shared-rate-limit-store.ts';

let database: DatabaseBefore | null = null;
afterEach(async () => {
  await database?.remove();
  database = null;
});

const WINDOW = 60_000;

/** `count` stores on one database, as `count` instances, each told the limit as the limiter tells it. */
function instances(count: number, limit: number, now: () => number): Store[] {
  return Array.from({ length: count }, () => {
    const store = sharedRateLimitStore(database!.db, 'content', WINDOW, (error) => {
      throw error;
    }, now);
    store.init?.({ limit } as never);
    return store;
  });
}

describe('rate limits shared by the instances on one database', () => {
  it.each([
    [1, 120],
    [3, 120],
    [3, 10],
    [5, 1_000],
  ])('admit at most the limit however %i instances share a client\'s requests (limit %i), and at most instances × (lease − 1) fewer', async (count, limit) => {
    database = await databaseBefore('9999');
    const t = 1_000_000;
    const stores = instances(count, limit, () => t);
    let admitted = 0;
    for (let i = 0; i < 3 * limit; i++) {
      const { totalHits } = await stores[i % count]!.increment('198.51.100.7');
      if (totalHits <= limit) admitted++;
    }
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - count * (leaseSize(limit) - 1));
  });

  it('counts each client apart, admits them in the order they come, and starts a new window when the last one ended', async () => {
    database = await databaseBefore('9999');
    let t = 1_000_000;
    const [a, b] = instances(2, 4, () => t);
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push((await [a, b][i % 2]!.increment('198.51.100.7')).totalHits);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await a!.increment('203.0.113.1')).totalHits).toBe(1);
    t += WINDOW;
    expect((await b!.increment('198.51.100.7')).totalHits).toBe(1);
  });

  it('takes hits from the database in leases: a client\'s requests cost a statement per lease, not per request', async () => {
    database = await databaseBefore('9999');
    const [store] = instances(1, 6_400, () => 1_000_000);
    const counted = async () => Number((await database!.db.selectFrom('rate_limit_hits').select('hits').executeTakeFirstOrThrow()).hits);
    expect(leaseSize(6_400)).toBe(64);
    // The first request leases 64 hits; the next 63 are answered from memory, without a statement.
    const seen: number[] = [];
    for (let i = 0; i < 64; i++) {
      seen.push((await store!.increment('198.51.100.7')).totalHits);
      expect(await counted()).toBe(64);
    }
    expect(seen).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect((await store!.increment('198.51.100.7')).totalHits).toBe(65);
    expect(await counted()).toBe(128);
  });
});
