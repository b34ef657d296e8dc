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
 * its builder loaded the state), and writes the whole state again every
 * `wholeEvery` rows, deleting the rows before the previous whole one, so a
 * web instance that starts reads at most that many deltas after one whole
 * state. Each row names the row it follows (`base`): a reader that finds
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

/** Rows between two whole states, by default. */
export const WHOLE_EVERY = 500;

/** Writes the feed. */
export interface StateFeedWriter {
  /** Writes what `state` changed since the last row, with the paths placed (nothing when neither changed). Null: the state was dropped. */
  offer(state: PublicState | null, paths: readonly string[]): Promise<void>;
}

/** Creates a writer whose first row is whole. */
export function createStateFeedWriter(deps: { db: Db; clock: Clock; log: Logger }, wholeEvery = WHOLE_EVERY): StateFeedWriter {
  const tracker = createDeltaTracker();
  let last = 0;
  let sinceWhole = 0;
  let previousWhole = 0;
  return {
    async offer(state, paths) {
      if (!state) {
        tracker.reset();
        return;
      }
      if (sinceWhole >= wholeEvery) tracker.reset();
      const taken = tracker.take(state);
      if (!taken && paths.length === 0) return;
      const delta = taken ?? { whole: false, channelsChanged: false, articles: [], removed: [], anchors: [], through: state.through };
      try {
        const id = await appendStateFeed(deps.db, { base: delta.whole ? 0 : last, through: delta.through, whole: delta.whole, delta: encodeDelta(delta), paths, now: isoNow(deps.clock) });
        last = id;
        sinceWhole = delta.whole ? 0 : sinceWhole + 1;
        if (delta.whole) {
          if (previousWhole > 0) await pruneStateFeed(deps.db, previousWhole);
          previousWhole = id;
        }
      } catch (error) {
        // The readers see the gap (`base`) and start again from a whole row: the next one is.
        tracker.reset();
        deps.log.error('state feed not written: web instances keep the previous state until the next build', { error: describeError(error) });
      }
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
      if (!held) await writer.offer(state, []);
      return state;
    },
    async release() {
      await builder.release();
      await writer.offer(null, []);
    },
  };
}
