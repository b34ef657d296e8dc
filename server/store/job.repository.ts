/**
 * The durable job queue's table. The worker that runs jobs lives in
 * `server/jobs/`; this module only reads and writes rows.
 * @module
 */
import type { Executor } from './database.ts';
import type { JobRow } from './job.table.ts';

/** Adds a pending job, to run at `runAt` or later. Call inside the transaction that made it necessary. */
export async function insertJob(
  db: Executor,
  job: { kind: string; payload: unknown; runAt: string; now: string; maxAttempts?: number },
): Promise<JobRow> {
  return db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      state: 'pending',
      run_at: job.runAt,
      max_attempts: job.maxAttempts ?? 5,
      locked_until: null,
      last_error: null,
      created_at: job.now,
      updated_at: job.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Jobs, newest first, optionally of one state. */
export async function listJobs(db: Executor, state?: JobRow['state'], limit = 100): Promise<JobRow[]> {
  let query = db.selectFrom('jobs').selectAll().orderBy('id', 'desc').limit(limit);
  if (state) query = query.where('state', '=', state);
  return query.execute();
}

/** Whether a pending job of `kind` with exactly this payload waits to run at `runAt`. */
export async function hasPendingJob(db: Executor, kind: string, payload: unknown, runAt: string): Promise<boolean> {
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
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', [...kinds])
    .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]), eb('state', '=', 'running')]))
    .limit(1)
    .executeTakeFirst();
  return job !== undefined;
}
