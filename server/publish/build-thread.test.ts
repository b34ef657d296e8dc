/**
 * The build thread over a real store and the real Astro renderer: builds run
 * there and the public state comes back; log lines are written under the
 * caller's logger; a thread that cannot start fails the build it was given
 * with `BUILD_THREAD_FAILED` naming why, and the next build starts a new
 * thread. (The service's use of it: test/e2e/build-thread.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { channelAccess } from '../domain/account/access.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import { insertChannelFor } from '../domain/channel/channel.service.ts';
import { createLogger } from '../logger.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { ensureSiteBuild } from '../render/astro-compile.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { createThreadSiteBuilder, type ThreadSiteBuilder } from './build-thread.ts';
import { bootBuildThread } from './build-thread-boot.ts';
import { BACKGROUND_NICENESS } from '../thread-priority.ts';

const clock = manualClock(new Date('2026-11-01T10:00:00Z'));
let dir: string;
let db: Db;
let astroBuildDir: string;
const lines: string[] = [];
const log = createLogger('debug', 'test', (line) => lines.push(line));

const configIn = (dataDir: string) =>
  loadConfig({ PRESSROOM_DATA_DIR: dataDir, PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'), PRESSROOM_PUBLIC_URL: 'http://pressroom.test', PRESSROOM_BUILD_WORKERS: '1', PRESSROOM_LOG_LEVEL: 'debug' }, dir);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-build-thread-'));
  db = openDatabase(configIn(path.join(dir, 'data')).databaseFile);
  await migrateToLatest(db);
  const account = (await ensureAccount(db, clock, 'ana', 'pro')).account;
  const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  await db.transaction().execute((trx) => insertChannelFor(trx, clock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] }));
  await db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, 'news');
    await saveArticle(trx, { clock }, access, { slug: 'first', default_language: 'en', translations: [{ language: 'en', title: 'First', content_markdown: 'One.', status: 'published' }] }, { mode: 'trusted' });
  });
  astroBuildDir = (await ensureSiteBuild(PROJECT_ROOT, { log: () => undefined })).buildDir;
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Linux's number of the idle scheduling policy (`SCHED_IDLE`), field 41 of a task's `stat`. */
const SCHED_IDLE = 5;

/** This process's threads at the background priority (Linux keeps a nice value and a policy per thread); 0 elsewhere. */
function backgroundThreads(policy?: number): number {
  if (process.platform !== 'linux') return 0;
  const fields = (task: string) => fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return fs.readdirSync('/proc/self/task').filter((task) => {
    const stat = fields(task);
    return Number(stat[16]) === BACKGROUND_NICENESS && (policy === undefined || Number(stat[38]) === policy);
  }).length;
}

describe('the build thread', () => {
  it('builds there (a thread started before it was told what to build), sends the public state back, and writes its log lines here', async () => {
    const config = configIn(path.join(dir, 'data'));
    const booted = bootBuildThread();
    const builder: ThreadSiteBuilder = createThreadSiteBuilder({ config, projectRoot: PROJECT_ROOT, astroBuildDir, edge: false, realClock: false }, { db, clock, log }, booted);
    try {
      expect(builder.heldState()).toBeNull();
      const before = backgroundThreads();
      const idleBefore = backgroundThreads(SCHED_IDLE);
      const report = await builder.fullBuild();
      expect(report.full).toBe(true);
      expect(fs.existsSync(path.join(config.outputDir, 'news/en/first.html'))).toBe(true);
      if (process.platform === 'linux') {
        // Below this thread's priority: the build thread and the writer thread it started (thread-priority.ts).
        expect(os.getPriority()).toBeLessThan(BACKGROUND_NICENESS);
        expect(backgroundThreads() - before).toBeGreaterThanOrEqual(2);
        // And at the idle policy (util-linux's chrt, which .ci/run's Debian has): a reader's request takes the core at once.
        expect(backgroundThreads(SCHED_IDLE) - idleBefore).toBeGreaterThanOrEqual(2);
      }
      const state = builder.heldState()!;
      expect([...state.articles.values()].map((a) => a.slug)).toEqual(['first']);
      expect(state.channels.map((c) => c.slug)).toEqual(['news']);
      expect(await builder.publicState()).toBe(state);
      await builder.release();
      expect(builder.heldState()).toBeNull();
      expect([...(await builder.publicState()).articles.values()].map((a) => a.slug)).toEqual(['first']);
    } finally {
      await builder.close();
    }
    expect(lines.some((l) => l.includes('[test'))).toBe(true);
  }, 120_000);

  it('fails a build it cannot start with BUILD_THREAD_FAILED, saying why, and tries a new thread for the next', async () => {
    // A data folder under a file: the thread cannot open its store.
    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    const config = configIn(path.join(blocker, 'data'));
    const builder = createThreadSiteBuilder({ config, projectRoot: PROJECT_ROOT, astroBuildDir, edge: false, realClock: false }, { db, clock, log });
    try {
      await expect(builder.applyEvents()).rejects.toMatchObject({ name: 'InternalError', code: 'BUILD_THREAD_FAILED', message: expect.stringMatching(/ENOTDIR|not a directory/) });
      await expect(builder.applyEvents()).rejects.toMatchObject({ code: 'BUILD_THREAD_FAILED' });
      expect(builder.heldState()).toBeNull();
    } finally {
      await builder.close();
    }
  }, 120_000);
});
