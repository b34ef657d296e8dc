/**
 * Bodies are prepared and rendered on worker threads, off the request
 * thread, each under a time limit (issue 18).
 *
 * Parsing Markdown and HTML is CPU work of up to seconds for a large body;
 * on the request thread it stalls every other request, readers' included.
 * The pool hands each body (`processBody`) to an idle thread; a body still
 * running after the time limit has its thread terminated (the only way to
 * stop synchronous work) and is refused with a `BodyRejectedError` naming
 * the limit, and a fresh thread takes the terminated one's place. The limit
 * is CPU time the thread spent on the job (Linux, `thread-cpu.ts`; wall-clock
 * time on the thread elsewhere), so neither a queue nor a busy machine makes
 * a fine body fail; a job is stopped in any case after four times the limit
 * in wall-clock time.
 *
 * Jobs wait by owner (the account whose write it is; `moderation` for the
 * moderation job, `render` for the refresh at start), taken in turn
 * (`fair-gate.ts`): an owner runs at most half the threads at once (at
 * least one) and may have {@link BODIES_QUEUED_PER_OWNER} bodies waiting,
 * past which its write is refused at once with 429 `ACCOUNT_BUSY` (issue
 * 40: one account's 20 slow bodies made another account's draft wait 234 s).
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
import { PressroomError } from '../domain/errors.ts';
import { createFairQueue, GateFullError } from '../fair-gate.ts';
import { threadCpuMs } from './thread-cpu.ts';
import { BodyRejectedError, processBody, renderMarkdownBody, startedMillions, type BodyJob, type BodyProcessor, type ProcessedBody, type RenderedBody } from '../domain/body/index.ts';
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
  /** Bodies one owner may have waiting (default {@link BODIES_QUEUED_PER_OWNER}); one more is refused with 429 ACCOUNT_BUSY. */
  readonly queuedPerOwner?: number;
}

/** A body processor backed by threads; `close()` stops them. */
export interface BodyPool extends BodyProcessor {
  /**
   * Evaluates the rule policy built from `rules` on a thread. Never rejects
   * for the submission itself: over the time limit, or if the thread fails,
   * the decision is `manual` with the reason (`moderation_timeout: …`,
   * `moderation_failed: …`). Rejects only once the pool is closed.
   */
  moderate(rules: ModerationRules, subject: ModerationSubject, owner?: string): Promise<ModerationDecision>;
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

/** Bodies one owner may have waiting by default (`PRESSROOM_BODY_QUEUE_PER_ACCOUNT`): two writes of the most translations a request holds (100). */
export const BODIES_QUEUED_PER_OWNER = 200;
/** What a refused write is told to wait. */
export const BODIES_RETRY_AFTER_SECONDS = 5;
/** The wall-clock time after which a job is stopped whatever its CPU time, as a multiple of the limit. */
const WALL_CAP = 4;
/** The characters of Markdown or HTML a task works through. */
function taskChars(task: PoolTask): number {
  if (task.kind === 'render') return task.markdown.length;
  if (task.kind === 'body') return (task.job.contentMarkdown ?? task.job.contentHtml ?? '').length;
  const subject = task.subject;
  return subject.markdown.length + subject.title.length + (subject.excerpt?.length ?? 0);
}

/**
 * A job's time limit: `base` for a body of up to a million characters (a 1 MB body of old), and as many
 * times `base` as it has started millions, so the limit grows as linearly as the work (bodies of up to the
 * request's 20 MB are accepted, issue 36).
 */
export function jobTimeLimitMs(base: number, task: PoolTask): number {
  return base * startedMillions(taskChars(task));
}

interface Job {
  readonly id: number;
  readonly task: PoolTask;
  /** Whose work it is (`BodyProcessor.process`'s owner). */
  readonly owner: string;
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
  /** The thread's kernel id (Linux), told by the thread when it is ready: its CPU clock. */
  tid: number | null;
  /** Its CPU time (ms) when the current job started, and that job's wall-clock start. */
  cpuAtStart: number | null;
  startedAt: number;
  /** The current job's time limit (`jobTimeLimitMs`). */
  limitMs: number;
}

const BOOT = new URL('../worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./body-worker.ts', import.meta.url).href;

/** Starts a pool of `options.threads` body threads. */
export function createBodyPool(options: BodyPoolOptions): BodyPool {
  const queuedPerOwner = options.queuedPerOwner ?? BODIES_QUEUED_PER_OWNER;
  const queue = createFairQueue<Job>({ perKey: Math.max(1, Math.floor(options.threads / 2)), queuedPerKey: queuedPerOwner, retryAfterSeconds: BODIES_RETRY_AFTER_SECONDS });
  const slots = new Set<Slot>();
  let nextId = 0;
  let started = 0;
  let closed = false;
  // Threads that could not even start (a broken install): bodies are then processed in place rather than never.
  let broken = false;

  const dispatch = () => {
    for (const slot of slots) {
      if (queue.size === 0) return;
      if (!slot.ready || slot.current) continue;
      const next = queue.take();
      if (!next) return; // every owner with work waiting runs as many as it may
      const job = next.item;
      slot.current = job;
      slot.worker.ref();
      slot.cpuAtStart = slot.tid === null ? null : threadCpuMs(slot.tid);
      slot.startedAt = performance.now();
      slot.limitMs = jobTimeLimitMs(options.timeLimitMs, job.task);
      slot.timer = setTimeout(() => checkTime(slot), slot.limitMs);
      slot.worker.postMessage({ id: job.id, task: job.task });
    }
  };

  /**
   * At the time limit in wall-clock time: stopped if the thread has spent the limit in CPU time on the job (or
   * its CPU time cannot be read), or after {@link WALL_CAP} times the limit; otherwise looked at again once
   * the rest of the limit could have been spent.
   */
  const checkTime = (slot: Slot) => {
    const now = slot.tid === null || slot.cpuAtStart === null ? null : threadCpuMs(slot.tid);
    const spent = now === null ? null : now - slot.cpuAtStart!;
    const wall = performance.now() - slot.startedAt;
    const limit = slot.limitMs;
    if (spent === null || spent >= limit || wall >= WALL_CAP * limit) return timeOut(slot);
    slot.timer = setTimeout(() => checkTime(slot), Math.min(Math.max(10, limit - spent), WALL_CAP * limit - wall));
  };

  const finish = (slot: Slot): Job | null => {
    const job = slot.current;
    slot.current = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.worker.unref();
    if (job) queue.ended(job.owner);
    return job;
  };

  const replace = (slot: Slot) => {
    slots.delete(slot);
    if (!closed) start();
  };

  const timeOut = (slot: Slot) => {
    const limit = slot.limitMs;
    const job = finish(slot);
    replace(slot);
    void slot.worker.terminate();
    job?.fail('timeMs', `took longer than the time limit of ${limit} ms of processing (limit timeMs), so it was stopped`);
    dispatch();
  };

  const start = () => {
    started++;
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY } });
    const slot: Slot = { worker, ready: false, current: null, timer: null, tid: null, cpuAtStart: null, startedAt: 0, limitMs: options.timeLimitMs };
    slots.add(slot);
    worker.unref();
    worker.on('message', (reply: BodyReply | { ready: true; tid: number | null } | { error: string }) => {
      if ('ready' in reply) {
        slot.ready = true;
        slot.tid = reply.tid ?? null;
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
    for (const job of queue.drain()) runInPlace(job);
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

  const submit = (task: PoolTask, owner: string, handlers: Omit<Job, 'id' | 'task' | 'owner'>) => {
    const entry: Job = { id: ++nextId, task, owner, ...handlers };
    if (closed) return entry.reject(new Error('The body pool is closed.'));
    if (broken) return runInPlace(entry);
    warm();
    try {
      queue.push(owner, entry);
    } catch (error) {
      if (!(error instanceof GateFullError)) throw error;
      return entry.reject(
        new PressroomError(
          'ACCOUNT_BUSY',
          `This account already has ${queuedPerOwner} article bodies waiting to be prepared, the most it may have at once. Wait ${error.retryAfterSeconds} s (the Retry-After header) and send the request again; send writes one after another rather than many at once.`,
          { retry_after_seconds: error.retryAfterSeconds },
        ),
      );
    }
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
    process(job, owner = '') {
      return new Promise<ProcessedBody>((resolve, reject) =>
        submit(
          { kind: 'body', job },
          owner,
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
          'render',
          {
            settle: (reply) => (reply.ok && 'rendered' in reply ? resolve(reply.rendered) : resolve(here())),
            fail: () => resolve(here()),
            reject,
          },
        ),
      );
    },
    moderate(rules, subject, owner = 'moderation') {
      // A person decides whatever the rules could not: nothing is published unmoderated.
      const manual = (reason: string): ModerationDecision => ({ outcome: 'manual', reason });
      return new Promise<ModerationDecision>((resolve, reject) =>
        submit(
          { kind: 'moderate', rules, subject },
          owner,
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
      for (const job of queue.drain()) job.reject(new Error('The body pool is closed.'));
      const all = [...slots];
      slots.clear();
      for (const slot of all) finish(slot)?.reject(new Error('The body pool is closed.'));
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
