/**
 * `npm run worker` (issue 38): a process that runs the job queue's jobs of
 * a Postgres database beside the server, on a machine of its own or the
 * same one: moderation (the rule policy on its own body threads, under the
 * same time limit), scheduled publications, and, with build threads
 * (`PRESSROOM_BUILD_WORKERS`), the batches of articles a large build hands
 * out (`publish/workers/batch-render-job.ts`, on runners of their own, one
 * batch each), written into the output folder it shares with the server. Planning builds, lists, the manifest and the media cleanup
 * stay with the server; any number of workers may run, graphile-worker
 * gives each job to one of them, and a killed worker's job runs again
 * within seconds in another (`jobs/postgres-worker.ts`). The composition
 * root of that role, as `main.ts` is the server's.
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
import { PROJECT_ROOT } from './paths.ts';
import { createBatchRenderer } from './publish/workers/batch-render-job.ts';
import type { Worker } from './jobs/worker.ts';
import { RENDER_JOB, renderRunnerId } from './store/postgres/render-batches.ts';

/** A running worker. */
export interface RunningJobWorker {
  /** The job kinds it takes. */
  readonly kinds: readonly string[];
  /** Stops taking jobs, finishes the running one, and closes its connections and threads. */
  stop(): Promise<void>;
}

/**
 * Starts a worker on `config.databaseUrl`.
 * @param options.onLost called after a render runner lost its database connection (its render threads are
 *   stopped first): `npm run worker` exits 1, as a server that loses its lock does.
 * @throws {InternalError} INVARIANT_BROKEN without a Postgres database (the SQLite file's jobs run in the server).
 */
export async function startJobWorker(config: Config, options: { log?: Logger; clock?: Clock; onLost?: () => void } = {}): Promise<RunningJobWorker> {
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
  // Build batches on runners of their own, one per lane (graphile-worker names a runner's workers itself when it
  // runs several jobs at once, and a dead runner's jobs are found by its name): a moderation job never waits
  // behind them.
  const renderer = config.buildWorkers > 0 ? await createBatchRenderer({ db, config, projectRoot: PROJECT_ROOT, log: log.child('builds') }) : null;
  const renders: Worker[] = [];
  if (renderer) {
    for (let lane = 0; lane < renderer.lanes; lane++) {
      let runnerId = '';
      renders.push(
        createPostgresWorker({ db, clock, log: log.child('builds') }, { [RENDER_JOB]: (payload) => renderer.handlerFor(runnerId)(payload) }, {
          workerId: (suffix) => (runnerId = renderRunnerId(process.pid, suffix)),
          // The process's job runner releases dead runners' jobs, render batches included.
          sweepMs: 0,
          // Its batch may now go to another worker or back to the builder: this one must write no more files.
          onLivenessLost: () => {
            log.error('a render runner lost its database connection: stopping the render threads and the worker, so it writes no file of a batch another now renders', { runner: runnerId });
            void renderer.close();
            options.onLost?.();
          },
        }),
      );
    }
  }
  await worker.recover();
  worker.start();
  for (const runner of renders) runner.start();
  return {
    kinds: [...Object.keys(handlers), ...(renderer ? [RENDER_JOB] : [])],
    async stop() {
      await Promise.all(renders.map((runner) => runner.stop()));
      await renderer?.close();
      await worker.stop();
      await bodies?.close();
      await db.destroy();
    },
  };
}
