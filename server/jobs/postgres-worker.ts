/**
 * The job worker of the Postgres store (issue 38): graphile-worker's runner
 * (`store/postgres/graphile-queue.ts`) runs the service's handlers, behind
 * the same `Worker` controls as the SQLite queue's worker (`worker.ts`).
 *
 * The runner hears a job the moment the transaction that queued it commits
 * (`LISTEN/NOTIFY`) and looks for jobs whose time has come every
 * `pollMs`, so a scheduled article goes live within a second or two of its
 * time with no traffic at all. `runDue()` runs the jobs due by the service's
 * clock instead, one at a time, on the same rows: tests move that clock,
 * while the runner reads the real one.
 *
 * Several processes may run jobs on one database (the server and `npm run
 * worker` processes): each runner holds a liveness lock under its worker id
 * while it lives, and every running worker releases, every
 * `DEAD_RUNNER_SWEEP_MS` and at start (`recover()`), the jobs of runners
 * whose lock is free: a killed process's job runs again within seconds.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { describeError } from '../describe-error.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/database.ts';
import { startQueueRunner, type QueueRunner, type QueueTask } from '../store/postgres/graphile-queue.ts';
import { holdRunnerLiveness, postgresUrl, type InstanceLock } from '../store/postgres/postgres-database.ts';
import { failQueueJob, finishQueueJob, releaseDeadRunnersJobs, takeDueQueueJob } from '../store/postgres/postgres-jobs.ts';
import type { JobHandler, Worker } from './worker.ts';

/** How often the runner looks for jobs whose time has come, besides the notifications of new ones. */
export const QUEUE_POLL_MS = 1000;

/** How often a running worker releases the jobs of runners that died (`npm run worker` processes, a killed server). */
export const DEAD_RUNNER_SWEEP_MS = 1000;

/** The retry delay after a failed attempt, as graphile-worker's runner sets it: e^attempts seconds. */
export function retryDelayMs(attempts: number): number {
  return Math.exp(Math.min(attempts, 10)) * 1000;
}

/**
 * Creates the worker of a Postgres store.
 * @example const worker = createPostgresWorker({ db, clock, log }, handlers); await worker.recover(); worker.start();
 */
export function createPostgresWorker(
  deps: { db: Db; clock: Clock; log: Logger },
  handlers: Readonly<Record<string, JobHandler>>,
  options: {
    pollMs?: number;
    /** How often dead runners' jobs are released (0: never; another runner of the process does it). */
    sweepMs?: number;
    /** The runner's id from a random suffix (default `pressroom-{pid}-{suffix}`). */
    workerId?: (suffix: string) => string;
    /** Called when the runner's liveness connection ends while it runs: its jobs may be run elsewhere. */
    onLivenessLost?: () => void;
  } = {},
): Worker {
  const kinds = Object.keys(handlers);
  const suffix = randomUUID().slice(0, 8);
  const workerId = options.workerId?.(suffix) ?? `pressroom-${process.pid}-${suffix}`;
  let starting: Promise<{ runner: QueueRunner; liveness: InstanceLock } | undefined> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let busy: Promise<number> | undefined;

  async function releaseDead(): Promise<number> {
    const released = await releaseDeadRunnersJobs(deps.db);
    if (released > 0) deps.log.warn('released jobs left running by a stopped process', { jobs: released });
    return released;
  }

  // Each handler under the same log lines as the SQLite worker's; the runner retries or keeps the job.
  const task = (kind: string, handler: JobHandler): QueueTask => async (payload, job) => {
    try {
      await handler(payload, job);
      deps.log.debug('job done', { id: job.id, kind });
    } catch (error) {
      const message = describeError(error, { stack: true });
      if (job.attempts >= job.maxAttempts) deps.log.error('job parked after its last attempt', { id: job.id, kind, attempts: job.attempts, error: message });
      else deps.log.warn('job failed, will retry', { id: job.id, kind, attempt: job.attempts, retry_in_ms: Math.round(retryDelayMs(job.attempts)), error: message });
      throw error;
    }
  };
  const tasks = Object.fromEntries(Object.entries(handlers).map(([kind, handler]) => [kind, task(kind, handler)]));

  async function runOne(): Promise<boolean> {
    const now = deps.clock.now();
    const job = await takeDueQueueJob(deps.db, kinds, now.toISOString(), workerId);
    if (!job) return false;
    try {
      await tasks[job.kind]!(job.payload, { id: job.id, kind: job.kind, attempts: job.attempts, maxAttempts: job.max_attempts });
      await finishQueueJob(deps.db, job.id, workerId);
    } catch (error) {
      const retryAt = new Date(now.getTime() + retryDelayMs(job.attempts)).toISOString();
      await failQueueJob(deps.db, job.id, workerId, describeError(error, { stack: true }), retryAt);
    }
    return true;
  }

  async function drain(): Promise<number> {
    let count = 0;
    while (await runOne()) count++;
    return count;
  }

  return {
    start() {
      starting ??= (async () => {
        const url = postgresUrl(deps.db);
        // Held before the first job is taken: a job locked under this id is never taken for a dead runner's.
        const liveness = await holdRunnerLiveness(url, workerId, options.onLivenessLost);
        try {
          return { runner: await startQueueRunner(url, tasks, deps.log, { pollMs: options.pollMs ?? QUEUE_POLL_MS, workerId }), liveness };
        } catch (error) {
          await liveness.release();
          throw error;
        }
      })().catch((error: unknown) => {
        deps.log.error('the job queue\'s runner did not start: jobs wait until the service is restarted', { error: describeError(error) });
        return undefined;
      });
      if (options.sweepMs !== 0) {
        sweeper ??= setInterval(() => void releaseDead().catch((error: unknown) => deps.log.warn('releasing dead runners\' jobs failed', { error: describeError(error) })), options.sweepMs ?? DEAD_RUNNER_SWEEP_MS);
        sweeper.unref();
      }
    },
    // The runner hears new jobs from the database itself.
    wake() {},
    runDue() {
      const previous = busy ?? Promise.resolve(0);
      busy = previous.then(drain, drain);
      return busy;
    },
    // Only dead runners' jobs: `npm run worker` processes may be running jobs beside this one.
    recover: releaseDead,
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      const started = await starting;
      starting = undefined;
      await started?.runner.stop();
      await started?.liveness.release();
      await busy;
    },
  };
}
