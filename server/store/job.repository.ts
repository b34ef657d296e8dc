/**
 * The durable job queue's rows: the `jobs` table on SQLite, graphile-worker's
 * queue on Postgres (`postgres/postgres-jobs.ts`). The workers that run jobs
 * live in `server/jobs/`; this module only reads and writes rows.
 * @module
 */
import { storeKind, type Executor } from './database.ts';
import type { JobRow } from './job.table.ts';
import { addJob, hasActiveQueueJob, hasQueueJobUnderWay, hasWaitingQueueJob, listQueueJobs } from './postgres/postgres-jobs.ts';

export { BUILD_JOB } from './postgres/postgres-jobs.ts';

/** How often a job is tried before it is parked. */
export const JOB_MAX_ATTEMPTS = 5;

/** Adds a pending job, to run at `runAt` or later. Call inside the transaction that made it necessary. */
export async function insertJob(
  db: Executor,
  job: { kind: string; payload: unknown; runAt: string; now: string; maxAttempts?: number },
): Promise<{ id: number }> {
  const maxAttempts = job.maxAttempts ?? JOB_MAX_ATTEMPTS;
  if (storeKind(db) === 'postgres') return { id: await addJob(db, { kind: job.kind, payload: job.payload, runAt: job.runAt, maxAttempts }) };
  return db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      state: 'pending',
      run_at: job.runAt,
      max_attempts: maxAttempts,
      locked_until: null,
      last_error: null,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Jobs, newest first, optionally of one state. */
export async function listJobs(db: Executor, state?: JobRow['state'], limit = 100): Promise<JobRow[]> {
  if (storeKind(db) === 'postgres') return listQueueJobs(db, state, limit);
  let query = db.selectFrom('jobs').selectAll().orderBy('id', 'desc').limit(limit);
  if (state) query = query.where('state', '=', state);
  return query.execute();
}

/** Whether a pending job of `kind` with exactly this payload waits to run at `runAt`. */
export async function hasPendingJob(db: Executor, kind: string, payload: unknown, runAt: string): Promise<boolean> {
  if (storeKind(db) === 'postgres') return hasWaitingQueueJob(db, kind, payload, runAt);
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('state', '=', 'pending')
    .where('run_at', '=', runAt)
    .where('payload', '=', JSON.stringify(payload))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a job of one of `kinds` is running, or pending and due at `now`. */
export async function hasJobUnderWay(db: Executor, kinds: readonly string[], now: string): Promise<boolean> {
  if (storeKind(db) === 'postgres') return hasQueueJobUnderWay(db, kinds, now);
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', [...kinds])
    .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]), eb('state', '=', 'running')]))
    .limit(1)
    .executeTakeFirst();
  return job !== undefined;
}

/** Whether a job of `kind` is waiting or running, other than `exceptId` (a job re-enqueuing itself). */
export async function hasActiveJob(db: Executor, kind: string, exceptId?: number): Promise<boolean> {
  if (storeKind(db) === 'postgres') return hasActiveQueueJob(db, kind, exceptId);
  let query = db.selectFrom('jobs').select('id').where('kind', '=', kind).where('state', 'in', ['pending', 'running']);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}
