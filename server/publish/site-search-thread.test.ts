/**
 * The search keeper on its own thread, over a real store, the real Pagefind
 * binary and real files: requests reach it, its reports come back (busy,
 * idle, every rebuild's change, its log lines under the caller's logger),
 * and it runs below the request thread's priority.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { channelAccess } from '../domain/account/access.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import { insertChannelFor } from '../domain/channel/channel.service.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { PAGEFIND_NICENESS, shardsOnDisk } from './search-index.ts';
import { createThreadSiteSearch } from './site-search-thread.ts';
import type { SearchChange, SiteSearch } from './site-search.ts';

const clock = manualClock(new Date('2026-11-01T10:00:00Z'));
let dir: string;
let db: Db;
let search: SiteSearch;
const lines: string[] = [];
const changes: SearchChange[] = [];
let principal: { accountId: number; accountName: string; plan: 'pro'; keyId: number };

async function publish(slug: string, word: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, 'news');
    const saved = await saveArticle(trx, { clock }, access, { slug, default_language: 'en', translations: [{ language: 'en', title: `Title ${slug}`, content_markdown: `About ${word}.`, status: 'published' }] }, { mode: 'trusted' });
    clock.advance(1000);
    return saved.article.id;
  });
}

/** Whether any bundle of the channel's English index holds `word`. */
const indexed = (word: string) =>
  shardsOnDisk(path.join(dir, 'dist'))
    .filter((s) => s.channel === 'news')
    .some((s) => {
      const fragments = path.join(dir, 'dist', 'pagefind', 'news', `${s.language}.${s.part}`, 'fragment');
      return fs.readdirSync(fragments).some((f) => zlib.gunzipSync(fs.readFileSync(path.join(fragments, f))).includes(word));
    });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-search-thread-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  const account = (await ensureAccount(db, clock, 'test', 'pro')).account;
  principal = { accountId: account.id, accountName: account.name, plan: 'pro', keyId: 0 };
  await db.transaction().execute((trx) => insertChannelFor(trx, clock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] }));
  for (let i = 0; i < 6; i++) await publish(`a-${i}`, `first${i}x`);
  search = createThreadSiteSearch(
    { database: path.join(dir, 'pressroom.db'), publicUrl: 'http://pressroom.test', dashboardUrl: 'http://pressroom.test/dashboard', outputDir: path.join(dir, 'dist'), lanes: 1, pendingFile: path.join(dir, 'search-pending.json'), partSize: 4 },
    createLogger('info', 'test', (line) => lines.push(line)),
  );
  search.onIndexed((change) => changes.push(change));
});
afterAll(async () => {
  await search.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the search keeper on its own thread', () => {
  it('builds the whole index, is busy until done, and reports the change and its log lines', async () => {
    expect(search.hasIndex()).toBe(false);
    search.rebuildAll();
    expect(search.busy()).toBe(true);
    await search.idle();
    expect(search.busy()).toBe(false);
    expect(search.failed()).toBe(false);
    expect(search.hasIndex()).toBe(true);
    expect(changes).toEqual(['all']);
    expect(indexed('first0x') && indexed('first5x')).toBe(true);
    // The keeper's line, written by this thread under the caller's namespace.
    expect(lines.some((l) => /INFO  \[test\] search index built .*shards=/.test(l))).toBe(true);
    // Its work file is gone once the work is done.
    expect(fs.existsSync(path.join(dir, 'search-pending.json'))).toBe(false);
  });

  it("re-indexes a build's part and reports its folders", async () => {
    const id = await publish('late', 'latecomerx');
    expect(indexed('latecomerx')).toBe(false);
    search.rebuildFor({ changedPaths: ['news/en/late.html'], articleIds: [id] });
    await search.idle();
    expect(indexed('latecomerx')).toBe(true);
    const last = changes.at(-1);
    expect(last).not.toBe('all');
    expect(last !== 'all' && last?.folders.every((f) => f.startsWith('pagefind/news/en.'))).toBe(true);
  });

  it('keeps a script alive until it is closed, even when its last work settles while closing', async () => {
    // With the thread unreferenced while close() waited, a script ended with exit code 13 (an await left pending).
    const out = path.join(dir, 'child');
    const script = [
      `import { createThreadSiteSearch } from ${JSON.stringify(new URL('./site-search-thread.ts', import.meta.url).href)};`,
      `import { createLogger } from ${JSON.stringify(new URL('../logger.ts', import.meta.url).href)};`,
      `const search = createThreadSiteSearch(${JSON.stringify({ database: path.join(dir, 'pressroom.db'), publicUrl: 'http://pressroom.test', dashboardUrl: 'http://pressroom.test/dashboard', outputDir: path.join(out, 'dist'), lanes: 1, pendingFile: path.join(out, 'search-pending.json'), partSize: 4 })}, createLogger('error', 'child', () => {}));`,
      `search.rebuildAll();`,
      `await search.close();`,
      `console.log('closed');`,
    ].join('\n');
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, 'script.mts');
    fs.writeFileSync(file, script);
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: process.cwd(), encoding: 'utf8', timeout: 120_000 });
    expect({ status: run.status, out: run.stdout.trim() }, run.stderr).toEqual({ status: 0, out: 'closed' });
  }, 150_000);

  it('runs below the priority of the thread that started it', () => {
    const niceness = (task: string) => Number(fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    // Linux keeps a nice value per thread: getpriority() here is this thread's.
    const base = os.getPriority();
    expect(base).toBeLessThan(PAGEFIND_NICENESS);
    expect(fs.readdirSync('/proc/self/task').some((t) => niceness(t) === PAGEFIND_NICENESS)).toBe(true);
  });
});
