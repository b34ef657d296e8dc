/**
 * Where a builder's own file writes and deletions go.
 *
 * Replacing a file (write a temporary name, rename it over the old one) is
 * kernel work: on ext4 a rename over an existing file also starts writing the
 * new data out. In an incremental build that was a large share of the time
 * from a publish to its files (docs/PERFORMANCE.md, "What bounds them"). The
 * thread queue hands each write to a worker thread in order and goes on
 * rendering the next file, so on two cores the renders and the writes
 * overlap. What stays in the calling thread is the decision (`needsWrite`:
 * is there anything to write?), so callers know at once which files change.
 *
 * Writes and deletions are done in the order they were queued. `settled()`
 * resolves once everything queued so far is in place: the builder awaits it
 * before recording files in the manifest, so rows never name a file that is
 * not yet there.
 * @module
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { needsWrite, removeOutput, resolveOutputPath, writeAtomically } from './output-writer.ts';

/** A queue of writes and deletions in the output folder. */
export interface OutputQueue {
  /**
   * Queues writing `bytes` to `relative`, unless the file already holds them
   * (`needsWrite`). `absent`: the caller knows no file is there (a full
   * build into a folder that held none of the site), so none is looked for.
   * @returns true when the file will be written.
   */
  write(relative: string, bytes: Uint8Array, knownHash: string | undefined, hash: string, absent?: boolean): boolean;
  /** Queues deleting `relative` and the folders it leaves empty. @returns true when there is a file to delete. */
  remove(relative: string): boolean;
  /** Resolves once everything queued so far is done; rejects with the first failure since the last call. */
  settled(): Promise<void>;
  /** Bytes queued to write and not yet written. */
  readonly backlog: number;
  /**
   * Resolves once the backlog is at most `bytes` (or the queue failed:
   * `settled()` reports it). A caller that renders faster than the disk
   * writes waits here, so the backlog does not grow with the site.
   */
  drain(bytes: number): Promise<void>;
  /** Waits for the queue, then stops it. */
  close(): Promise<void>;
}

/** A queue that does each write and deletion at once, in the calling thread. */
export function createSyncOutputQueue(outputDir: string): OutputQueue {
  return {
    write(relative, bytes, knownHash, hash, absent = false) {
      if (!absent && !needsWrite(outputDir, relative, bytes, knownHash, hash)) return false;
      writeAtomically(outputDir, relative, bytes);
      return true;
    },
    remove: (relative) => removeOutput(outputDir, relative),
    settled: async () => undefined,
    backlog: 0,
    drain: async () => undefined,
    close: async () => undefined,
  };
}

type Operation = { relative: string } & ({ op: 'write'; bytes: Uint8Array } | { op: 'remove' });
/** A queued operation, as sent to the worker. */
export type OutputOperation = Operation & { seq: number };

/**
 * A queue served by one worker thread (`output-queue-worker.ts`). Should the
 * thread die, what was queued fails (the build fails, and its events stay
 * pending, so the next build writes the files again) and the queue goes on
 * in the calling thread.
 */
export function createThreadOutputQueue(outputDir: string): OutputQueue {
  const fallback = createSyncOutputQueue(outputDir);
  let worker: Worker | null = null;
  let dead = false;
  let queued = 0;
  let done = 0;
  let failure: Error | null = null;
  let waiters: Array<{ seq: number; resolve: () => void; reject: (e: Error) => void }> = [];
  // Bytes of each queued write not yet done, in order (`done` is the last sequence number done).
  const writes: Array<{ seq: number; bytes: number }> = [];
  let backlog = 0;
  let drains: Array<{ bytes: number; resolve: () => void }> = [];

  const wake = () => {
    while (writes.length > 0 && writes[0]!.seq <= done) backlog -= writes.shift()!.bytes;
    if (drains.length > 0) {
      const ready = drains.filter((d) => backlog <= d.bytes || dead);
      drains = drains.filter((d) => !(backlog <= d.bytes || dead));
      for (const d of ready) d.resolve();
    }
    const ready = waiters.filter((w) => w.seq <= done || failure);
    waiters = waiters.filter((w) => !(w.seq <= done || failure));
    const error = failure;
    if (ready.length > 0 && error) failure = null;
    for (const w of ready) (error ? w.reject(error) : w.resolve());
  };
  const die = (error: Error) => {
    dead = true;
    failure ??= error;
    done = queued;
    worker = null;
    wake();
  };
  const start = (): Worker => {
    // The worker runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
    const w = new Worker(new URL('../worker-boot.mjs', import.meta.url), { workerData: { outputDir, entry: new URL('./output-queue-worker.ts', import.meta.url).href } });
    w.on('message', (reply: { seq: number; error?: string } | { error: string }) => {
      if (!('seq' in reply)) return die(new Error(`The output writer thread did not start: ${reply.error}`));
      if (reply.error !== undefined) failure ??= new Error(`Writing the output failed: ${reply.error}`);
      done = Math.max(done, reply.seq);
      if (done === queued) w.unref();
      wake();
    });
    w.on('error', (e) => die(e instanceof Error ? e : new Error(String(e))));
    w.on('exit', (code) => dead || die(new Error(`The output writer thread stopped (exit code ${code}).`)));
    // Idle, it must not keep the process alive; with work queued, it must (a script awaiting settled()
    // would otherwise exit with nothing left to wait for).
    w.unref();
    return w;
  };
  const send = (operation: Operation) => {
    worker!.ref();
    worker!.postMessage({ ...operation, seq: ++queued });
    if (operation.op === 'write') {
      writes.push({ seq: queued, bytes: operation.bytes.byteLength });
      backlog += operation.bytes.byteLength;
    }
  };

  // Started now: loading the TypeScript sources in the thread takes a few hundred milliseconds, which
  // would otherwise delay the first build's settled().
  worker = start();

  return {
    write(relative, bytes, knownHash, hash, absent = false) {
      if (dead) return fallback.write(relative, bytes, knownHash, hash, absent);
      // No `stat` for a file known to be new: one per new file added up over a cold build's list files.
      if (!absent && !needsWrite(outputDir, relative, bytes, knownHash, hash)) return false;
      send({ op: 'write', relative, bytes });
      return true;
    },
    remove(relative) {
      if (dead) return fallback.remove(relative);
      const there = fs.existsSync(resolveOutputPath(outputDir, relative));
      if (there) send({ op: 'remove', relative });
      return there;
    },
    settled() {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ seq: queued, resolve, reject });
        wake();
      });
    },
    get backlog() {
      return backlog;
    },
    drain(bytes) {
      return new Promise<void>((resolve) => {
        drains.push({ bytes, resolve });
        wake();
      });
    },
    async close() {
      try {
        await this.settled();
      } finally {
        dead = true;
        await worker?.terminate();
        worker = null;
      }
    },
  };
}
