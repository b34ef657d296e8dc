/**
 * The building server's public state, written to the database for web
 * instances that do not build (issue 38; `PRESSROOM_ROLE=web`,
 * `public-api/state-follower.ts`). What the request thread's mirror gets
 * from the build thread, the feed gets too: after each build, before the
 * build is recorded as shown (so a web instance has the change by the time
 * the publishing API reports it), a delta of the state against the last
 * row and the paths the build placed (`store/state-feed.repository.ts`).
 *
 * A feed starts with the whole state (the first row a server writes, after
 * its builder loaded the state), and writes the whole state again once the
 * deltas since add up to its size, deleting the rows before the previous
 * whole one, so a web instance that starts reads about twice the whole
 * state at most. Each row names the row it follows (`base`): a reader that finds
 * another knows it missed one and starts again from the newest whole row.
 * @module
 */
import { isoNow, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { createDeltaTracker } from '../read-model/state-delta.ts';
import { encodeDelta } from '../read-model/state-feed-codec.ts';
import type { Db } from '../store/database.ts';
import { appendStateFeed, pruneStateFeed } from '../store/state-feed.repository.ts';
import { describeError } from '../describe-error.ts';
import type { SiteBuilder } from './builder/site-builder.ts';

/** The least size, in characters, of the deltas written since the last whole row before another whole one (see `createStateFeedWriter`). */
export const WHOLE_AFTER_MIN_CHARS = 1_000_000;

/** Writes the feed. */
export interface StateFeedWriter {
  /**
   * Writes what `state` changed since the last row, with the paths placed (nothing when neither changed); null:
   * the state was dropped. Offers are written one at a time, in the order made.
   */
  offer(state: PublicState | null, paths: readonly string[]): Promise<void>;
}

/**
 * Creates a writer whose first row is whole. Another whole row is written once the deltas since the last
 * one add up to its size (and to at least `minChars`), so a reader that starts reads at most about twice the
 * whole state, and the whole state is written again in proportion to what changed, not at every few publishes
 * (at 100,000 articles it is some 100 MB).
 */
export function createStateFeedWriter(deps: { db: Db; clock: Clock; log: Logger }, minChars = WHOLE_AFTER_MIN_CHARS): StateFeedWriter {
  const tracker = createDeltaTracker();
  let last = 0;
  let wholeChars = 0;
  let charsSince = 0;
  let previousWhole = 0;
  // Rows taken after a failed write are not written: they follow the lost one. The next offer is whole.
  let generation = 0;
  let chain: Promise<void> = Promise.resolve();

  async function append(row: { whole: boolean; through: number; text: string; paths: readonly string[]; generation: number }): Promise<void> {
    if (row.generation !== generation) return;
    try {
      const id = await appendStateFeed(deps.db, { base: row.whole ? 0 : last, through: row.through, whole: row.whole, delta: row.text, paths: row.paths, now: isoNow(deps.clock) });
      last = id;
      if (row.whole && previousWhole > 0) await pruneStateFeed(deps.db, previousWhole);
      if (row.whole) previousWhole = id;
    } catch (error) {
      generation++;
      tracker.reset();
      deps.log.error('state feed not written: web instances keep the state they hold until the next build writes the whole state again', { error: describeError(error) });
    }
  }

  return {
    offer(state, paths) {
      if (!state) {
        tracker.reset();
        return chain;
      }
      // Taken now, so the row is the state as offered, whatever the builder changes before it is written.
      if (charsSince >= Math.max(wholeChars, minChars)) tracker.reset();
      const taken = tracker.take(state);
      if (!taken && paths.length === 0) return chain;
      const delta = taken ?? { whole: false, channelsChanged: false, articles: [], removed: [], anchors: [], through: state.through };
      const text = encodeDelta(delta);
      if (delta.whole) {
        wholeChars = text.length;
        charsSince = 0;
      } else charsSince += text.length;
      const row = { whole: delta.whole, through: delta.through, text, paths: [...paths], generation };
      chain = chain.then(() => append(row));
      return chain;
    },
  };
}

/**
 * Has `builder` feed `writer`: after each build's files are placed, and
 * when its state is first loaded or dropped. Returns the builder.
 */
export function feedState(builder: SiteBuilder, writer: StateFeedWriter): SiteBuilder {
  builder.onFilesPlaced((paths) => writer.offer(builder.heldState(), paths));
  return {
    ...builder,
    async publicState() {
      const held = builder.heldState() !== null;
      const state = await builder.publicState();
      // Written behind the answer: whoever asked for the state (the request thread at a start) need not wait for
      // the whole state's row; the next build's row waits for it.
      if (!held) void writer.offer(state, []);
      return state;
    },
    async release() {
      await builder.release();
      await writer.offer(null, []);
    },
  };
}
