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
 * The same threads evaluate the moderation rules on submissions
 * (`moderate`): the policy parses every public field's Markdown, which costs
 * as much as rendering it. A submission still being evaluated after the time
 * limit is not refused but sent to a person: the decision is `manual`
 * (`moderation_timeout: …`), so nothing is published unmoderated.
 *
 * The one module that starts body threads; the domain sees only the
 * `BodyProcessor` interface (and `ModerationPolicy`, see
 * `threaded-moderation.ts`).
 * @module
 */
import { Worker } from 'node:worker_threads';
import { BodyRejectedError, processBody, renderMarkdownBody, type BodyJob, type BodyProcessor, type ProcessedBody, type RenderedBody } from '../domain/body/index.ts';
import type { ModerationDecision, ModerationRules, ModerationSubject } from '../domain/moderation/moderation-policy.ts';
import { moderateInPlace } from './moderation-task.ts';

/** One unit of work for a thread: a body to process, or a submission to judge with rules. */
export type PoolTask =
  | { readonly kind: 'body'; readonly job: BodyJob }
  | { readonly kind: 'render'; readonly markdown: string }
  | { readonly kind: 'moderate'; readonly rules: ModerationRules; readonly subject: ModerationSubject };

/** A thread's answer to one job. */
export type BodyReply =
  | { id: number; ok: true; body: ProcessedBody }
  | { id: number; ok: true; rendered: RenderedBody }
  | { id: number; ok: true; decision: ModerationDecision }
  | { id: number; ok: false; limit: string; message: string };

/** How the pool is sized and bounded. */
export interface BodyPoolOptions {
  /** Threads (at least 1). */
  readonly threads: number;
  /** Longest a body may take on a thread before it is refused. */
  readonly timeLimitMs: number;
  /**
   * Start the threads only at the first task or at `warm()`, not at once:
   * the service starts them once it listens, so booting them (each loads
   * and compiles the body modules) does not delay its first answer.
   */
  readonly lazy?: boolean;
}

/** A body processor backed by threads; `close()` stops them. */
export interface BodyPool extends BodyProcessor {
  /**
   * Evaluates the rule policy built from `rules` on a thread. Never rejects
   * for the submission itself: over the time limit, or if the thread fails,
   * the decision is `manual` with the reason (`moderation_timeout: …`,
   * `moderation_failed: …`). Rejects only once the pool is closed.
   */
  moderate(rules: ModerationRules, subject: ModerationSubject): Promise<ModerationDecision>;
  /**
   * Renders a stored body (`renderMarkdownBody`) on a thread: the refresh at
   * start (`refresh-renderings.ts`) renders many at once. A body a thread
   * cannot render in time, or a failed thread, renders in this thread.
   */
  render(markdown: string): Promise<RenderedBody>;
  close(): Promise<void>;
  /** Threads started so far, replacements included (for tests and logs). */
  readonly started: number;
  /** Starts the threads now if they are not started yet (a `lazy` pool). */
  warm(): void;
}

interface Job {
  readonly id: number;
  readonly task: PoolTask;
  settle(reply: BodyReply): void;
  /** The thread took longer than the time limit ('timeMs'), or failed ('unprocessable', with what happened). */
  fail(limit: 'timeMs' | 'unprocessable', detail: string): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Job | null;
  timer: NodeJS.Timeout | null;
}

const BOOT = new URL('../worker-boot.mjs', import.meta.url);
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
      slot.worker.postMessage({ id: job.id, task: job.task });
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
    job?.fail('timeMs', `took longer than the time limit of ${options.timeLimitMs} ms (limit timeMs), so it was stopped`);
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
      if (job && job.id === reply.id) job.settle(reply);
      dispatch();
    });
    worker.on('error', (error) => {
      const job = finish(slot);
      replace(slot);
      job?.fail('unprocessable', error.message);
      dispatch();
    });
    worker.on('exit', () => {
      if (!slots.has(slot)) return;
      const job = finish(slot);
      replace(slot);
      job?.fail('unprocessable', 'its thread stopped');
      dispatch();
    });
  };

  const drainInPlace = () => {
    if (slots.size > 0) return;
    for (const job of queue.splice(0)) runInPlace(job);
  };

  const runInPlace = (job: Job) => {
    try {
      if (job.task.kind === 'body') job.settle({ id: job.id, ok: true, body: processBody(job.task.job) });
      else if (job.task.kind === 'render') job.settle({ id: job.id, ok: true, rendered: renderMarkdownBody(job.task.markdown) });
      else job.settle({ id: job.id, ok: true, decision: moderateInPlace(job.task.rules, job.task.subject) });
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const submit = (task: PoolTask, handlers: Omit<Job, 'id' | 'task'>) => {
    const entry: Job = { id: ++nextId, task, ...handlers };
    if (closed) return entry.reject(new Error('The body pool is closed.'));
    if (broken) return runInPlace(entry);
    warm();
    queue.push(entry);
    dispatch();
  };

  function warm(): void {
    if (started > 0 || closed) return;
    for (let i = 0; i < Math.max(1, options.threads); i++) start();
  }
  if (!options.lazy) warm();

  return {
    get started() {
      return started;
    },
    warm,
    process(job) {
      return new Promise<ProcessedBody>((resolve, reject) =>
        submit(
          { kind: 'body', job },
          {
            settle: (reply) => {
              if (!reply.ok) reject(new BodyRejectedError(reply.message, reply.limit));
              else if ('body' in reply) resolve(reply.body);
            },
            fail: (limit, detail) =>
              reject(
                new BodyRejectedError(
                  limit === 'timeMs'
                    ? `Processing the body ${detail}. Bodies this slow are usually very large or built from thousands of nested or repeated markers: split the article, or simplify its markup.`
                    : `The body could not be processed (${detail}).`,
                  limit,
                ),
              ),
            reject,
          },
        ),
      );
    },
    render(markdown) {
      // Stored bodies passed the limits when they were saved (or render as escaped text when over them): a
      // thread that fails on one leaves it to this thread rather than to nothing.
      const here = () => renderMarkdownBody(markdown);
      return new Promise<RenderedBody>((resolve, reject) =>
        submit(
          { kind: 'render', markdown },
          {
            settle: (reply) => (reply.ok && 'rendered' in reply ? resolve(reply.rendered) : resolve(here())),
            fail: () => resolve(here()),
            reject,
          },
        ),
      );
    },
    moderate(rules, subject) {
      // A person decides whatever the rules could not: nothing is published unmoderated.
      const manual = (reason: string): ModerationDecision => ({ outcome: 'manual', reason });
      return new Promise<ModerationDecision>((resolve, reject) =>
        submit(
          { kind: 'moderate', rules, subject },
          {
            settle: (reply) => {
              if (!reply.ok) resolve(manual(`moderation_failed: evaluating the rules ${reply.message}; a person decides`));
              else if ('decision' in reply) resolve(reply.decision);
            },
            fail: (limit, detail) =>
              resolve(
                manual(
                  limit === 'timeMs'
                    ? `moderation_timeout: evaluating the rules ${detail}; a person decides`
                    : `moderation_failed: evaluating the rules failed (${detail}); a person decides`,
                ),
              ),
            reject,
          },
        ),
      );
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
