/**
 * The job worker inside the write service. Runs due jobs from the durable
 * queue one at a time; retries failures with exponential backoff and parks a
 * job after its last try, with the error kept for `admin jobs`.
 *
 * Jobs survive a crash: at the next start `recover()` puts jobs that were
 * running back in the queue (and, as a safety net, a job whose lock expired is
 * claimed again), so handlers must be idempotent (the lifecycle's events are).
 * @module
 */
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/database.ts';
import type { JobRow } from '../store/job.table.ts';
import { claimDueJob, completeJob, nextRunAt, parkJob, releaseRunningJobs, retryJob } from '../store/job-queue.repository.ts';
import { sqliteCode } from '../store/busy-error.ts';
import { describeError } from '../describe-error.ts';
import { InternalError } from '../internal-error.ts';

/** Runs one kind of job. Throwing means "try again later". */
export type JobHandler = (payload: unknown, job: { readonly id: number; readonly attempts: number }) => Promise<void>;

/** Worker settings. */
export interface WorkerOptions {
  /** How long a claimed job stays locked (a crashed worker's job is retried after it). */
  readonly lockMs?: number;
  /** First retry delay; doubles with every attempt. */
  readonly backoffMs?: number;
  /** Longest sleep between polls while idle. */
  readonly idleMs?: number;
}

/** The worker's controls; the same for the Postgres store's queue (`postgres-worker.ts`). */
export interface Worker {
  /** Starts polling in the background. */
  start(): void;
  /** Wakes the loop now (after a write queued a job). */
  wake(): void;
  /** Runs every job due now, then resolves; for tests and start-up. */
  runDue(): Promise<number>;
  /**
   * Releases jobs left running by a process that died. Call once at start-up,
   * before running jobs; it assumes this is the database's only worker.
   */
  recover(): Promise<number>;
  /** Stops polling and waits for the running job. */
  stop(): Promise<void>;
}

/**
 * Creates a worker over the `jobs` table.
 * @example const worker = createWorker({ db, clock, log }, { moderate_revision: handler }); worker.start();
 */
export function createWorker(
  deps: { db: Db; clock: Clock; log: Logger },
  handlers: Readonly<Record<string, JobHandler>>,
  options: WorkerOptions = {},
): Worker {
  const lockMs = options.lockMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 1_000;
  const idleMs = options.idleMs ?? 250;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;
  let busy: Promise<number> | undefined;

  const at = (offset: number) => new Date(deps.clock.now().getTime() + offset).toISOString();

  async function runOne(): Promise<boolean> {
    const job = await claimDueJob(deps.db, at(0), at(lockMs));
    if (!job) return false;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new InternalError('JOB_KIND_UNKNOWN', `No handler for job kind "${job.kind}": a newer version of Pressroom queued it. Run that version, or remove the job from the jobs table.`);
      await handler(JSON.parse(job.payload), job);
      await completeJob(deps.db, job.id, at(0));
      deps.log.debug('job done', { id: job.id, kind: job.kind });
    } catch (error) {
      const message = describeError(error, { stack: true });
      if (job.attempts >= job.max_attempts) {
        await parkJob(deps.db, job.id, at(0), message);
        deps.log.error('job parked after its last attempt', { id: job.id, kind: job.kind, attempts: job.attempts, error: message });
      } else {
        const delay = backoffMs * 2 ** (job.attempts - 1);
        await retryJob(deps.db, job.id, at(0), at(delay), message);
        deps.log.warn('job failed, will retry', { id: job.id, kind: job.kind, attempt: job.attempts, retry_in_ms: delay, error: message });
      }
    }
    return true;
  }

  async function drain(): Promise<number> {
    let count = 0;
    while (await runOne()) count++;
    return count;
  }

  // Serialises drains: one job at a time, whoever asks.
  function runDue(): Promise<number> {
    const previous = busy ?? Promise.resolve(0);
    busy = previous.then(drain, drain);
    return busy;
  }

  async function cycle(): Promise<void> {
    while (running) {
      try {
        await runDue();
      } catch (error) {
        const code = sqliteCode(error);
        deps.log.error('worker cycle failed', { ...(code ? { sqlite_code: code } : {}), error: describeError(error, { stack: true }) });
      }
      if (!running) break;
      const next = await nextRunAt(deps.db).catch(() => undefined);
      const untilNext = next ? Date.parse(next) - deps.clock.now().getTime() : idleMs;
      const sleep = Math.max(5, Math.min(idleMs, untilNext));
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, sleep);
        wakeUp = resolve;
      });
    }
  }

  let wakeUp: (() => void) | undefined;

  return {
    start() {
      if (running) return;
      running = true;
      loop = cycle();
    },
    wake() {
      if (timer) clearTimeout(timer);
      wakeUp?.();
    },
    runDue,
    async recover() {
      const released = await releaseRunningJobs(deps.db, at(0));
      if (released > 0) deps.log.warn('released jobs left running by a stopped process', { jobs: released });
      return released;
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
      await busy;
    },
  };
}
