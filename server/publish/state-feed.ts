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
 *
 * With each row the feed keeps the hash of every part of the state it
 * leaves readers with (`read-model/state-parts.ts`, `state_feed_parts`, in
 * the row's transaction). A server that starts (a restart, a standby's
 * takeover) goes on with the feed: it writes what its state, as loaded,
 * changes against those parts, which is what was written while no server
 * built, instead of the whole state, which every web instance would read
 * and decode again (some 200 MB at 100,000 × 2).
 * @module
 */
import { isoNow, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { createDeltaTracker, type StateDelta } from '../read-model/state-delta.ts';
import { encodeDelta } from '../read-model/state-feed-codec.ts';
import { deltaFromParts, partChanges, type PartChange } from '../read-model/state-parts.ts';
import type { Db, Executor } from '../store/database.ts';
import { appendStateFeed, pruneStateFeed, stateFeedHead, stateFeedParts } from '../store/state-feed.repository.ts';
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

  interface Row {
    readonly delta: StateDelta;
    /** A whole row that goes on with the feed when it has parts (not one the size rule asked for). */
    readonly mayContinue: boolean;
    /** The delta as text; null for a row that may go on with the feed (encoded only when written whole: 135 MB at 100,000 × 2). */
    readonly text: string | null;
    readonly paths: readonly string[];
    readonly parts: readonly PartChange[];
    readonly generation: number;
  }

  const write = (trx: Executor, delta: StateDelta, text: string, parts: readonly PartChange[], paths: readonly string[], base: number) =>
    appendStateFeed(trx, { base: delta.whole ? 0 : base, through: delta.through, whole: delta.whole, delta: text, paths, parts, now: isoNow(deps.clock) });

  /** Where the feed stands once a row is written: applied only after its transaction committed. */
  interface Written {
    readonly last: number;
    readonly previousWhole: number;
    /** The sizes the size rule counts from, when the offer did not know them: the whole row written, or the chain gone on with. */
    readonly chain?: { readonly wholeChars: number; readonly charsSince: number };
  }

  /** Goes on with the feed's chain, with what `row`'s whole state changes against its parts; null when it has none to go on with. */
  async function continued(trx: Executor, row: Row): Promise<Written | null> {
    const head = await stateFeedHead(trx);
    if (!head || !head.unbroken) return null;
    const held = await stateFeedParts(trx, head.id);
    if (!held) return null;
    const changed = deltaFromParts(held, row.delta, row.parts);
    let id = head.id;
    let chars = head.charsSince;
    // Readers hold the rest: what is left to tell them is what changed, a newer event id, or the paths placed.
    if (changed || head.through !== row.delta.through || row.paths.length > 0) {
      const delta: StateDelta = changed ?? { whole: false, channelsChanged: false, articles: [], removed: [], anchors: [], through: row.delta.through };
      const text = encodeDelta(delta);
      chars += text.length;
      id = await write(trx, delta, text, partChanges(delta), row.paths, head.id);
    }
    deps.log.info('state feed: going on with the feed written before, with what changed since', { row: id, articles: changed?.articles.length ?? 0, removed: changed?.removed.length ?? 0 });
    return { last: id, previousWhole: head.wholeId, chain: { wholeChars: head.wholeChars, charsSince: chars } };
  }

  async function append(row: Row): Promise<void> {
    if (row.generation !== generation) return;
    try {
      const written = await deps.db.transaction().execute(async (trx): Promise<Written> => {
        const going = row.mayContinue ? await continued(trx, row) : null;
        if (going) return going;
        const text = row.text ?? encodeDelta(row.delta);
        const id = await write(trx, row.delta, text, row.parts, row.paths, last);
        if (row.delta.whole && previousWhole > 0) await pruneStateFeed(trx, previousWhole);
        return { last: id, previousWhole: row.delta.whole ? id : previousWhole, ...(row.text === null ? { chain: { wholeChars: text.length, charsSince: 0 } } : {}) };
      });
      last = written.last;
      previousWhole = written.previousWhole;
      if (written.chain) {
        wholeChars = written.chain.wholeChars;
        charsSince += written.chain.charsSince;
      }
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
      const sizeRule = charsSince >= Math.max(wholeChars, minChars);
      if (sizeRule) tracker.reset();
      const taken = tracker.take(state);
      if (!taken && paths.length === 0) return chain;
      const delta = taken ?? { whole: false, channelsChanged: false, articles: [], removed: [], anchors: [], through: state.through };
      const mayContinue = delta.whole && !sizeRule;
      // Encoded later from the same snapshot: the builder replaces the objects a delta holds, it never changes them.
      const text = mayContinue ? null : encodeDelta(delta);
      if (delta.whole) {
        if (text !== null) wholeChars = text.length;
        charsSince = 0;
      } else charsSince += text!.length;
      const row: Row = { delta, mayContinue, text, paths: [...paths], parts: partChanges(delta), generation };
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
      // the state's row; the next build's row waits for it.
      if (!held) void writer.offer(state, []);
      return state;
    },
    async release() {
      await builder.release();
      await writer.offer(null, []);
    },
  };
}
