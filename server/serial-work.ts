/**
 * The two shapes of background work the service runs, written once:
 *
 * - `createSerialQueue`: tasks run one after another, in the order asked
 *   (the builder's builds, the Pagefind writer, the read API's search sync);
 * - `createCoalescingRunner`: any number of requests while a run is busy
 *   make exactly one more run after it (the build queue, the search
 *   rebuild), so work is done in batches by one runner.
 * @module
 */

/** Tasks run one at a time, in order. */
export interface SerialQueue {
  /** Runs `work` after every task asked before it, whether they succeeded or failed; resolves or rejects as it does. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when no task is running or waiting (including tasks added while waiting). */
  idle(): Promise<void>;
}

/** Creates a serial queue. */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      const next = tail.then(work, work);
      tail = next.catch(() => undefined);
      return next;
    },
    async idle() {
      let seen: Promise<unknown>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
  };
}

/** A runner of one kind of work that coalesces requests. */
export interface CoalescingRunner {
  /** Starts a run, or, when one is running, asks for one more after it. Ignored once stopped. */
  kick(): void;
  /** Whether a run is in progress. */
  readonly busy: boolean;
  /** Resolves when no run is in progress or asked for. */
  idle(): Promise<void>;
  /** Stops taking requests and resolves when the current run is over. */
  stop(): Promise<void>;
}

/**
 * Creates a runner of `work`. `work` must not throw (it reports its own
 * failures); a rejection is passed to `onError` and the runner goes on.
 */
export function createCoalescingRunner(work: () => Promise<void>, onError: (error: unknown) => void): CoalescingRunner {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const loop = async (): Promise<void> => {
    do {
      again = false;
      try {
        await work();
      } catch (error) {
        onError(error);
      }
    } while (again && !stopped);
    running = null;
  };
  return {
    kick() {
      if (stopped) return;
      if (running) again = true;
      else running = loop();
    },
    get busy() {
      return running !== null;
    },
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      while (running) await running;
    },
  };
}

/**
 * Waits while `busy()` says so, asking every `pollMs`, for at most `maxMs` or until `stopped()`: how a
 * build and an edge round wait for changes already under way, so they go out together.
 */
export async function waitWhile(busy: () => Promise<boolean>, o: { readonly maxMs: number; readonly pollMs?: number; readonly stopped?: () => boolean }): Promise<void> {
  const deadline = performance.now() + o.maxMs;
  while (!o.stopped?.() && performance.now() < deadline && (await busy())) await new Promise((resolve) => setTimeout(resolve, o.pollMs ?? 5));
}
