/**
 * Build workers (issue 38): `npm run worker` processes with build threads
 * render a full build's batches of articles for the builder, into the
 * output folder they share. Two workers take part in a cold `npm run build`
 * of 210 articles, one killed with SIGKILL while it holds a batch: the build
 * succeeds, the workers rendered part of it, and the output equals the same
 * build made on one machine, byte for byte. A worker cut from the database
 * stops. A worker refuses, with the reason, a batch for another output
 * folder or another release.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createBatchRenderer } from '../../server/publish/workers/batch-render-job.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { queueRenderBatch } from '../../server/store/postgres/render-batches.ts';
import { builtSiteFiles, freshFullBuild } from '../helpers/fresh-build.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { killProcess, npmRun, serviceEnv, startWorkerProcess, type WorkerProcess } from '../helpers/service-process.ts';
import { startTestService } from '../helpers/test-service.ts';

const ARTICLES = 210;
let cluster: PostgresCluster;
let dir: string;
const processes: ChildProcess[] = [];
const opened: Db[] = [];

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-build-workers-'));
});
afterAll(async () => {
  await Promise.all(processes.map(killProcess));
  for (const db of opened) await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function startWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const worker = await startWorkerProcess(env);
  processes.push(worker.child);
  return worker;
}

const openDb = (url: string) => {
  const db = openDatabase(url);
  opened.push(db);
  return db;
};

/** The same settings for every build of the test, on `into`'s folders. */
const buildEnv = (into: string, url: string, extra: Record<string, string> = {}) =>
  serviceEnv(into, { PRESSROOM_DATABASE_URL: url, PRESSROOM_PUBLIC_URL: 'http://pressroom.test', PRESSROOM_LOG_LEVEL: 'info', PRESSROOM_BUILD_WORKERS: '1', PRESSROOM_IMPORT_CONTENT: 'false', ...extra });

/** The paths whose bytes differ between two folders' files (present in one only, or other bytes). */
const differences = (a: Map<string, Buffer>, b: Map<string, Buffer>) => [...new Set([...a.keys(), ...b.keys()])].filter((p) => !a.get(p)?.equals(b.get(p) ?? Buffer.alloc(0)) || !b.has(p)).sort();

describe('build workers', () => {
  it('render part of a cold build into the shared folder, one killed holding a batch, and the output equals one machine\'s build', async () => {
    const url = await cluster.createDatabase();
    // The data: one channel, 210 published articles (a full build hands batches out from 200).
    const server = await startTestService({ PRESSROOM_DATABASE_URL: url });
    const key = await server.key('desk', 'pro');
    expect((await server.request('POST', '/api/v1/channels', { key, body: { slug: 'wire', default_language: 'en', translations: [{ language: 'en', title: 'Wire' }] } })).status).toBe(201);
    for (let i = 0; i < ARTICLES; i++) {
      const written = await server.request('POST', '/api/v1/channels/wire/pages', {
        key,
        body: { slug: `item-${i}`, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Item ${i}`, content_markdown: `Wire item ${i}, with [a link](https://example.com/${i}).` }] },
      });
      expect(written.status, written.text).toBe(201);
    }
    await server.service.worker.runDue();
    await server.stop();

    // One machine's build: no worker runs on that copy.
    const alone = await freshFullBuild(cluster, url, buildEnv(path.join(dir, 'alone'), url), path.join(dir, 'alone'));
    expect(alone.build.code, alone.build.stderr).toBe(0);
    const expected = builtSiteFiles(alone.dist);
    expect([...expected.keys()].filter((p) => /^wire\/en\/item-\d+\.html$/.test(p))).toHaveLength(ARTICLES);

    // The same build with two workers on the shared folder.
    const copy = await cluster.copyDatabase(url);
    const db = openDb(copy);
    await db.deleteFrom('output_files').execute();
    await db.deleteFrom('built_translations').execute();
    const shared = path.join(dir, 'shared');
    const workerEnv = buildEnv(path.join(dir, 'worker'), copy, { PRESSROOM_OUTPUT_DIR: path.join(shared, 'dist') });
    const [victim, survivor] = await Promise.all([startWorker(workerEnv), startWorker(workerEnv)]);
    expect(victim.stdout()).toContain('render_articles');
    const building = npmRun('build', [], buildEnv(shared, copy));
    // Killed while it holds a batch it has not answered: its first batch starts its render thread, which takes a while.
    await pollUntil(
      async () => (await sql<{ n: number }>`select count(*)::int as n from render_batches where taken_by like ${`pressroom-render-${victim.child.pid}-%`} and results is null and error is null`.execute(db)).rows[0]!.n,
      (n) => n > 0,
      { what: 'the first worker to take a batch', timeoutMs: 120_000, intervalMs: 10 },
    );
    await killProcess(victim.child);
    const build = await building;
    expect(build.code, build.stderr).toBe(0);
    // The builder's summary: batches rendered here and by the workers (the survivor at least).
    const summary = /build workers rendered batches of this build.*/.exec(build.stderr)?.[0] ?? '';
    expect(summary, build.stderr).toMatch(/batches_by_workers=[1-9]/);
    expect(summary).toContain(`-${survivor.child.pid}-`);
    const made = builtSiteFiles(path.join(shared, 'dist'));
    expect(made.size).toBe(expected.size);
    expect(differences(made, expected)).toEqual([]);
    // Nothing is left of the run: no batch, no job, no mark.
    expect((await sql<{ n: number }>`select count(*)::int as n from render_batches`.execute(db)).rows[0]!.n).toBe(0);
    const jobs = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'render_articles'`.execute(db);
    expect(jobs.rows[0]!.n).toBe(0);
    expect(fs.readdirSync(path.join(shared, 'dist')).filter((f) => f.startsWith('.pressroom-render-'))).toEqual([]);

    // A worker cut from the database stops (exit 1), so it writes no file of a batch that another now renders.
    const exited = new Promise<number | null>((resolve) => survivor.child.once('exit', (code) => resolve(code)));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name like ${`pressroom runner pressroom-render-${survivor.child.pid}-%`}`.execute(db);
    expect(await exited).toBe(1);
    expect(survivor.stderr()).toContain('a render runner lost its database connection');
  }, 400_000);

  it('refuse, with the reason, a batch for another output folder or another release', async () => {
    const url = await cluster.createDatabase();
    const config = loadConfig(buildEnv(path.join(dir, 'refusing'), url) as Record<string, string>, dir);
    const db = openDb(url);
    await migrateToLatest(db);
    const renderer = await createBatchRenderer({ db, config, projectRoot: PROJECT_ROOT, log: createLogger('silent') });
    const handle = renderer.handlerFor('pressroom-render-1-test');
    try {
      const settings = { publicUrl: 'http://pressroom.test', dashboardUrl: 'http://pressroom.test/dashboard', site: { baseUrl: 'http://pressroom.test', name: 'Site', contentSignal: 'search=yes', socialCards: false } };
      const answerOf = async (extra: { fingerprint: string; mark: string }) => {
        const batch = await queueRenderBatch(db, 'run', { ids: [1], known: {}, fresh: true, settings: { ...settings, ...extra } });
        await handle({ batch });
        return (await sql<{ error: string | null; results: unknown }>`select error, results from render_batches where id = ${batch}`.execute(db)).rows[0]!;
      };
      fs.mkdirSync(config.outputDir, { recursive: true });
      fs.writeFileSync(path.join(config.outputDir, '.pressroom-render-here.tmp'), 'here\n');
      const elsewhere = await answerOf({ fingerprint: 'x', mark: '.pressroom-render-elsewhere.tmp' });
      expect(elsewhere.results).toBeNull();
      expect(elsewhere.error).toContain('other code or templates than the builder');
      const { renderCodeFingerprint } = await import('../../server/publish/builder/owner-inputs.ts');
      const { ensureSiteBuild } = await import('../../server/render/astro-compile.ts');
      const fingerprint = `${renderCodeFingerprint()}:${(await ensureSiteBuild(PROJECT_ROOT)).hash}`;
      const folder = await answerOf({ fingerprint, mark: '.pressroom-render-elsewhere.tmp' });
      expect(folder.error).toContain(`writes into ${config.outputDir}, which is not the builder's output folder`);
      expect(folder.error).toContain('PRESSROOM_OUTPUT_DIR');
      // The same folder and release: rendered (article 1 does not exist: no files, no error).
      const here = await answerOf({ fingerprint, mark: '.pressroom-render-here.tmp' });
      expect(here.error).toBeNull();
      expect(here.results).toEqual([{ id: 1, head: null, textStarts: {}, files: [] }]);
    } finally {
      await renderer.close();
    }
  }, 120_000);
});
