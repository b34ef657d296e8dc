/**
 * Waiting for something another thread or process does, the one way tests
 * do it: read again every `intervalMs` until `done` holds, or fail after
 * `timeoutMs` saying what was awaited and what was last seen. No test sleeps
 * a fixed time and hopes.
 * @module
 */

/** How long and how often to look. */
export interface PollOptions {
  /** What is awaited, for the failure message ("the job to run"). */
  readonly what: string;
  /** Give up after this long (default 30 s): generous, since a loaded CI machine is slow. */
  readonly timeoutMs?: number;
  /** Look again after this long (default 20 ms). */
  readonly intervalMs?: number;
}

/**
 * Reads `read()` until `done(value)`; resolves with that value.
 * @throws when `timeoutMs` passes first, naming `what` and the last value.
 * @example const rows = await pollUntil(() => listRows(db), (r) => r.length === 3, { what: 'three rows' });
 */
export async function pollUntil<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: PollOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(`Waited ${timeoutMs} ms for ${options.what}; last seen: ${JSON.stringify(value)?.slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}
