/**
 * Turns for readers during a build on the request thread.
 *
 * An incremental build renders its list and site files one after the other
 * (a channel's lists and feeds, the cursor pages around a change, the
 * homepage, the sitemaps), each a synchronous call. Run back to back they
 * held the request thread for 100 ms and more per publish, and every reader's
 * request queued behind them (issue 36). Between two files the builder asks
 * for a turn: once it has held the thread for `sliceMs`, it lets the event
 * loop answer what waits (`setImmediate`: after the pending I/O) before it
 * goes on. A build's result does not change; it only takes the turns it
 * gave away. What readers may see meanwhile is what they could already see
 * while a build waited for its files to be written (`settle.ts`): the state
 * already holds the build's articles, its files are not all in place, and
 * nothing is reported built until they are.
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a build holds the request thread before it lets readers in (ms). */
export const BUILD_SLICE_MS = 5;

/** Asked between two pieces of a build's work. */
export interface ReaderTurns {
  /** Resolves at once while the build's slice lasts; after it, once the event loop has answered what waits. */
  between(): Promise<void>;
  /** Turns given so far (tests). */
  readonly given: number;
}

/** Turns measured with `now` (ms; `performance.now` unless a test gives its own). */
export function createReaderTurns(sliceMs = BUILD_SLICE_MS, now: () => number = () => performance.now()): ReaderTurns {
  let since = now();
  let given = 0;
  return {
    async between() {
      if (now() - since < sliceMs) return;
      given += 1;
      await nextTurn();
      since = now();
    },
    get given() {
      return given;
    },
  };
}
