/**
 * The job queue of the Postgres store is graphile-worker's (issue 38, item
 * 2), behind the same repository calls and `Worker` controls as the SQLite
 * queue. A job is committed with the write that made it or not at all; the
 * runner takes it the moment that write commits (LISTEN/NOTIFY), retries a
 * failure and keeps it, parked, after its last attempt, where the admin's
 * retry puts it back; a job a killed runner held is released at the next
 * start, or by any running worker within seconds, while a live runner's job
 * is left alone; `runDue()` follows the service's clock. A change written to the
 * outbox asks for a build through the queue, and a burst of changes asks for
 * one build, not one each. The lifecycle, restart and
 * publishing suites run on this queue too (`npm run test:postgres`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../server/clock.ts';
import { createPostgresWorker } from '../../server/jobs/postgres-worker.ts';
import type { JobHandler, Worker } from '../../server/jobs/worker.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { BUILD_JOB, insertJob, listJobs } from '../../server/store/job.repository.ts';
import { insertPublicationEvent } from '../../server/store/publication-event.repository.ts';
import { countJobsByState, requeueJob } from '../../server/store/job-queue.repository.ts';
import { takeDueQueueJob } from '../../server/store/postgres/postgres-jobs.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';

let cluster: PostgresCluster;
const opened: Db[] = [];
const workers: Worker[] = [];
const log: Logger = createLogger('silent');
const iso = (date: Date = new Date()) => date.toISOString();
// The tests that start runners (and one a process of its own) wait on other processes: a loaded machine is slow to start them.

beforeAll(async () => {
  cluster = await sharedPostgres();
});
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  for (const db of opened) await db.destroy();
});

async function migrated(): Promise<Db> {
  const db = openDatabase(await cluster.createDatabase());
  opened.push(db);
  await migrateToLatest(db);
  return db;
}

function worker(db: Db, handlers: Record<string, JobHandler>, clock = systemClock): Worker {
  const made = createPostgresWorker({ db, clock, log }, handlers, { pollMs: 200, sweepMs: 200 });
  workers.push(made);
  return made;
}

describe('the Postgres job queue', () => {
  it('commits a job with the write that made it, or neither', async () => {
    const db = await migrated();
    const now = iso();
    await expect(
      db.transaction().execute(async (trx) => {
        await insertJob(trx, { kind: 'note', payload: { n: 1 }, runAt: now, now });
        throw new Error('the write failed after queuing its job');
      }),
    ).rejects.toThrow('the write failed');
    expect(await countJobsByState(db)).toEqual({ pending: 0, running: 0, done: 0, parked: 0 });

    await db.transaction().execute((trx) => insertJob(trx, { kind: 'note', payload: { n: 2 }, runAt: now, now }));
    const [job] = await listJobs(db);
    expect(job).toMatchObject({ kind: 'note', payload: '{"n":2}', state: 'pending', attempts: 0, max_attempts: 5, run_at: now });
  });

  it('runs a job the moment its write commits, retries a failure, parks it after the last attempt, and runs it again when retried', async () => {
    const db = await migrated();
    const seen: unknown[] = [];
    let failing = true;
    const running = worker(db, {
      note: async (payload) => void seen.push(payload),
      flaky: async () => {
        if (failing) throw new Error('the CDN refused the purge');
        seen.push('flaky ran');
      },
    });
    running.start();
    await db.transaction().execute((trx) => insertJob(trx, { kind: 'note', payload: { n: 1 }, runAt: iso(), now: iso() }));
    await pollUntil(() => seen.length, (n) => n === 1, { what: 'the runner to take the committed job' });
    expect(seen).toEqual([{ n: 1 }]);
    expect((await countJobsByState(db)).pending).toBe(0);

    // Two attempts: the second comes e^1 s after the first, then the job stays, parked, with its error.
    await insertJob(db, { kind: 'flaky', payload: {}, runAt: iso(), now: iso(), maxAttempts: 2 });
    await pollUntil(() => countJobsByState(db), (counts) => counts.parked === 1, { what: 'the failing job to be parked after two attempts' });
    const [parked] = await listJobs(db, 'parked');
    expect(parked).toMatchObject({ kind: 'flaky', state: 'parked', attempts: 2, max_attempts: 2 });
    expect(parked!.last_error).toContain('the CDN refused the purge');

    failing = false;
    expect(await requeueJob(db, parked!.id, iso())).toBe(1);
    expect(await requeueJob(db, parked!.id, iso())).toBe(0);
    await pollUntil(() => seen.length, (n) => n === 2, { what: 'the retried job to run' });
    expect(seen[1]).toBe('flaky ran');
    expect(await countJobsByState(db)).toEqual({ pending: 0, running: 0, done: 0, parked: 0 });
  }, 90_000);

  it('leaves a job queued for later until its time, with no write to wake it', async () => {
    const db = await migrated();
    const ran: number[] = [];
    const running = worker(db, { later: async () => void ran.push(Date.now()) });
    running.start();
    const at = Date.now() + 1500;
    await insertJob(db, { kind: 'later', payload: {}, runAt: iso(new Date(at)), now: iso() });
    await pollUntil(() => ran.length, (n) => n === 1, { what: 'the job queued for later to run' });
    expect(ran[0]).toBeGreaterThanOrEqual(at);
  }, 90_000);

  it('releases at start a job a killed process held, and runs it', async () => {
    const db = await migrated();
    await insertJob(db, { kind: 'note', payload: { n: 7 }, runAt: iso(), now: iso() });
    // A runner took it, then its process was killed: the row stays locked by a worker that no longer exists.
    expect(await takeDueQueueJob(db, ['note'], iso(), 'killed-worker')).toMatchObject({ kind: 'note', attempts: 1 });
    expect((await countJobsByState(db)).running).toBe(1);

    const seen: unknown[] = [];
    const next = worker(db, { note: async (payload) => void seen.push(payload) });
    expect(await next.recover()).toBe(1);
    expect(await countJobsByState(db)).toMatchObject({ pending: 1, running: 0 });
    expect(await next.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 7 }]);
  });

  it('asks for one build for a burst of changes: at most one build runs and one waits, whatever the burst\'s size', async () => {
    const db = await migrated();
    const change = () => db.transaction().execute((trx) => insertPublicationEvent(trx, { kind: 'channel_changed', channelId: 1, articleId: null, languages: ['en'], now: iso() }));
    const builds = async () => (await listJobs(db)).filter((j) => j.kind === BUILD_JOB).map((j) => j.state).sort();
    for (let i = 0; i < 20; i++) await change();
    expect(await builds()).toEqual(['pending']);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let ran = 0;
    const running = worker(db, {
      [BUILD_JOB]: async () => {
        ran++;
        if (ran === 1) await held;
      },
    });
    running.start();
    await pollUntil(builds, (states) => states.join() === 'running', { what: 'the runner to take the build' });
    // Changes while it builds: one more build waits, for all of them.
    for (let i = 0; i < 20; i++) await change();
    expect(await builds()).toEqual(['pending', 'running']);
    release();
    await pollUntil(builds, (states) => states.length === 0, { what: 'both builds to finish' });
    expect(ran).toBe(2);
  }, 90_000);

  it('leaves a live runner\'s job alone, and runs a killed process\'s job again within seconds', async () => {
    const url = await cluster.createDatabase();
    const db = openDatabase(url);
    opened.push(db);
    await migrateToLatest(db);
    // Another process takes the job and never finishes it, until it is killed.
    const script = `
      import { createPostgresWorker } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../server/jobs/postgres-worker.ts'))};
      import { openDatabase } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../server/store/database.ts'))};
      import { createLogger } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../server/logger.ts'))};
      const db = openDatabase(${JSON.stringify(url)});
      const worker = createPostgresWorker({ db, clock: { now: () => new Date() }, log: createLogger('silent') }, {
        slow: () => { process.stdout.write('holding\\n'); return new Promise(() => {}); },
      }, { pollMs: 200 });
      worker.start();`;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const holding = new Promise<void>((resolve) => holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve()));
    await insertJob(db, { kind: 'slow', payload: { n: 1 }, runAt: iso(), now: iso() });
    await holding;

    const ran: unknown[] = [];
    const next = worker(db, { slow: async (payload) => void ran.push(payload) });
    // The holder lives: its job is not released (the sweep a running worker repeats is this same call).
    expect(await next.recover()).toBe(0);
    expect((await countJobsByState(db)).running).toBe(1);
    next.start();

    await new Promise<void>((resolve) => {
      holder.once('exit', () => resolve());
      holder.kill('SIGKILL');
    });
    // No restart: the running worker's sweep finds the dead holder.
    await pollUntil(() => ran.length, (n) => n === 1, { what: 'the killed process\'s job to run in the live worker' });
    expect(ran).toEqual([{ n: 1 }]);
  }, 90_000);

  it('runs by the service\'s clock in runDue(): a job is due when that clock says so', async () => {
    const db = await migrated();
    const clock = manualClock('2026-11-22T12:00:00.000Z');
    const seen: string[] = [];
    const byClock = worker(db, { tick: async () => void seen.push(iso(clock.now())) }, clock);
    await insertJob(db, { kind: 'tick', payload: {}, runAt: '2026-11-22T13:00:00.000Z', now: iso(clock.now()) });
    expect(await byClock.runDue()).toBe(0);
    clock.advance(60 * 60 * 1000);
    expect(await byClock.runDue()).toBe(1);
    expect(seen).toEqual(['2026-11-22T13:00:00.000Z']);
  });
});
