/**
 * `state_feed` (migration 0021): the builder's public state as a feed of
 * deltas, written by the server that builds (`publish/state-feed.ts`) and
 * read by web instances that do not (`public-api/state-follower.ts`), so
 * their read API answers from the state the output was built from, as the
 * building server's does. Each row is a delta of the one before it; a
 * `whole` row is the whole state, where a reader starts. On Postgres an
 * append also notifies the readers (`STATE_FEED_CHANNEL`).
 * @module
 */
import { sql } from 'kysely';
import { storeKind, type Executor } from './database.ts';

/** The `LISTEN` channel an append notifies on Postgres. */
export const STATE_FEED_CHANNEL = 'pressroom_state_feed';

/** One row of the feed. */
export interface StateFeedRow {
  readonly id: number;
  /** The row this one follows (0: whole). */
  readonly base: number;
  readonly through: number;
  readonly whole: boolean;
  readonly delta: string;
  readonly paths: readonly string[];
}

/** Appends a row; resolves with its id. */
export async function appendStateFeed(db: Executor, row: { base: number; through: number; whole: boolean; delta: string; paths: readonly string[]; now: string }): Promise<number> {
  const { id } = await db
    .insertInto('state_feed')
    .values({ base: row.base, through: row.through, whole: row.whole ? 1 : 0, delta: row.delta, paths: JSON.stringify(row.paths), created_at: row.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (storeKind(db) === 'postgres') await sql`select pg_notify(${STATE_FEED_CHANNEL}, ${String(id)})`.execute(db);
  return id;
}

/** The id of the newest whole row, where a reader starts; null when there is none. */
export async function newestWholeFeedId(db: Executor): Promise<number | null> {
  const row = await db.selectFrom('state_feed').select((eb) => eb.fn.max('id').as('id')).where('whole', '=', 1).executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}

/** Rows from `fromId` on (inclusive), in order, at most `limit`. */
export async function readStateFeed(db: Executor, fromId: number, limit: number): Promise<StateFeedRow[]> {
  const rows = await db.selectFrom('state_feed').select(['id', 'base', 'through', 'whole', 'delta', 'paths']).where('id', '>=', fromId).orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), base: Number(r.base), through: Number(r.through), whole: Number(r.whole) === 1, delta: r.delta, paths: JSON.parse(r.paths) as string[] }));
}

/** Deletes the rows before `id` (a newer whole row made them unnecessary). */
export async function pruneStateFeed(db: Executor, beforeId: number): Promise<void> {
  await db.deleteFrom('state_feed').where('id', '<', beforeId).execute();
}
