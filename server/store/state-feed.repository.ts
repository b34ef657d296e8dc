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

/** The key under which the parts say which row they are of. */
const PARTS_ROW_KEY = '$row';

/** Parts written per statement. */
const PARTS_PER_STATEMENT = 500;

/**
 * Appends a row and changes the parts it changes (`read-model/state-parts.ts`: every part, replacing those
 * held, for a whole row); resolves with its id. Run it in a transaction, so the parts are always the newest row's.
 */
export async function appendStateFeed(db: Executor, row: { base: number; through: number; whole: boolean; delta: string; paths: readonly string[]; parts: ReadonlyArray<readonly [key: string, hash: string | null]>; now: string }): Promise<number> {
  const { id } = await db
    .insertInto('state_feed')
    .values({ base: row.base, through: row.through, whole: row.whole ? 1 : 0, delta: row.delta, paths: JSON.stringify(row.paths), created_at: row.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (row.whole) await db.deleteFrom('state_feed_parts').execute();
  const gone = row.parts.filter(([, hash]) => hash === null).map(([key]) => key);
  // With them, which row they are of: should a row be deleted by hand, they are not the newest row's.
  const set = [{ key: PARTS_ROW_KEY, hash: String(id) }, ...row.parts.filter((p): p is readonly [string, string] => p[1] !== null).map(([key, hash]) => ({ key, hash }))];
  for (let i = 0; i < gone.length; i += PARTS_PER_STATEMENT) await db.deleteFrom('state_feed_parts').where('key', 'in', gone.slice(i, i + PARTS_PER_STATEMENT)).execute();
  for (let i = 0; i < set.length; i += PARTS_PER_STATEMENT) {
    await db
      .insertInto('state_feed_parts')
      .values(set.slice(i, i + PARTS_PER_STATEMENT))
      .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ hash: eb.ref('excluded.hash') })))
      .execute();
  }
  if (storeKind(db) === 'postgres') await sql`select pg_notify(${STATE_FEED_CHANNEL}, ${String(id)})`.execute(db);
  return id;
}

/** The id of the newest whole row, where a reader starts; null when there is none. */
export async function newestWholeFeedId(db: Executor): Promise<number | null> {
  const row = await db.selectFrom('state_feed').select((eb) => eb.fn.max('id').as('id')).where('whole', '=', 1).executeTakeFirst();
  return row?.id == null ? null : Number(row.id);
}

/** Where the feed stands: its newest row, and the chain a reader starting now would read. */
export interface StateFeedHead {
  readonly id: number;
  readonly through: number;
  /** The newest whole row, where a reader starts, and its size in characters. */
  readonly wholeId: number;
  readonly wholeChars: number;
  /** The characters of the rows after it. */
  readonly charsSince: number;
  /** Whether each row after it follows the one before (none was deleted by hand): else a reader cannot get past the gap. */
  readonly unbroken: boolean;
}

/** The feed's head; null when the feed has no whole row (nothing a reader could start from). */
export async function stateFeedHead(db: Executor): Promise<StateFeedHead | null> {
  const wholeId = await newestWholeFeedId(db);
  if (wholeId === null) return null;
  // The chain a reader starting now reads, without its text: the whole row first, then each row after it.
  const chain = await db
    .selectFrom('state_feed')
    .select((eb) => ['id', 'base', 'through', eb.fn<number | string>('length', ['delta']).as('chars')])
    .where('id', '>=', wholeId)
    .orderBy('id')
    .execute();
  let unbroken = true;
  let charsSince = 0;
  for (let i = 1; i < chain.length; i++) {
    if (Number(chain[i]!.base) !== Number(chain[i - 1]!.id)) unbroken = false;
    charsSince += Number(chain[i]!.chars);
  }
  const newest = chain[chain.length - 1]!;
  return { id: Number(newest.id), through: Number(newest.through), wholeId, wholeChars: Number(chain[0]!.chars), charsSince, unbroken };
}

/**
 * The parts of the state row `rowId` leaves readers with, by key; null when the parts are not that row's (a
 * feed written before migration 0022, or rows deleted by hand).
 */
export async function stateFeedParts(db: Executor, rowId: number): Promise<Map<string, string> | null> {
  const rows = await db.selectFrom('state_feed_parts').select(['key', 'hash']).execute();
  const parts = new Map(rows.map((r) => [r.key, r.hash]));
  if (parts.get(PARTS_ROW_KEY) !== String(rowId)) return null;
  parts.delete(PARTS_ROW_KEY);
  return parts;
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
