import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { insertJob } from '../store/job.repository.ts';
import { claimDueJob, countJobsByState } from '../store/job-queue.repository.ts';
import { createWorker, type JobHandler } from './worker.ts';
import { pollUntil } from '../../test/helpers/poll.ts';

let dir: string;
let db: Db;
const clock = manualClock('2026-11-22T12:00:00.000Z');
const log = createLogger('silent');
const now = () => clock.now().toISOString();

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-worker-'));
  db = openDatabase(path.join(dir, 'test.db'));
  await migrateToLatest(db);
  clock.set('2026-11-22T12:00:00.000Z');
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const job = (kind: string, payload: unknown = {}, runAt = now(), maxAttempts?: number) =>
  insertJob(db, { kind, payload, runAt, now: now(), maxAttempts });

describe('worker', () => {
  it('runs due jobs in order and leaves future ones', async () => {
    const seen: unknown[] = [];
    const worker = createWorker({ db, clock, log }, { note: async (p) => void seen.push(p) });
    await job('note', { n: 1 });
    await job('note', { n: 2 });
    await job('note', { n: 3 }, '2026-11-22T13:00:00.000Z');
    expect(await worker.runDue()).toBe(2);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    clock.advance(3_600_000);
    expect(await worker.runDue()).toBe(1);
    expect(await countJobsByState(db)).toMatchObject({ done: 3, pending: 0 });
  });

  it('retries a failing job with exponential backoff, then parks it with its error', async () => {
    let calls = 0;
    const failing: JobHandler = async () => {
      calls++;
      throw new Error('store unreachable');
    };
    const worker = createWorker({ db, clock, log }, { flaky: failing }, { backoffMs: 1000 });
    const { id } = await job('flaky', {}, now(), 3);
    await worker.runDue();
    expect(calls).toBe(1);
    clock.advance(999);
    await worker.runDue();
    expect(calls).toBe(1); // backoff 1 s not over yet
    clock.advance(1);
    await worker.runDue();
    expect(calls).toBe(2);
    clock.advance(2000); // second backoff: 2 s
    await worker.runDue();
    expect(calls).toBe(3);
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'parked', attempts: 3 });
    expect(row.last_error).toContain('store unreachable');
    clock.advance(3_600_000);
    await worker.runDue();
    expect(calls).toBe(3); // parked jobs are never run again by themselves
  });

  it('parks a job of an unknown kind instead of dropping it', async () => {
    const worker = createWorker({ db, clock, log }, {});
    await job('mystery', {}, now(), 1);
    await worker.runDue();
    const row = await db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(row.state).toBe('parked');
    expect(row.last_error).toContain('No handler for job kind "mystery"');
  });

  it("reclaims a crashed worker's job once its lock expires", async () => {
    await job('note');
    // A worker claims the job and dies without finishing it.
    const claimed = await claimDueJob(db, now(), new Date(clock.now().getTime() + 60_000).toISOString());
    expect(claimed?.state).toBe('running');
    const seen: number[] = [];
    const worker = createWorker({ db, clock, log }, { note: async () => void seen.push(1) });
    expect(await worker.runDue()).toBe(0); // still locked
    clock.advance(60_000);
    expect(await worker.runDue()).toBe(1);
    expect(seen).toEqual([1]);
  });

  it('runs jobs queued while it sleeps when woken', async () => {
    const seen: number[] = [];
    const worker = createWorker({ db, clock, log }, { note: async () => void seen.push(1) }, { idleMs: 60_000 });
    worker.start();
    await job('note');
    worker.wake();
    await pollUntil(() => seen.length, (n) => n > 0, { what: 'the woken worker to run the job' });
    await worker.stop();
    expect(seen).toEqual([1]);
  });
});

describe('recovery at start-up', () => {
  it('puts jobs left running by a dead process back in the queue at once', async () => {
    await job('note');
    await claimDueJob(db, now(), new Date(clock.now().getTime() + 60_000).toISOString());
    const seen: number[] = [];
    const worker = createWorker({ db, clock, log }, { note: async () => void seen.push(1) });
    expect(await worker.recover()).toBe(1);
    expect(await worker.runDue()).toBe(1);
    expect(seen).toEqual([1]);
  });
});
