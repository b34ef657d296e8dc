/**
 * graphile-worker, the job queue of the Postgres store (issue 38): the one
 * module that loads it. Its migrations make the `graphile_worker` schema;
 * its runner takes due jobs with `FOR UPDATE SKIP LOCKED`, hears new ones
 * through `LISTEN/NOTIFY` (sent when the transaction that queued them
 * commits), polls for those whose time has come, retries failures and keeps
 * a job that failed its last attempt. Queuing is plain SQL in the writer's
 * own transaction (`postgres-jobs.ts`).
 *
 * Version 0.16 is used: 0.17 and later need Node 22.18+, and Pressroom
 * supports Node 20.19+ (README, "Node").
 * @module
 */
import { Logger as GraphileLogger, run, runMigrations, type LogLevel, type Runner } from 'graphile-worker';

/** Where the queue's own log lines go (the service's logger fits; the store imports no logger). */
export interface QueueLog {
  debug(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A job as its task sees it. */
export interface QueueJob {
  readonly id: number;
  readonly kind: string;
  readonly attempts: number;
  readonly maxAttempts: number;
}

/** Runs one kind of job; throwing means "try again later". */
export type QueueTask = (payload: unknown, job: QueueJob) => Promise<void>;

/** graphile-worker's log lines under the service's logger: its info is our debug (connections, start-up chatter). */
function queueLogger(log: QueueLog | undefined): GraphileLogger {
  return new GraphileLogger(() => (level: LogLevel, message: string) => {
    if (!log) return;
    if (level === 'error') log.error(message);
    else if (level === 'warning') log.warn(message);
    else log.debug(message);
  });
}

/** Creates or updates the queue's schema (`graphile_worker`); safe to run from several processes at once. */
export async function installJobQueue(url: string): Promise<void> {
  await runMigrations({ connectionString: url, logger: queueLogger(undefined) });
}

/** Settings of a runner. */
export interface QueueRunnerOptions {
  /** How often due jobs are looked for besides the notifications (a job queued for later is found by it). */
  readonly pollMs: number;
  /** The id the runner locks jobs with (`locked_by`): its liveness lock is held under it. */
  readonly workerId: string;
}

/** A started runner. */
export interface QueueRunner {
  /** Stops taking jobs, waits for the running ones, and releases its connections. */
  stop(): Promise<void>;
}

/**
 * Starts a runner for `tasks` on its own connections: one held for
 * `LISTEN`, the others for taking and finishing jobs. Jobs of kinds not in
 * `tasks` are left for a process that serves them.
 */
export async function startQueueRunner(url: string, tasks: Readonly<Record<string, QueueTask>>, log: QueueLog, options: QueueRunnerOptions): Promise<QueueRunner> {
  const taskList = Object.fromEntries(
    Object.entries(tasks).map(([kind, task]) => [
      kind,
      (payload: unknown, helpers: { job: { id: string | number; attempts: number; max_attempts: number } }) =>
        task(payload, { id: Number(helpers.job.id), kind, attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts }),
    ]),
  );
  const runner: Runner = await run({
    connectionString: url,
    // One job at a time per process, as on SQLite; graphile-worker takes a chosen worker id only so (it reads
    // `workerId` from the options it was given, though its RunnerOptions type does not list it).
    maxPoolSize: 3,
    concurrency: 1,
    ...({ workerId: options.workerId } as object),
    pollInterval: options.pollMs,
    // The service's clock is Node's: a job's `run_at` is compared with it, not with the database server's.
    useNodeTime: true,
    // The service handles its own signals (scripts/start.ts) and stops the runner in order.
    noHandleSignals: true,
    logger: queueLogger(log),
    taskList,
  });
  return {
    async stop() {
      await runner.stop();
    },
  };
}
