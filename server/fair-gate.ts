/**
 * Shares a few slots of costly work (image decodes, uploads on their way)
 * between many clients so that none can hold everyone else up (issue 40:
 * one key's burst made another account's upload wait 86 s). Each key (an
 * account) runs at most `perKey` tasks at once and may have `queuedPerKey`
 * more waiting; past that the gate refuses at once ({@link GateFullError},
 * a 429 with `Retry-After` at the edge) instead of queueing without end.
 * A free slot goes to the keys in turn, not to whoever queued most.
 * Pure: no I/O, no timers.
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

/** How the gate shares its slots. */
export interface FairGateOptions {
  /** Tasks running at once, in all. */
  readonly slots: number;
  /** Tasks of one key running at once. */
  readonly perKey: number;
  /** Tasks of one key waiting for a slot; one more is refused (Infinity: never refused). */
  readonly queuedPerKey: number;
  /** What a refusal tells the client to wait. */
  readonly retryAfterSeconds: number;
}

/** The gate. */
export interface FairGate {
  /** Runs `task` once a slot is free for `key`. @throws GateFullError at once when `key` may queue no more. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Tasks running and waiting now (for logs and tests). */
  load(): { running: number; waiting: number };
}

interface KeyState {
  running: number;
  readonly waiting: Array<() => void>;
}

/** Creates a gate. */
export function createFairGate(options: FairGateOptions): FairGate {
  const keys = new Map<string, KeyState>();
  /** Keys with tasks waiting, in the order their turn comes. */
  const turns: string[] = [];
  let running = 0;
  let waiting = 0;

  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state) keys.set(key, (state = { running: 0, waiting: [] }));
    return state;
  };

  /** Starts waiting tasks while slots are free: the next key in turn that may run one more. */
  function dispatch(): void {
    for (let tried = 0; running < options.slots && tried < turns.length; ) {
      const key = turns.shift()!;
      const state = keys.get(key)!;
      if (state.running >= options.perKey) {
        turns.push(key);
        tried++;
        continue;
      }
      const start = state.waiting.shift()!;
      waiting--;
      if (state.waiting.length > 0) turns.push(key);
      tried = 0;
      // The slot is taken here, before the task's continuation runs, so this loop never hands out more.
      running++;
      state.running++;
      start();
    }
  }

  return {
    async run(key, task) {
      const state = stateOf(key);
      if (running >= options.slots || state.running >= options.perKey) {
        if (state.waiting.length >= options.queuedPerKey) throw new GateFullError(key, options.retryAfterSeconds);
        // Woken by `dispatch`, which has taken the slot for it.
        await new Promise<void>((resolve) => {
          if (state.waiting.length === 0) turns.push(key);
          state.waiting.push(resolve);
          waiting++;
        });
      } else {
        running++;
        state.running++;
      }
      try {
        return await task();
      } finally {
        running--;
        state.running--;
        if (state.running === 0 && state.waiting.length === 0) keys.delete(key);
        // The key just had its turn: keys that waited meanwhile go first.
        const at = turns.indexOf(key);
        if (at >= 0 && at < turns.length - 1) turns.push(...turns.splice(at, 1));
        dispatch();
      }
    },
    load: () => ({ running, waiting }),
  };
}
