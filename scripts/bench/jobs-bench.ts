/**
 * Benchmark of the durable job queue on both stores (issue 38): the `jobs`
 * table and its worker on SQLite, graphile-worker on Postgres (a throwaway
 * cluster of Debian's postgresql).
 * - **pickup**: a job committed → its handler starts, p50/p95, one job at a
 *   time. On SQLite the service wakes its worker after each request
 *   (`app.ts`), as here; on Postgres the runner hears the commit (NOTIFY).
 * - **late**: a job queued for a time to come (a scheduled article) → its
 *   handler starts, after that time, p50/p95; no write wakes the worker.
 * - **recovery**: a process holding a job is killed with SIGKILL → the job
 *   runs in the next worker (`recover()`, then `start()`), as at a restart;
 *   the restart's own boot is not counted.
 *
 * Run directly: `npx tsx scripts/bench/jobs-bench.ts --loops 200`.
 * @module
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../server/clock.ts';
import { createPostgresWorker } from '../../server/jobs/postgres-worker.ts';
import { createWorker, type JobHandler, type Worker } from '../../server/jobs/worker.ts';
import { createLogger } from '../../server/logger.ts';
import { migrateToLatest, openDatabase, storeKind, type Db } from '../../server/store/database.ts';
import { insertJob } from '../../server/store/job.repository.ts';
import { startPostgres, type PostgresCluster } from '../../test/helpers/postgres-cluster.ts';
import type { BenchFigure } from './run-measurement.ts';

const log = createLogger('silent');
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1]! : fallback;
};

function makeWorker(db: Db, handlers: Record<string, JobHandler>): Worker {
  return storeKind(db) === 'postgres' ? createPostgresWorker({ db, clock: systemClock, log }, handlers) : createWorker({ db, clock: systemClock, log }, handlers);
}

const now = () => new Date().toISOString();
const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
};

/** Resolves when `done()` holds, looking every millisecond. */
async function until(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function pickup(db: Db, loops: number): Promise<number[]> {
  let started = 0;
  const worker = makeWorker(db, { ping: async () => void (started = performance.now()) });
  await worker.recover();
  worker.start();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < loops; i++) {
      started = 0;
      const t0 = performance.now();
      await db.transaction().execute((trx) => insertJob(trx, { kind: 'ping', payload: { i }, runAt: now(), now: now() }));
      worker.wake();
      await until(() => started > 0, 'the job to start');
      latencies.push(started - t0);
    }
  } finally {
    await worker.stop();
  }
  return latencies;
}

async function late(db: Db, jobs: number): Promise<number[]> {
  const lateness: number[] = [];
  const worker = makeWorker(db, { at: async (payload) => void lateness.push(Date.now() - (payload as { due: number }).due) });
  worker.start();
  try {
    const base = Date.now() + 1500;
    for (let i = 0; i < jobs; i++) {
      const due = base + i * 150;
      await insertJob(db, { kind: 'at', payload: { due }, runAt: new Date(due).toISOString(), now: now() });
    }
    await until(() => lateness.length === jobs, 'every job queued for later to run', 120_000);
  } finally {
    await worker.stop();
  }
  return lateness;
}

/** Starts this script in `--hold` mode: a worker that takes the job and never finishes it. Resolves once it holds it. */
function holdingProcess(database: string): Promise<{ kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--hold', database], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('holding')) return;
      resolve({
        kill: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`the holding process exited with ${code}`)));
  });
}

async function recovery(db: Db, database: string, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await insertJob(db, { kind: 'held', payload: { round }, runAt: now(), now: now() });
    const holder = await holdingProcess(database);
    await holder.kill();
    const killed = performance.now();
    let ran = 0;
    const worker = makeWorker(db, { held: async () => void (ran = performance.now()) });
    await worker.recover();
    worker.start();
    await until(() => ran > 0, 'the killed process\'s job to run again');
    times.push(ran - killed);
    await worker.stop();
  }
  return times;
}

async function hold(database: string): Promise<void> {
  const db = openDatabase(database);
  const worker = makeWorker(db, {
    held: () => {
      process.stdout.write('holding\n');
      return new Promise<void>(() => undefined);
    },
  });
  worker.start();
}

async function main(): Promise<void> {
  if (process.argv.includes('--hold')) return hold(arg('hold', ''));
  const loops = Math.max(5, Math.min(Number(arg('loops', '200')), 500));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-jobs-bench-'));
  let cluster: PostgresCluster | undefined;
  const figures: BenchFigure[] = [];
  try {
    cluster = await startPostgres();
    for (const [store, database] of [['sqlite', path.join(dir, 'jobs.db')], ['postgres', await cluster.createDatabase()]] as const) {
      const db = openDatabase(database);
      try {
        await migrateToLatest(db);
        const figure = (name: string, ms: number): BenchFigure => ({ name: `jobs ${store}: ${name}`, wallMs: ms, cpuMs: 0, peakRssMb: Math.round(process.memoryUsage().rss / 2 ** 20) });
        const picked = await pickup(db, loops);
        const behind = await late(db, Math.min(loops, 20));
        const recovered = await recovery(db, database, 3);
        figures.push(
          figure(`committed → handler p50 (${loops} jobs)`, percentile(picked, 50)),
          figure(`committed → handler p95 (${loops} jobs)`, percentile(picked, 95)),
          figure(`due → handler p50 (${behind.length} jobs queued for later)`, percentile(behind, 50)),
          figure(`due → handler p95 (${behind.length} jobs queued for later)`, percentile(behind, 95)),
          figure('killed holder → job runs in the next worker, median of 3', percentile(recovered, 50)),
        );
      } finally {
        await db.destroy();
      }
    }
  } finally {
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

await main();
