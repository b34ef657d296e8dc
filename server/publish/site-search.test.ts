/**
 * The search keeper over a real store, the real Pagefind binary and real
 * files, with parts of 4 articles on average (`search-parts.ts`): a publish
 * or a withdrawal re-indexes only the part that holds the article, whatever
 * the channel's size, and a full rebuild leaves one bundle per part.
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
import { createPublicModel } from '../read-model/public-model.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { createPublicUrls } from '../urls/public-urls.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { createSearchIndexer } from './search-index.ts';
import { freshSize, partMax, partOf, partsOf } from './search-parts.ts';
import { SEARCH_REST_MAX_MS, createSiteSearch, type SiteSearch } from './site-search.ts';

const PART = 4;
const clock = manualClock(new Date('2026-11-01T10:00:00Z'));
const urls = createPublicUrls('http://pressroom.test', 'http://pressroom.test/dashboard');
let dir: string;
let db: Db;
let search: SiteSearch;
let principal: { accountId: number; accountName: string; plan: 'pro'; keyId: number };

async function publish(slug: string, word: string, channel = 'news'): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channel);
    const saved = await saveArticle(trx, { clock }, access, { slug, default_language: 'en', translations: [{ language: 'en', title: `Title ${slug}`, content_markdown: `About ${word}.`, status: 'published' }] }, { mode: 'trusted' });
    clock.advance(1000);
    return saved.article.id;
  });
}

/** The public articles of a channel (`news` unless said), ascending. */
const publicIds = async (channel = 'news') =>
  (await db.selectFrom('articles').innerJoin('channels', 'channels.id', 'articles.channel_id').select('articles.id').where('channels.slug', '=', channel).where('articles.status', '=', 'published').orderBy('articles.id').execute()).map((r) => r.id);
const bundleDir = (part: number) => path.join(dir, 'dist', 'pagefind', 'news', `en.${part}`);
/**
 * A bundle as files on disk (each file's inode and mtime): a rebuilt part
 * is a new folder swapped in, so its files are new inodes; no test waits
 * for the clock to tick before comparing.
 */
function stampOf(bundle: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else {
        const stat = fs.statSync(path.join(d, e.name));
        files.push(`${path.join(d, e.name)}:${stat.ino}:${stat.mtimeMs}`);
      }
    }
  };
  walk(bundle);
  return files.sort().join('\n');
}
/** A `news` part's bundle on disk (`stampOf`). */
const stamp = (part: number) => stampOf(bundleDir(part));
const holds = (part: number, word: string) =>
  fs.readdirSync(path.join(bundleDir(part), 'fragment')).some((f) => zlib.gunzipSync(fs.readFileSync(path.join(bundleDir(part), 'fragment', f))).includes(word));
const bundles = () => fs.readdirSync(path.join(dir, 'dist', 'pagefind', 'news')).sort();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-site-search-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  const account = (await ensureAccount(db, clock, 'test', 'pro')).account;
  principal = { accountId: account.id, accountName: account.name, plan: 'pro', keyId: 0 };
  await db.transaction().execute((trx) => insertChannelFor(trx, clock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] }));
  for (let i = 0; i < 40; i++) await publish(`a-${i}`, `word${i}x`);
  search = createSiteSearch(createSearchIndexer({ outputDir: path.join(dir, 'dist'), log: createLogger('silent') }), createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: PART });
  search.rebuildAll();
  await search.idle();
});
afterAll(async () => {
  await search.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('search parts in a channel', () => {
  it('counts an index with a bundle of the layout before parts as missing, so the start rebuilds it', () => {
    expect(search.hasIndex()).toBe(true);
    const legacy = path.join(dir, 'dist', 'pagefind', 'news', 'en');
    fs.cpSync(bundleDir(0), legacy, { recursive: true });
    expect(search.hasIndex()).toBe(false);
    fs.rmSync(legacy, { recursive: true });
    expect(search.hasIndex()).toBe(true);
  });

  it('says when a rebuild failed, until a later one succeeds', async () => {
    const real = createSearchIndexer({ outputDir: path.join(dir, 'dist'), log: createLogger('silent') });
    let failing = true;
    const indexer = { ...real, rebuildShards: (...args: Parameters<typeof real.rebuildShards>) => (failing ? Promise.reject(new Error('disk full')) : real.rebuildShards(...args)) };
    const keeper = createSiteSearch(indexer, createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: PART });
    try {
      keeper.rebuildAll();
      await keeper.idle();
      expect(keeper.failed()).toBe(true);
      failing = false;
      keeper.rebuildAll();
      await keeper.idle();
      expect(keeper.failed()).toBe(false);
    } finally {
      await keeper.close();
    }
  });

  it('rests between rebuilds in proportion to the last one, starts at once after a quiet spell, and stops resting on close', async () => {
    const real = createSearchIndexer({ outputDir: path.join(dir, 'dist'), log: createLogger('silent') });
    const runs: Array<{ start: number; end: number }> = [];
    let started = 0;
    // Each rebuild takes at least 100 ms here, so the rest after it is at least 3 s (factor 30): a margin a
    // loaded machine's delays stay far below.
    const factor = 30;
    const indexer = {
      ...real,
      rebuildShards: async () => {
        const start = performance.now();
        started++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        runs.push({ start, end: performance.now() });
        return { shards: 0, pages: 0, ms: 0 };
      },
    } as unknown as typeof real;
    const keeper = createSiteSearch(indexer, createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: PART, restFactor: factor });
    const ask = () => keeper.rebuildFor({ changedPaths: ['news/en/a-1.html'], articleIds: [1] });
    try {
      ask();
      await pollUntil(() => started, (n) => n === 1, { what: 'the first rebuild to start', intervalMs: 5 });
      // Asked twice during the first rebuild: one more rebuild, after the rest.
      ask();
      ask();
      await keeper.idle();
      expect(runs).toHaveLength(2);
      const [first, second] = runs as [{ start: number; end: number }, { start: number; end: number }];
      expect(second.start - first.end).toBeGreaterThanOrEqual(factor * (first.end - first.start) - 5);
      expect(keeper.busy()).toBe(false);
      // After a quiet spell longer than the rest, a request starts at once (not after another full rest).
      await new Promise((resolve) => setTimeout(resolve, Math.min(factor * (second.end - second.start), SEARCH_REST_MAX_MS) + 50));
      const asked = performance.now();
      ask();
      await keeper.idle();
      expect(runs).toHaveLength(3);
      expect(runs[2]!.start - asked).toBeLessThan(Math.min(factor * (second.end - second.start), SEARCH_REST_MAX_MS));
      // Asked again, then closed during the rest: the close does not wait for the rest, and nothing more runs.
      ask();
      await keeper.close();
      expect(runs).toHaveLength(3);
    } finally {
      await keeper.close();
    }
  });

  it('a full rebuild writes one bundle per part, each holding its own articles', async () => {
    const ids = await publicIds();
    const parts = partsOf(ids, PART);
    expect(parts.size).toBeGreaterThan(3);
    expect(bundles()).toEqual([...parts.keys()].map((p) => `en.${p}`).sort());
    const listing = JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'pagefind', 'shards.json'), 'utf8')) as Array<{ part: number }>;
    expect(listing.map((l) => l.part).sort((a, b) => a - b)).toEqual([...parts.keys()].sort((a, b) => a - b));
    ids.forEach((id, i) => expect(holds(partOf(parts, id), `word${i}x`), `article ${id}`).toBe(true));
  });

  it('a publish re-indexes only the part it joins', async () => {
    const before = new Map((await publicIds()).map((id) => [id, 0]));
    const stamps = new Map([...partsOf([...before.keys()], PART).keys()].map((p) => [p, stamp(p)]));
    const id = await publish('fresh', 'freshword');
    search.rebuildFor({ changedPaths: ['news/en/fresh.html', 'news/en/index.html'], articleIds: [id] });
    await search.idle();
    const ids = await publicIds();
    const part = partOf(partsOf(ids, PART), id);
    expect(holds(part, 'freshword')).toBe(true);
    for (const [p, t] of stamps) if (p !== part) expect(stamp(p), `part ${p}`).toBe(t);
  });

  it('a withdrawal re-indexes only the part that held it (or removes a part it was alone in)', async () => {
    const ids = await publicIds();
    const victim = ids[Math.floor(ids.length / 2)]!;
    const stamps = new Map([...partsOf(ids, PART).keys()].map((p) => [p, stamp(p)]));
    await db.updateTable('articles').set({ status: 'archived' }).where('id', '=', victim).execute();
    search.rebuildFor({ changedPaths: [`news/en/a-${ids.indexOf(victim)}.html`], articleIds: [victim] });
    await search.idle();
    const rest = await publicIds();
    const before = partsOf(ids, PART);
    const now = partsOf(rest, PART);
    // Exactly the parts whose articles changed are written again (or removed); every other bundle is untouched.
    const same = (p: number) => JSON.stringify(before.get(p)) === JSON.stringify(now.get(p));
    const touched = [...stamps].filter(([p, t]) => !now.has(p) || stamp(p) !== t).map(([p]) => p);
    expect(touched.length).toBeGreaterThanOrEqual(1);
    expect(touched.sort()).toEqual([...stamps.keys()].filter((p) => !same(p)).sort());
    for (const p of now.keys()) expect(holds(p, `word${ids.indexOf(victim)}x`), `part ${p}`).toBe(false);
    // Every other article is still found in its part (the 40 of the set-up have a word each).
    rest.filter((id) => ids.indexOf(id) < 40).forEach((id) => expect(holds(partOf(now, id), `word${ids.indexOf(id)}x`), `article ${id}`).toBe(true));
    expect(bundles()).toEqual([...now.keys()].map((p) => `en.${p}`).sort());
  });
  it('a channel’s newest articles are a fresh part: a publish re-indexes it alone, and an index of whole last parts is set right by the first publish', async () => {
    // Parts of 50 on average (at most 30), so the fresh part holds fewer than 5.
    const SIZE = 50;
    expect(freshSize(SIZE)).toBe(5);
    await db.transaction().execute((trx) => insertChannelFor(trx, clock, principal, { slug: 'tail', default_language: 'en', translations: [{ language: 'en', title: 'Tail' }] }));
    const tailIds = () => publicIds('tail');
    const words = new Map<number, string>();
    const publishTail = async (i: number) => {
      const id = await publish(`t-${i}`, `tail${i}x`, 'tail');
      words.set(id, `tail${i}x`);
      return id;
    };
    // Enough that the last part, indexed whole, holds more than 5 and the next publish leaves it split.
    let i = 0;
    const wholeLast = async () => [...partsOf(await tailIds(), SIZE, 1).values()].at(-1)!.length;
    const ready = (n: number) => n >= 6 && n < partMax(SIZE) && (n + 1) % 5 !== 0;
    while (i < 33 || !ready(await wholeLast())) await publishTail(i++);
    const tailDir = (part: number) => path.join(dir, 'dist', 'pagefind', 'tail', `en.${part}`);
    const tailBundles = () => fs.readdirSync(path.join(dir, 'dist', 'pagefind', 'tail')).sort();
    const tailHolds = (part: number, word: string) => fs.readdirSync(path.join(tailDir(part), 'fragment')).some((f) => zlib.gunzipSync(fs.readFileSync(path.join(tailDir(part), 'fragment', f))).includes(word));
    const keeper = (fresh?: number) => createSiteSearch(createSearchIndexer({ outputDir: path.join(dir, 'dist'), log: createLogger('silent') }), createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: SIZE, fresh });
    /** Every tail article is in the bundle of its part and in no other; the bundles are the parts. */
    const expectEachOnce = async () => {
      const parts = partsOf(await tailIds(), SIZE);
      expect(tailBundles()).toEqual([...parts.keys()].map((p) => `en.${p}`).sort());
      for (const [id, word] of words) for (const p of parts.keys()) expect(tailHolds(p, word), `article ${id} in part ${p}`).toBe(p === partOf(parts, id));
    };

    // An index as it was made before fresh parts: the last part indexed whole.
    const before = keeper(1);
    before.rebuildFor({ changedPaths: ['tail/en/t-0.html'], articleIds: [...words.keys()] });
    await before.idle();
    await before.close();
    expect(tailBundles()).toEqual([...partsOf(await tailIds(), SIZE, 1).keys()].map((p) => `en.${p}`).sort());

    const search = keeper();
    try {
      // The first publish splits the fresh part off, and the last part's bundle, which held its articles, is indexed again.
      let id = await publishTail(i++);
      expect(partsOf(await tailIds(), SIZE).size).toBe(partsOf(await tailIds(), SIZE, 1).size + 1);
      search.rebuildFor({ changedPaths: ['tail/en/t.html'], articleIds: [id] });
      await search.idle();
      await expectEachOnce();
      // Then a publish that joins the fresh part rewrites its bundle alone, until the fresh part fills a round number and joins the last.
      for (const end = i + 8; i < end; ) {
        const stamps = new Map([...partsOf(await tailIds(), SIZE).keys()].map((p) => [p, stampOf(tailDir(p))]));
        id = await publishTail(i++);
        search.rebuildFor({ changedPaths: ['tail/en/t.html'], articleIds: [id] });
        await search.idle();
        await expectEachOnce();
        const now = partsOf(await tailIds(), SIZE);
        const part = partOf(now, id);
        for (const [p, t] of stamps) if (p !== part && now.has(p)) expect(stampOf(tailDir(p)), `publishing ${id}: part ${p}`).toBe(t);
      }
    } finally {
      await search.close();
    }
  });

  it('keeps the work it was asked for until it is done, so a keeper after a crash does what the last one left', async () => {
    const pendingFile = path.join(dir, 'data', 'search-pending.json');
    const real = createSearchIndexer({ outputDir: path.join(dir, 'dist'), log: createLogger('silent') });
    // The first keeper never finishes a rebuild: the process "dies" with the work requested.
    const stuck = createSiteSearch({ ...real, rebuildShards: () => new Promise(() => undefined) }, createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: PART, pendingFile });
    const id = await publish('after-crash', 'crashword');
    stuck.rebuildFor({ changedPaths: ['news/en/after-crash.html'], articleIds: [id] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(fs.readFileSync(pendingFile, 'utf8'))).toMatchObject({ articleIds: [id], pairs: [{ channel: 'news', language: 'en' }] });
    const part = partOf(partsOf(await publicIds(), PART), id);
    expect(fs.existsSync(bundleDir(part)) && holds(part, 'crashword')).toBe(false);
    // The next process's keeper starts with that work: a start whose own build changed nothing still does it.
    const next = createSiteSearch(real, createPublicModel({ db, urls }), path.join(dir, 'dist'), createLogger('silent'), { partSize: PART, pendingFile });
    try {
      next.rebuildFor({ changedPaths: [], articleIds: [] });
      await next.idle();
      expect(holds(part, 'crashword')).toBe(true);
      expect(fs.existsSync(pendingFile)).toBe(false);
    } finally {
      await next.close();
    }
  });
});
