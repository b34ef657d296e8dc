/**
 * `npm run worker` (issue 38): a process that runs the job queue's jobs of
 * a Postgres database beside the server, on a machine of its own or the
 * same one: moderation (the rule policy on its own body threads, under the
 * same time limit) and scheduled publications. Builds stay with the server
 * that holds the database, and so does the media cleanup (it sweeps that
 * server's folders); any number of workers may run, graphile-worker gives
 * each job to one of them, and a killed worker's job runs again within
 * seconds in another (`jobs/postgres-worker.ts`). The composition root of
 * that role, as `main.ts` is the server's.
 * @module
 */
import { createBodyPool } from './bodies/body-pool.ts';
import { createThreadedRulePolicy } from './bodies/threaded-moderation.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { createRulePolicy } from './domain/moderation/moderation-policy.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import { createPostgresWorker } from './jobs/postgres-worker.ts';
import { createLogger, type Logger } from './logger.ts';
import { openMigratedPostgres } from './migrate-logged.ts';
import { loadModerationRules } from './moderation-rules-file.ts';
import { InternalError } from './internal-error.ts';

/** A running worker. */
export interface RunningJobWorker {
  /** The job kinds it takes. */
  readonly kinds: readonly string[];
  /** Stops taking jobs, finishes the running one, and closes its connections and threads. */
  stop(): Promise<void>;
}

/**
 * Starts a worker on `config.databaseUrl`.
 * @throws {InternalError} INVARIANT_BROKEN without a Postgres database (the SQLite file's jobs run in the server).
 */
export async function startJobWorker(config: Config, options: { log?: Logger; clock?: Clock } = {}): Promise<RunningJobWorker> {
  if (!config.databaseUrl) throw new InternalError('INVARIANT_BROKEN', 'npm run worker needs PRESSROOM_DATABASE_URL: on the SQLite file the server runs every job itself.');
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const rules = loadModerationRules(config.moderationFile);
  const db = await openMigratedPostgres(config.databaseUrl, log);
  const bodies = config.bodyWorkers > 0 ? createBodyPool({ threads: config.bodyWorkers, timeLimitMs: config.bodyTimeLimitMs, lazy: true, queuedPerOwner: config.bodyQueuePerAccount }) : null;
  const policy = bodies ? createThreadedRulePolicy(rules, bodies) : createRulePolicy(rules);
  // No media kit and no build: those jobs are the server's.
  const handlers = createJobHandlers({ db, clock, policy, log: log.child('jobs') });
  const worker = createPostgresWorker({ db, clock, log: log.child('jobs') }, handlers);
  await worker.recover();
  worker.start();
  return {
    kinds: Object.keys(handlers),
    async stop() {
      await worker.stop();
      await bodies?.close();
      await db.destroy();
    },
  };
}
