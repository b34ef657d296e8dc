/**
 * Bodies are prepared and rendered on worker threads, off the request
 * thread, each under a time limit (issue 18).
 *
 * Parsing Markdown and HTML is CPU work of up to seconds for a large body;
 * on the request thread it stalls every other request, readers' included.
 * The pool hands each body (`processBody`) to an idle thread; a body still
 * running after the time limit has its thread terminated (the only way to
 * stop synchronous work) and is refused with a `BodyRejectedError` naming
 * the limit, and a fresh thread takes the terminated one's place. Jobs wait
 * in order while every thread is busy; the time limit counts from when a
 * thread starts the job, so a queue never makes a fine body fail.
 *
 * The one module that starts body threads; the domain sees only the
 * `BodyProcessor` interface.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { BodyRejectedError, processBody, type BodyJob, type BodyProcessor, type ProcessedBody } from '../domain/body/index.ts';

/** A thread's answer to one job. */
export type BodyReply = { id: number; ok: true; body: ProcessedBody } | { id: number; ok: false; limit: string; message: string };

/** How the pool is sized and bounded. */
export interface BodyPoolOptions {
  /** Threads (at least 1). */
  readonly threads: number;
  /** Longest a body may take on a thread before it is refused. */
  readonly timeLimitMs: number;
}

/** A body processor backed by threads; `close()` stops them. */
export interface BodyPool extends BodyProcessor {
  close(): Promise<void>;
  /** Threads started so far, replacements included (for tests and logs). */
  readonly started: number;
}

interface Job {
  readonly id: number;
  readonly job: BodyJob;
  resolve(body: ProcessedBody): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Job | null;
  timer: NodeJS.Timeout | null;
}

const BOOT = new URL('../publish/worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./body-worker.ts', import.meta.url).href;

/** Starts a pool of `options.threads` body threads. */
export function createBodyPool(options: BodyPoolOptions): BodyPool {
  const queue: Job[] = [];
  const slots = new Set<Slot>();
  let nextId = 0;
  let started = 0;
  let closed = false;
  // Threads that could not even start (a broken install): bodies are then processed in place rather than never.
  let broken = false;

  const dispatch = () => {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.current) continue;
      const job = queue.shift()!;
      slot.current = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => timeOut(slot), options.timeLimitMs);
      slot.worker.postMessage({ id: job.id, job: job.job });
    }
  };

  const finish = (slot: Slot): Job | null => {
    const job = slot.current;
    slot.current = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.worker.unref();
    return job;
  };

  const replace = (slot: Slot) => {
    slots.delete(slot);
    if (!closed) start();
  };

  const timeOut = (slot: Slot) => {
    const job = finish(slot);
    replace(slot);
    void slot.worker.terminate();
    job?.reject(
      new BodyRejectedError(
        `Processing the body took longer than the time limit of ${options.timeLimitMs} ms (limit timeMs), so it was stopped. Bodies this slow are usually very large or built from thousands of nested or repeated markers: split the article, or simplify its markup.`,
        'timeMs',
      ),
    );
    dispatch();
  };

  const start = () => {
    started++;
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY } });
    const slot: Slot = { worker, ready: false, current: null, timer: null };
    slots.add(slot);
    worker.unref();
    worker.on('message', (reply: BodyReply | { ready: true } | { error: string }) => {
      if ('ready' in reply) {
        slot.ready = true;
        return dispatch();
      }
      if (!('id' in reply)) {
        // The entry failed to load: no thread will do better.
        broken = true;
        slots.delete(slot);
        void worker.terminate();
        return drainInPlace();
      }
      const job = finish(slot);
      if (job && job.id === reply.id) {
        if (reply.ok) job.resolve(reply.body);
        else job.reject(new BodyRejectedError(reply.message, reply.limit));
      }
      dispatch();
    });
    worker.on('error', (error) => {
      const job = finish(slot);
      replace(slot);
      job?.reject(new BodyRejectedError(`The body could not be processed (${error.message}).`, 'unprocessable'));
      dispatch();
    });
    worker.on('exit', () => {
      if (!slots.has(slot)) return;
      const job = finish(slot);
      replace(slot);
      job?.reject(new BodyRejectedError('The body could not be processed (its thread stopped).', 'unprocessable'));
      dispatch();
    });
  };

  const drainInPlace = () => {
    if (slots.size > 0) return;
    for (const job of queue.splice(0)) runInPlace(job);
  };

  const runInPlace = (job: Job) => {
    try {
      job.resolve(processBody(job.job));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  for (let i = 0; i < Math.max(1, options.threads); i++) start();

  return {
    get started() {
      return started;
    },
    process(job) {
      return new Promise<ProcessedBody>((resolve, reject) => {
        const entry: Job = { id: ++nextId, job, resolve, reject };
        if (closed) return reject(new Error('The body pool is closed.'));
        if (broken) return runInPlace(entry);
        queue.push(entry);
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('The body pool is closed.'));
      const all = [...slots];
      slots.clear();
      for (const slot of all) finish(slot)?.reject(new Error('The body pool is closed.'));
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
