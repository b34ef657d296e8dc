/**
 * The durable job queue on Postgres: graphile-worker's tables (issue 38).
 * The repositories' job operations (`job.repository.ts`,
 * `job-queue.repository.ts`) come here when the store is Postgres, so the
 * domain queues a job the same way on both stores: inside the transaction
 * that made it necessary (`graphile_worker.add_job`, whose insert trigger
 * notifies the runners when that transaction commits).
 *
 * graphile-worker's runner (`graphile-queue.ts`) takes due jobs by its own
 * rules; this module reads the queue for `admin jobs` and the few questions
 * the services ask (is a schedule job waiting, is moderation under way), and
 * runs jobs by the service's clock for `Worker.runDue()` (tests move that
 * clock; the runner reads the real one). Reading `_private_jobs` (the view
 * `graphile_worker.jobs` has no payload) ties this module to graphile-worker's
 * schema: the package is pinned to an exact version for that reason.
 *
 * What differs from the SQLite queue: a finished job is deleted, not kept
 * as `done`; a job that failed its last attempt stays, with its error, and
 * is shown as `parked`; retries wait e^attempts seconds (graphile-worker's
 * rule) rather than doubling from one second.
 * @module
 */
import { sql } from 'kysely';
import type { Db, Executor } from '../database.ts';
import { RUNNER_LIVENESS_KEY } from './postgres-database.ts';
import type { JobRow } from '../job.table.ts';

/** A job as the queue's questions see it. */
interface QueueRow {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

// The schema graphile-worker's migrations create (its default name, `graphile-queue.ts` keeps it).
const JOBS = sql`graphile_worker._private_jobs`;
const TASKS = sql`graphile_worker._private_tasks`;

/** Queues a job, in the caller's transaction. */
export async function addJob(db: Executor, job: { kind: string; payload: unknown; runAt: string; maxAttempts: number }): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    select (graphile_worker.add_job(${job.kind}, ${JSON.stringify(job.payload)}::json, run_at => ${job.runAt}::timestamptz, max_attempts => ${job.maxAttempts})).id`.execute(db);
  return Number(rows[0]!.id);
}

/**
 * Queues a job of the SQLite queue as it stood (`copy-to-postgres.ts`): its
 * attempts and last error kept, a running one (its process stopped) to run
 * again, a parked one parked.
 */
export async function importQueueJob(db: Executor, job: JobRow): Promise<void> {
  const id = await addJob(db, { kind: job.kind, payload: JSON.parse(job.payload) as unknown, runAt: job.run_at, maxAttempts: job.max_attempts });
  const attempts = job.state === 'parked' ? job.max_attempts : Math.min(job.attempts, job.max_attempts - 1);
  await sql`update ${JOBS} j set attempts = ${attempts}, last_error = ${job.last_error} where j.id = ${id}`.execute(db);
}

/** The job that asks for a build of the outbox's unbuilt events (Postgres only; on SQLite the build queue polls). */
export const BUILD_JOB = 'build_site';

/**
 * Asks for a build, in the transaction that wrote an event to the outbox. The
 * builds' jobs share one named queue, so one runs at a time; and one key, so
 * a burst of changes adds to the one job still waiting (its time kept)
 * rather than queuing one build each: at most one build runs and one waits.
 */
export async function queueBuild(db: Executor): Promise<void> {
  await sql`select graphile_worker.add_job(${BUILD_JOB}, '{}'::json, queue_name => ${BUILD_JOB}, job_key => ${BUILD_JOB}, job_key_mode => 'preserve_run_at')`.execute(db);
}

/** The state the SQLite queue would name: running while locked, parked after its last attempt, else pending. */
function stateOf(row: QueueRow): JobRow['state'] {
  if (row.locked_at !== null) return 'running';
  return row.attempts >= row.max_attempts ? 'parked' : 'pending';
}

function toJobRow(row: QueueRow): JobRow {
  return {
    id: Number(row.id),
    kind: row.kind,
    payload: JSON.stringify(row.payload),
    state: stateOf(row),
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    run_at: row.run_at.toISOString(),
    locked_until: null,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const STATE = sql`case when j.locked_at is not null then 'running' when j.attempts >= j.max_attempts then 'parked' else 'pending' end`;

/** Jobs, newest first, optionally of one state. Finished jobs are not kept, so `done` lists none. */
export async function listQueueJobs(db: Executor, state: JobRow['state'] | undefined, limit: number): Promise<JobRow[]> {
  if (state === 'done') return [];
  const { rows } = await sql<QueueRow>`
    select j.id, t.identifier as kind, j.payload, j.attempts, j.max_attempts, j.run_at, j.locked_at, j.last_error, j.created_at, j.updated_at
    from ${JOBS} j join ${TASKS} t on t.id = j.task_id
    where ${state === undefined ? sql`true` : sql`${STATE} = ${state}`}
    order by j.id desc limit ${limit}`.execute(db);
  return rows.map(toJobRow);
}

/** Counts of jobs by state (`done` is always 0: finished jobs are deleted). */
export async function countQueueJobs(db: Executor): Promise<Record<JobRow['state'], number>> {
  const { rows } = await sql<{ state: JobRow['state']; n: number }>`select ${STATE} as state, count(*) as n from ${JOBS} j group by 1`.execute(db);
  const counts = { pending: 0, running: 0, done: 0, parked: 0 };
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}

/** Puts a parked job back in the queue, to run now. @returns 1, or 0 when no parked job has that id. */
export async function requeueQueueJob(db: Executor, id: number, now: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    update ${JOBS} j set attempts = 0, run_at = ${now}::timestamptz, updated_at = now()
    where j.id = ${id} and j.locked_at is null and j.attempts >= j.max_attempts
    returning j.id`.execute(db);
  return rows.length;
}

/** Whether a job of `kind` with exactly this payload waits, not yet taken, to run at `runAt`. */
export async function hasWaitingQueueJob(db: Executor, kind: string, payload: unknown, runAt: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from ${JOBS} j join ${TASKS} t on t.id = j.task_id
    where t.identifier = ${kind} and j.is_available and j.run_at = ${runAt}::timestamptz and j.payload::jsonb = ${JSON.stringify(payload)}::jsonb
    limit 1`.execute(db);
  return rows.length > 0;
}

/** Whether a job of one of `kinds` is running, or waiting and due at `now`. */
export async function hasQueueJobUnderWay(db: Executor, kinds: readonly string[], now: string): Promise<boolean> {
  if (kinds.length === 0) return false;
  const { rows } = await sql`
    select 1 from ${JOBS} j join ${TASKS} t on t.id = j.task_id
    where t.identifier in (${sql.join([...kinds])})
    and (j.locked_at is not null or (j.is_available and j.run_at <= ${now}::timestamptz))
    limit 1`.execute(db);
  return rows.length > 0;
}

/** Whether a job of `kind` is waiting or running, other than `exceptId` (a job queuing its own next run). */
export async function hasActiveQueueJob(db: Executor, kind: string, exceptId?: number): Promise<boolean> {
  const { rows } = await sql`
    select 1 from ${JOBS} j join ${TASKS} t on t.id = j.task_id
    where t.identifier = ${kind} and (j.locked_at is not null or j.is_available)
    ${exceptId === undefined ? sql`` : sql`and j.id <> ${exceptId}`}
    limit 1`.execute(db);
  return rows.length > 0;
}

/** A job taken by {@link takeDueQueueJob}. */
export interface TakenJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/**
 * Takes the oldest job of `kinds` due by the service's clock (`now`), locked
 * for `workerId` as graphile-worker's runner locks one, and skipping rows
 * another transaction holds. For `Worker.runDue()`.
 */
export async function takeDueQueueJob(db: Executor, kinds: readonly string[], now: string, workerId: string): Promise<TakenJob | undefined> {
  if (kinds.length === 0) return undefined;
  const { rows } = await sql<TakenJob>`
    with due as (
      select j.id, t.identifier as kind from ${JOBS} j join ${TASKS} t on t.id = j.task_id
      where j.is_available and j.job_queue_id is null and j.run_at <= ${now}::timestamptz and t.identifier in (${sql.join([...kinds])})
      order by j.priority, j.run_at, j.id limit 1
      for update of j skip locked
    )
    update ${JOBS} j set locked_at = now(), locked_by = ${workerId}, attempts = j.attempts + 1, updated_at = now()
    from due where j.id = due.id
    returning j.id, due.kind, j.payload, j.attempts, j.max_attempts`.execute(db);
  const row = rows[0];
  return row && { ...row, id: Number(row.id) };
}

/** Deletes a job its worker finished. */
export async function finishQueueJob(db: Executor, id: number, workerId: string): Promise<void> {
  await sql`delete from ${JOBS} j where j.id = ${id} and j.locked_by = ${workerId}`.execute(db);
}

/** Releases a failed job with its error, to run again at `retryAt` (after its last attempt it stays, parked). */
export async function failQueueJob(db: Executor, id: number, workerId: string, error: string, retryAt: string): Promise<void> {
  await sql`
    update ${JOBS} j set last_error = ${error}, run_at = ${retryAt}::timestamptz, locked_at = null, locked_by = null, updated_at = now()
    where j.id = ${id} and j.locked_by = ${workerId}`.execute(db);
}

/**
 * Releases the jobs (and queues) held by runners whose process is gone: a
 * runner holds its liveness lock while it lives (`holdRunnerLiveness`), so a
 * holder whose lock this transaction can take is dead. graphile-worker's own
 * `force_unlock_workers` releases them; left alone, they would wait the 4
 * hours after which it resets any lock.
 * @returns how many jobs were released.
 */
export async function releaseDeadRunnersJobs(db: Db): Promise<number> {
  // Most of the time no job is running: one read, no transaction, no lock.
  const held = await sql<{ locked_by: string }>`select 1 as locked_by from ${JOBS} j where j.locked_by is not null limit 1`.execute(db);
  if (held.rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked_by: string; jobs: number }>`
      select j.locked_by, count(*) as jobs from ${JOBS} j where j.locked_by is not null group by j.locked_by`.execute(trx);
    const dead: string[] = [];
    let jobs = 0;
    for (const holder of rows) {
      // Taken, it is released when this transaction ends.
      const { rows: taken } = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${RUNNER_LIVENESS_KEY}, hashtext(${holder.locked_by})) as free`.execute(trx);
      if (!taken[0]?.free) continue;
      dead.push(holder.locked_by);
      jobs += Number(holder.jobs);
    }
    if (dead.length > 0) await sql`select graphile_worker.force_unlock_workers(${dead}::text[])`.execute(trx);
    return jobs;
  });
}
