/**
 * `npm run worker` (issue 38): processes that run a Postgres database's
 * moderation and schedule jobs beside the server. Two workers, one of them
 * killed with SIGKILL in the middle, moderate a backlog of submissions the
 * server queued: every article is published exactly once, and the build
 * and media cleanup jobs are left for the server. A worker stops on SIGTERM after its running
 * job; on the SQLite file, or a database it cannot reach, it is refused
 * with what to do.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { BUILD_JOB, listJobs } from '../../server/store/job.repository.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { publications } from '../helpers/fresh-build.ts';
import { killProcess, runCommand, serviceEnv, startWorkerProcess, type WorkerProcess } from '../helpers/service-process.ts';
import { startTestService } from '../helpers/test-service.ts';

const root = path.resolve(import.meta.dirname, '../..');
let cluster: PostgresCluster;
let dir: string;
const processes: ChildProcess[] = [];
const opened: Db[] = [];

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-worker-'));
});
afterAll(async () => {
  await Promise.all(processes.map(killProcess));
  for (const db of opened) await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `npm run worker`, its process killed after the file's tests if still running. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const worker = await startWorkerProcess(env);
  processes.push(worker.child);
  return worker;
}

describe('npm run worker', () => {
  it('moderates the server\'s backlog in two processes, one killed, publishing each article once and leaving builds to the server', async () => {
    const url = await cluster.createDatabase();
    // The server queues the jobs and does not run them (its worker is off), then stops: the backlog is the workers'.
    const server = await startTestService({ PRESSROOM_DATABASE_URL: url }, { startWorker: false });
    const key = await server.key('desk', 'pro');
    expect((await server.request('POST', '/api/v1/channels', { key, body: { slug: 'wire', default_language: 'en', translations: [{ language: 'en', title: 'Wire' }] } })).status).toBe(201);
    for (let i = 0; i < 30; i++) {
      const written = await server.request('POST', '/api/v1/channels/wire/pages', {
        key,
        body: { slug: `item-${i}`, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Item ${i}`, content_markdown: `Wire item ${i}.` }] },
      });
      expect(written.status, written.text).toBe(201);
    }
    await server.stop();
    const db = openDatabase(url);
    opened.push(db);
    expect((await listJobs(db)).filter((j) => j.kind === 'moderate_revision')).toHaveLength(30);

    const env = serviceEnv(path.join(dir, 'workers'), { PRESSROOM_DATABASE_URL: url, PRESSROOM_LOG_LEVEL: 'info' });
    const [first, second] = await Promise.all([startWorker(env), startWorker(env)]);
    expect(first.stdout()).toContain('moderate_revision');
    expect(first.stdout()).not.toContain(BUILD_JOB);
    // Killed once it has moderated something: whatever it held runs again in the other one.
    await pollUntil(() => first.stderr(), (log) => log.includes('moderation revision='), { what: 'the first worker to moderate a submission' });
    await killProcess(first.child);
    const rows = await pollUntil(
      () => db.selectFrom('articles').select(['slug', 'status']).execute(),
      (r) => r.length === 30 && r.every((row) => row.status === 'published'),
      { what: 'every article to be published by the workers', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(rows).toHaveLength(30);
    // The builds the publications asked for, and the media cleanup, wait for the server. A job the killed worker
    // held after its article was published (its row not yet completed) is released and runs again, as a no-op.
    const jobs = await pollUntil(
      async () => (await listJobs(db)).map((j) => `${j.kind}:${j.state}`).sort(),
      (kinds) => kinds.every((k) => !k.startsWith('moderate_revision')),
      { what: 'the moderation jobs to be done', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(jobs).toEqual([`${BUILD_JOB}:pending`, 'media_cleanup:pending']);
    // Counted once every job is done: a job run twice would have shown here.
    expect(await publications(db)).toMatchObject({ articles: 30, eachOnce: true });

    const code = await new Promise<number | null>((resolve) => {
      second.child.once('exit', (c) => resolve(c));
      second.child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 120_000);

  it('says what it is for, and refuses the SQLite file and a database it cannot reach', async () => {
    const help = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts'), '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run worker');
    const refused = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts')], serviceEnv(path.join(dir, 'sqlite')));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('set PRESSROOM_DATABASE_URL');
    // A database that does not answer is named, without its password, with what to check.
    const unreachable = await runCommand(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts')], serviceEnv(path.join(dir, 'nowhere'), { PRESSROOM_DATABASE_URL: 'postgres://desk:secret@127.0.0.1:1/none' }));
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('Could not connect to the Postgres database postgres://desk:***@127.0.0.1:1/none');
    expect(unreachable.stderr).not.toContain('secret');
  }, 60_000);
});
