/**
 * The public state of a web instance (`PRESSROOM_ROLE=web`, issue 38): a
 * mirror of the building server's, made from the database's state feed
 * (`publish/state-feed.ts` writes it, `store/state-feed.repository.ts`),
 * exactly as the building server's request thread mirrors its build
 * thread (`read-model/state-delta.ts`). It starts from the newest whole
 * row and applies every row after it in order; the paths each row names
 * are dropped from the instance's file caches (`onPaths`) as it applies
 * it, so its files and its state change together. It looks for rows when
 * told (a Postgres notification) and every `pollMs` besides. A row whose
 * `base` is not the last one applied means one was missed (pruned, or a
 * new building server began a feed): the mirror keeps serving what it
 * holds and starts again from the newest whole row.
 * @module
 */
import { describeError } from '../describe-error.ts';
import type { Logger } from '../logger.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { createStateMirror } from '../read-model/state-delta.ts';
import { decodeDelta } from '../read-model/state-feed-codec.ts';
import type { Db } from '../store/database.ts';
import { newestWholeFeedId, readStateFeed } from '../store/state-feed.repository.ts';

/** Rows read per query. */
const PAGE = 50;

/** A web instance's public state. */
export interface StateFollower {
  /** The state, once a whole one was read (waits for it). */
  state(): Promise<PublicState>;
  /** The state held now; null before the first whole row. */
  heldState(): PublicState | null;
  /** The newest publication event the held state shows (0: none held). */
  through(): number;
  /** Changes whenever a row is applied (search answers remembered under one version hold until it changes). */
  version(): number;
  /** Reads and applies the rows written since the last look; resolves when done (looks run one at a time). */
  catchUp(): Promise<void>;
  /** Looks now (a notification came). */
  poke(): void;
  close(): Promise<void>;
}

/** Follows the feed; the first look starts at once. */
export function followState(deps: { db: Db; log: Logger; onPaths: (paths: readonly string[]) => void | Promise<void>; pollMs?: number }): StateFollower {
  const mirror = createStateMirror();
  let last = 0;
  // The whole row whose chain has a gap (a row deleted by hand, say): the held state stays until a newer whole row.
  let unmendable = 0;
  let version = 0;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  const waiters: Array<() => void> = [];

  async function look(): Promise<void> {
    let startedFrom = 0;
    for (;;) {
      let from = last + 1;
      if (last === 0) {
        const whole = await newestWholeFeedId(deps.db);
        // A chain with a gap after its whole row is read again only once a newer whole row exists.
        if (whole === null || whole === unmendable) return;
        from = startedFrom = whole;
      }
      const rows = await readStateFeed(deps.db, from, PAGE);
      if (rows.length === 0) return;
      for (const row of rows) {
        if (!row.whole && row.base !== last) {
          deps.log.warn('state feed: a row was missed; reading the whole state again', { expected: last, base: row.base, row: row.id });
          if (startedFrom !== 0) unmendable = startedFrom;
          last = 0;
          break;
        }
        mirror.apply(decodeDelta(row.delta, mirror.state()?.channels ?? null));
        last = row.id;
        version++;
        if (row.paths.length > 0) await deps.onPaths(row.paths);
        if (mirror.state()) for (const wake of waiters.splice(0)) wake();
      }
      if (last !== 0 && rows.length < PAGE) return;
    }
  }

  function catchUp(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await look().catch((error: unknown) => deps.log.error('state feed not read: answers keep the state held until the next look', { error: describeError(error) }));
      } while (again && !closed);
    })().finally(() => (running = null));
    return running;
  }

  const timer = setInterval(() => void catchUp(), deps.pollMs ?? 1_000);
  timer.unref();
  void catchUp();
  return {
    async state() {
      const held = mirror.state();
      if (held) return held;
      await new Promise<void>((resolve) => waiters.push(resolve));
      return mirror.state()!;
    },
    heldState: () => mirror.state(),
    through: () => mirror.state()?.through ?? 0,
    version: () => version,
    catchUp,
    poke: () => void catchUp(),
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
