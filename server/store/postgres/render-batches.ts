/**
 * Build workers' batches (issue 38), Postgres only: a large build hands
 * batches of articles to `npm run worker` processes through the job queue.
 * A batch is a row of `render_batches` (what to render; once rendered, what
 * was written) and a graphile-worker job that names it, queued in one
 * statement, so a job never names a missing row but when the builder has
 * dropped it. The queue gives each job to one runner at a time and runs a
 * dead runner's job again elsewhere (`jobs/postgres-worker.ts`); the row
 * keeps whichever answer comes first, and none after the builder cancelled
 * it. Payloads and results are JSON the builder checks (`publish/workers/`):
 * this module does not read them.
 * @module
 */
import { sql } from 'kysely';
import type { Db } from '../database.ts';

/** The job kind of a batch: taken only by runners that render (`npm run worker` with build threads). */
export const RENDER_JOB = 'render_articles';

/** Attempts of a batch's job (a failed render is an answer, not a failure: these are for the database's errors). */
const RENDER_JOB_ATTEMPTS = 5;

const jobKey = (id: number) => `render-batch-${id}`;

/** A batch as the builder reads it back. */
export interface RenderBatchOutcome {
  readonly id: number;
  /** What the worker answered, or null while none has. */
  readonly results: unknown;
  readonly error: string | null;
  /** The runner that took it last (null while queued). */
  readonly takenBy: string | null;
}

/** Queues a batch of `pool` (the builder's run) for the build workers; returns its id. */
export async function queueRenderBatch(db: Db, pool: string, payload: unknown): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    with batch as (insert into render_batches (pool, payload) values (${pool}, ${JSON.stringify(payload)}::jsonb) returning id)
    select batch.id, graphile_worker.add_job(${RENDER_JOB}, json_build_object('batch', batch.id), max_attempts => ${RENDER_JOB_ATTEMPTS}, job_key => 'render-batch-' || batch.id) from batch`.execute(db);
  return Number(rows[0]!.id);
}

/** Takes batch `id` for runner `by`: its payload, or null when it was cancelled, dropped or already answered. */
export async function takeRenderBatch(db: Db, id: number, by: string): Promise<unknown> {
  const { rows } = await sql<{ payload: unknown }>`
    update render_batches set taken_by = ${by}
    where id = ${id} and not cancelled and results is null and error is null
    returning payload`.execute(db);
  return rows[0]?.payload ?? null;
}

/** Records a worker's answer; false when the batch was cancelled, dropped or answered meanwhile. */
export async function answerRenderBatch(db: Db, id: number, answer: { results: unknown } | { error: string }): Promise<boolean> {
  const results = 'results' in answer ? JSON.stringify(answer.results) : null;
  const error = 'error' in answer ? answer.error : null;
  const { rows } = await sql<{ id: string }>`
    update render_batches set results = ${results}::jsonb, error = ${error}
    where id = ${id} and not cancelled and results is null and error is null
    returning id`.execute(db);
  return rows.length > 0;
}

/** The batches of `ids` that were answered. */
export async function answeredRenderBatches(db: Db, ids: readonly number[]): Promise<RenderBatchOutcome[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: string; results: unknown; error: string | null; taken_by: string | null }>`
    select id, results, error, taken_by from render_batches
    where id = any(${ids.map(String)}::bigint[]) and (results is not null or error is not null)`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), results: r.results, error: r.error, takenBy: r.taken_by }));
}

/**
 * Takes batch `id` back from the workers: true when it was not answered (the
 * builder renders it itself; an answer that comes later is refused), false
 * when an answer is there to read.
 */
export async function cancelRenderBatch(db: Db, id: number): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update render_batches set cancelled = true
    where id = ${id} and results is null and error is null
    returning id`.execute(db);
  if (rows.length === 0) return false;
  await sql`select graphile_worker.remove_job(${jobKey(id)})`.execute(db);
  return true;
}

/**
 * Drops the batches of `pool` and their jobs still waiting (the builder's run
 * is over), and the jobs left of batches that are gone: a job a dead runner
 * held when its batch was cancelled stays in the queue, its attempts used up.
 */
export async function dropRenderBatches(db: Db, pool: string): Promise<void> {
  await sql`select graphile_worker.remove_job('render-batch-' || id) from render_batches where pool = ${pool}`.execute(db);
  await sql`delete from render_batches where pool = ${pool}`.execute(db);
  await sql`
    delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
    where j.task_id = t.id and t.identifier = ${RENDER_JOB} and j.locked_at is null
      and not exists (select 1 from render_batches b where b.id = (j.payload->>'batch')::bigint)`.execute(db);
}

/** Drops the batches of runs that ended without doing so (a builder killed mid-build), older than `minutes`. */
export async function dropStaleRenderBatches(db: Db, minutes: number): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    delete from render_batches where created_at < now() - make_interval(mins => ${minutes}) returning id`.execute(db);
  if (rows.length > 0) await sql`select graphile_worker.remove_job('render-batch-' || id) from unnest(${rows.map((r) => r.id)}::bigint[]) as id`.execute(db);
  return rows.length;
}

const RENDER_RUNNER = 'pressroom-render-';

/**
 * The id of a runner that renders batches, one at a time. Its liveness
 * connection carries it in `application_name` (`holdRunnerLiveness`), which is
 * how builders count the live ones (`liveRenderLanes`).
 */
export function renderRunnerId(pid: number, suffix: string): string {
  return `${RENDER_RUNNER}${pid}-${suffix}`;
}

/** The batches the live render runners take at once, in all (one each): 0 when none runs. */
export async function liveRenderLanes(db: Db): Promise<number> {
  const { rows } = await sql<{ runners: number }>`
    select count(*)::int as runners from pg_stat_activity
    where datname = current_database() and application_name like ${`pressroom runner ${RENDER_RUNNER}%`}`.execute(db);
  return rows[0]?.runners ?? 0;
}
