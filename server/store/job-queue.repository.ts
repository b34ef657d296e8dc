/**
 * The queue operations on `jobs`: claim, finish, retry, park. Claiming is one
 * UPDATE … RETURNING, so two workers never take the same job. On Postgres the
 * queue is graphile-worker's (`postgres/postgres-jobs.ts`): its runner claims
 * and finishes jobs; only the admin's counts and retry come here.
 * @module
 */
import { sql } from 'kysely';
import { storeKind, type Executor } from './database.ts';
import type { JobRow } from './job.table.ts';
import { countQueueJobs, requeueQueueJob } from './postgres/postgres-jobs.ts';

/**
 * Claims the oldest due job: pending with `run_at <= now`, or running with an
 * expired lock (its worker died). Locks it until `lockUntil`.
 *
 * The condition is asked again of the row being updated: on Postgres two
 * workers may pick the same id at once; the second waits for the first's
 * row lock, then finds the row claimed and takes nothing (SQLite runs one
 * write at a time, so there it is only asked twice).
 */
export async function claimDueJob(db: Executor, now: string, lockUntil: string): Promise<JobRow | undefined> {
  const row = await sql<JobRow>`
    UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = ${lockUntil}, updated_at = ${now}
    WHERE id = (
      SELECT id FROM jobs
      WHERE (state = 'pending' AND run_at <= ${now}) OR (state = 'running' AND locked_until <= ${now})
      ORDER BY run_at, id LIMIT 1
    )
    AND ((state = 'pending' AND run_at <= ${now}) OR (state = 'running' AND locked_until <= ${now}))
    RETURNING *`.execute(db);
  return row.rows[0];
}

/** Marks a job done. */
export async function completeJob(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'done', locked_until: null, last_error: null, updated_at: now }).where('id', '=', id).execute();
}

/** Puts a failed job back for a later try. */
export async function retryJob(db: Executor, id: number, now: string, runAt: string, error: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'pending', run_at: runAt, locked_until: null, last_error: error, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Parks a job that failed too often; it stays visible with its error. */
export async function parkJob(db: Executor, id: number, now: string, error: string): Promise<void> {
  await db.updateTable('jobs').set({ state: 'parked', locked_until: null, last_error: error, updated_at: now }).where('id', '=', id).execute();
}

/** Puts a parked job back in the queue, to run now. */
export async function requeueJob(db: Executor, id: number, now: string): Promise<number> {
  if (storeKind(db) === 'postgres') return requeueQueueJob(db, id, now);
  const result = await db
    .updateTable('jobs')
    .set({ state: 'pending', attempts: 0, run_at: now, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'parked')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The earliest `run_at` of a pending job, to know when to wake. */
export async function nextRunAt(db: Executor): Promise<string | undefined> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.min('run_at').as('next'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return row?.next ?? undefined;
}

/** Counts of jobs by state. */
export async function countJobsByState(db: Executor): Promise<Record<JobRow['state'], number>> {
  if (storeKind(db) === 'postgres') return countQueueJobs(db);
  const rows = await db.selectFrom('jobs').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
  const counts = { pending: 0, running: 0, done: 0, parked: 0 };
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
}

/**
 * Puts every running job back to pending. Called at start-up: the service is
 * the only worker of its database, so a job still marked running belonged to
 * a process that died, and it need not wait for its lock to expire.
 * @returns how many jobs were released.
 */
export async function releaseRunningJobs(db: Executor, now: string): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'pending', locked_until: null, run_at: now, updated_at: now })
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
