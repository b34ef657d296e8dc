/**
 * Shares a few slots of costly work (image decodes, uploads on their way,
 * bodies on the body threads) between many clients so that none can hold
 * everyone else up (issue 40: one key's burst made another account's
 * upload wait 86 s and its draft 234 s). Each key (an account) runs at
 * most `perKey` tasks at once and may have `queuedPerKey` more waiting;
 * past that it is refused at once ({@link GateFullError}, a 429 with
 * `Retry-After` at the edge) instead of queueing without end. A free slot
 * goes to the keys in turn, not to whoever queued most.
 *
 * `createFairQueue` is the rule (who goes next); `createFairGate` runs
 * promises through it. Pure: no I/O, no timers.
 * @module
 */

/** Refused: the key has as many tasks running and waiting as it may. */
export class GateFullError extends Error {
  constructor(
    readonly key: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`${key} has as many tasks running and waiting as the gate allows`);
    this.name = 'GateFullError';
  }
}

/** How waiting work is bounded and shared. */
export interface FairQueueOptions {
  /** Tasks of one key running at once. */
  readonly perKey: number;
  /** Tasks of one key waiting; one more is refused (Infinity: never refused). */
  readonly queuedPerKey: number;
  /** What a refusal tells the client to wait. */
  readonly retryAfterSeconds: number;
}

/** Waiting work by key, taken in turn. */
export interface FairQueue<T> {
  /** Queues `item` for `key`. @throws GateFullError when `key` has `queuedPerKey` items waiting. */
  push(key: string, item: T): void;
  /** The next item that may start (its key runs fewer than `perKey`), the keys in turn; undefined when none may. */
  take(): { key: string; item: T } | undefined;
  /** Counts one started task of `key` as running (`take` does this for what it hands out). */
  started(key: string): void;
  /** One task of `key` ended: it runs one fewer, and its key's turn comes after the keys that waited meanwhile. */
  ended(key: string): void;
  /** Tasks of `key` running now. */
  running(key: string): number;
  /** Items waiting, in all. */
  readonly size: number;
  /** Removes and returns every waiting item. */
  drain(): T[];
}

/** Creates a queue. */
export function createFairQueue<T>(options: FairQueueOptions): FairQueue<T> {
  const waiting = new Map<string, T[]>();
  const runningByKey = new Map<string, number>();
  /** Keys with items waiting, in the order their turn comes. */
  const turns: string[] = [];
  let size = 0;
  const running = (key: string) => runningByKey.get(key) ?? 0;
  return {
    push(key, item) {
      let items = waiting.get(key);
      if ((items?.length ?? 0) >= options.queuedPerKey) throw new GateFullError(key, options.retryAfterSeconds);
      if (!items) {
        waiting.set(key, (items = []));
        turns.push(key);
      }
      items.push(item);
      size++;
    },
    take() {
      for (let tried = 0; tried < turns.length; tried++) {
        const key = turns.shift()!;
        if (running(key) >= options.perKey) {
          turns.push(key);
          continue;
        }
        const items = waiting.get(key)!;
        const item = items.shift()!;
        size--;
        if (items.length > 0) turns.push(key);
        else waiting.delete(key);
        runningByKey.set(key, running(key) + 1);
        return { key, item };
      }
      return undefined;
    },
    started(key) {
      runningByKey.set(key, running(key) + 1);
    },
    ended(key) {
      const left = running(key) - 1;
      if (left > 0) runningByKey.set(key, left);
      else runningByKey.delete(key);
      const at = turns.indexOf(key);
      if (at >= 0 && at < turns.length - 1) turns.push(...turns.splice(at, 1));
    },
    running,
    get size() {
      return size;
    },
    drain() {
      const all = [...waiting.values()].flat();
      waiting.clear();
      turns.length = 0;
      size = 0;
      return all;
    },
  };
}

/** How the gate shares its slots. */
export interface FairGateOptions extends FairQueueOptions {
  /** Tasks running at once, in all. */
  readonly slots: number;
}

/** The gate. */
export interface FairGate {
  /** Runs `task` once a slot is free for `key`. @throws GateFullError at once when `key` may queue no more. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Tasks running and waiting now (for logs and tests). */
  load(): { running: number; waiting: number };
}

/** Creates a gate. */
export function createFairGate(options: FairGateOptions): FairGate {
  const queue = createFairQueue<() => void>(options);
  let running = 0;

  /** Starts waiting tasks while slots are free; `take` counts them as running before their continuation runs. */
  function dispatch(): void {
    while (running < options.slots) {
      const next = queue.take();
      if (!next) return;
      running++;
      next.item();
    }
  }

  return {
    async run(key, task) {
      if (running >= options.slots || queue.running(key) >= options.perKey) {
        // Woken by `dispatch`, which has taken the slot for it.
        await new Promise<void>((resolve) => queue.push(key, resolve));
      } else {
        running++;
        queue.started(key);
      }
      try {
        return await task();
      } finally {
        running--;
        queue.ended(key);
        dispatch();
      }
    },
    load: () => ({ running, waiting: queue.size }),
  };
}
