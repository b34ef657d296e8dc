import { spawnSync } from 'node:child_process';
/**
 * The sharded Pagefind index with the real Pagefind binary and real files:
 * one bundle per part of a channel in one language, `shards.json`,
 * rebuilding one shard leaves the others untouched, an empty shard loses its
 * folder, and an unpublished article leaves the index. Which parts a change
 * touches is `site-search.ts`'s (tested over a real store in
 * `site-search.test.ts`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { PublicArticle } from '../read-model/view-models.ts';
import { createSearchIndexer, lowerPagefindPriority, PAGEFIND_NICENESS, searchRecords, type SearchIndexer, type SearchRecord, type Shard } from './search-index.ts';

let dir: string;
let indexer: SearchIndexer;
const dirs: string[] = [];

/** The public records by shard, as the public model would give them. */
let records: Map<string, SearchRecord[]>;
const recordsFor = async (s: Shard) => records.get(`${s.channel}/${s.language}`) ?? [];
const rec = (channel: string, language: string, slug: string, title: string, text: string): SearchRecord => ({
  url: `/${channel}/${language}/${slug}`,
  title,
  text,
  language,
});

const bundle = (s: string) => path.join(dir, 'pagefind', s);
/** Every fragment of a bundle, decompressed (`pagefind_dcd` + JSON). */
const fragments = (s: string) =>
  fs.readdirSync(path.join(bundle(s), 'fragment')).map((f) => zlib.gunzipSync(fs.readFileSync(path.join(bundle(s), 'fragment', f))).toString('utf8'));
/**
 * Each file of a shard with its identity (inode and mtime): a rebuilt shard is
 * a new folder swapped in, so its files are new inodes, and no test needs to
 * wait for the clock to tick before comparing.
 */
const mtimes = (s: string) => {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else {
        const stat = fs.statSync(path.join(d, e.name));
        out.set(path.join(d, e.name), `${stat.ino}:${stat.mtimeMs}`);
      }
    }
  };
  walk(bundle(s));
  return out;
};
const listing = () => JSON.parse(fs.readFileSync(path.join(dir, 'pagefind', 'shards.json'), 'utf8')) as unknown[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-search-'));
  dirs.push(dir);
  indexer = createSearchIndexer({ outputDir: dir, log: createLogger('silent') });
  records = new Map([
    ['tech/en', [rec('tech', 'en', 'hello', 'Hello zebra', 'A story about zebras.'), rec('tech', 'en', 'second', 'Second giraffe', 'Giraffes are tall.')]],
    ['tech/ar', [rec('tech', 'ar', 'hello', 'مرحبا', 'قصة عن الحمار الوحشي')]],
    ['food/en', [rec('food', 'en', 'soup', 'Tomato soup', 'Soup with tomatoes.')]],
  ]);
});
afterAll(async () => {
  await indexer?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('search shards', () => {
  it('writes one bundle per channel and language, listed in shards.json, with the UI at the top', async () => {
    const report = await indexer.rebuildShards(
      [...records.keys()].map((k) => ({ channel: k.split('/')[0]!, language: k.split('/')[1]!, part: 0 })),
      recordsFor,
    );
    expect(report).toMatchObject({ shards: 3, pages: 4 });
    for (const s of ['tech/en.0', 'tech/ar.0', 'food/en.0']) {
      expect(fs.existsSync(path.join(bundle(s), 'pagefind-entry.json')), s).toBe(true);
      expect(fs.existsSync(path.join(bundle(s), 'pagefind-ui.js')), s).toBe(true);
    }
    const entry = JSON.parse(fs.readFileSync(path.join(bundle('tech/ar.0'), 'pagefind-entry.json'), 'utf8'));
    expect(Object.keys(entry.languages)).toEqual(['ar']);
    expect(fragments('tech/en.0').join('\n')).toContain('Hello zebra');
    expect(fragments('tech/en.0').join('\n')).toContain('"url":"/tech/en/hello"');
    expect(listing()).toEqual([
      { channel: 'food', language: 'en', part: 0, bundlePath: 'food/en.0/' },
      { channel: 'tech', language: 'ar', part: 0, bundlePath: 'tech/ar.0/' },
      { channel: 'tech', language: 'en', part: 0, bundlePath: 'tech/en.0/' },
    ]);
    expect(fs.existsSync(path.join(dir, 'pagefind', 'pagefind-ui.js'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'pagefind', 'pagefind-ui.css'))).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'pagefind', '_staging'))).toEqual([]);
  });

  it('stages in a folder of its own: another indexer of the same output (npm run build beside the server) keeps its work, a dead process\'s leftovers go (issue 40)', () => {
    const stagingRoot = path.join(dir, 'pagefind', '_staging');
    fs.mkdirSync(path.join(stagingRoot, `${process.pid}-00aa11bb`, 'new-abc'), { recursive: true }); // another indexer of a running process
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.mkdirSync(path.join(stagingRoot, `${dead}-00cc22dd`, 'old-abc'), { recursive: true }); // a crash mid-swap
    fs.mkdirSync(path.join(stagingRoot, 'new-0123456789ab'), { recursive: true }); // the layout before per-indexer folders
    createSearchIndexer({ outputDir: dir, log: createLogger('silent') });
    expect(fs.readdirSync(stagingRoot)).toEqual([`${process.pid}-00aa11bb`]);
  });

  it('rebuilding one shard leaves the other shards untouched; unpublishing removes the record', async () => {
    await indexer.rebuildShards(
      [
        { channel: 'tech', language: 'en', part: 0 },
        { channel: 'tech', language: 'ar', part: 0 },
        { channel: 'food', language: 'en', part: 0 },
      ],
      recordsFor,
    );
    const others = new Map([...mtimes('tech/ar.0'), ...mtimes('food/en.0')]);
    fs.mkdirSync(path.join(dir, 'tech'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tech', 'index.html'), ''); // the channel is still public
    // "Second giraffe" is unpublished: the public model no longer returns it.
    records.set('tech/en', [records.get('tech/en')![0]!]);
    const report = await indexer.rebuildShards([{ channel: 'tech', language: 'en', part: 0 }], recordsFor);
    expect(report).toMatchObject({ shards: 1, pages: 1 });
    expect(new Map([...mtimes('tech/ar.0'), ...mtimes('food/en.0')])).toEqual(others);
    const text = fragments('tech/en.0').join('\n');
    expect(text).toContain('Hello zebra');
    expect(text).not.toContain('giraffe');
    expect(fragments('tech/en.0')).toHaveLength(1);
  });

  it('an empty shard loses its folder and its line in shards.json; a gone channel loses every shard', async () => {
    await indexer.rebuildShards([{ channel: 'tech', language: 'en', part: 0 }, { channel: 'tech', language: 'ar', part: 0 }, { channel: 'food', language: 'en', part: 0 }], recordsFor);
    records.delete('tech/ar');
    await indexer.rebuildShards([{ channel: 'tech', language: 'ar', part: 0 }], recordsFor);
    expect(fs.existsSync(bundle('tech/ar.0'))).toBe(false);
    expect(fs.existsSync(bundle('tech/en.0'))).toBe(true);
    expect(listing()).toHaveLength(2);

    // food/index.html was removed from the output: the channel is no longer public.
    expect(indexer.pairsForPaths(['food/index.html']).goneChannels).toEqual(['food']);
    records.delete('food/en');
    await indexer.rebuildShards([{ channel: 'food', language: 'en', part: 0 }], recordsFor);
    expect(fs.existsSync(path.join(dir, 'pagefind', 'food'))).toBe(false);
    expect(listing()).toEqual([{ channel: 'tech', language: 'en', part: 0, bundlePath: 'tech/en.0/' }]);
  });

  it('maps output paths to channels and languages and ignores files outside channels', () => {
    fs.mkdirSync(path.join(dir, 'tech'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tech', 'index.html'), '');
    expect(indexer.pairsForPaths(['tech/ar/hello.html', 'tech/ar/index.html', 'tech/index.html', 'tech/en/rss.xml', 'api/public/v1/channels/tech/articles/x/_lang/en.json', 'index.html'])).toEqual({
      pairs: [{ channel: 'tech', language: 'ar' }],
      goneChannels: [],
    });
  });

  it('ignores the site\'s own pages: the search pages and the 404 pages are no channel\'s', () => {
    expect(indexer.pairsForPaths(['search/ar/index.html', 'search/index.html', '_404/ar.html', 'tech/ar/_404.html', 'tech/_404.html', 'tech/ar/index.png'])).toEqual({ pairs: [], goneChannels: [] });
  });

  it('lists a bundle of the layout before parts as part -1, so a full rebuild removes it', async () => {
    await indexer.rebuildShards([{ channel: 'tech', language: 'en', part: 0 }], recordsFor);
    fs.cpSync(bundle('tech/en.0'), bundle('tech/en'), { recursive: true });
    expect(indexer.existingShards()).toEqual([
      { channel: 'tech', language: 'en', part: -1 },
      { channel: 'tech', language: 'en', part: 0 },
    ]);
    await indexer.rebuildShards([{ channel: 'tech', language: 'en', part: -1 }], async () => []);
    expect(fs.existsSync(bundle('tech/en'))).toBe(false);
    expect(fs.existsSync(bundle('tech/en.0'))).toBe(true);
  });

  it('turns Pagefind errors and bad shard names into thrown errors, and keeps the old bundle', async () => {
    await indexer.rebuildShards([{ channel: 'tech', language: 'en', part: 0 }], recordsFor);
    await expect(indexer.rebuildShards([{ channel: '../x', language: 'en', part: 0 }], recordsFor)).rejects.toThrow(/Not a shard/);
    await expect(
      indexer.rebuildShards([{ channel: 'tech', language: 'en', part: 0 }], async () => {
        throw new Error('store down');
      }),
    ).rejects.toThrow('store down');
    expect(fragments('tech/en.0').join('\n')).toContain('Hello zebra');
  });

  it('says what a long rebuild starts and how far it is, with three processes at once', async () => {
    const lines: string[] = [];
    const logged = createSearchIndexer({ outputDir: dir, log: createLogger('info', 'test', (l) => lines.push(l)), lanes: 3 });
    const shards: Shard[] = Array.from({ length: 20 }, (_, part) => ({ channel: 'tech', language: 'en', part }));
    const report = await logged.rebuildShards(shards, async (s) => [rec('tech', 'en', `story-${s.part}`, `Story ${s.part}`, `Zebra number ${s.part}.`)]);
    expect(report).toMatchObject({ shards: 20, pages: 20 });
    expect(lines[0]).toMatch(/search index shards=20 processes=3/);
    expect(lines.filter((l) => l.includes('search index progress'))).toHaveLength(9);
    for (const part of [0, 19]) expect(fragments(`tech/en.${part}`).join('\n')).toContain(`Zebra number ${part}`);
    await logged.close();
  });

  it('asks for the next shard’s records while a lane indexes the one before, and stops asking once one fails', async () => {
    const one = createSearchIndexer({ outputDir: dir, log: createLogger('silent'), lanes: 1 });
    const shards: Shard[] = [
      { channel: 'tech', language: 'en', part: 0 },
      { channel: 'tech', language: 'ar', part: 0 },
      { channel: 'food', language: 'en', part: 0 },
    ];
    // With one lane, the second shard's records are asked for before the first shard's bundle is in place.
    const seen: Array<{ shard: string; firstInPlace: boolean }> = [];
    await one.rebuildShards(shards, async (s) => {
      seen.push({ shard: `${s.channel}/${s.language}`, firstInPlace: fs.existsSync(bundle('tech/en.0')) });
      return recordsFor(s);
    });
    expect(seen).toEqual([
      { shard: 'tech/en', firstInPlace: false },
      { shard: 'tech/ar', firstInPlace: false },
      { shard: 'food/en', firstInPlace: true },
    ]);
    // A failure while the next shard's records are being read: the rebuild fails with it, nothing is left unhandled.
    const asked: string[] = [];
    await expect(
      one.rebuildShards(shards, async (s) => {
        asked.push(`${s.channel}/${s.language}`);
        if (s.language === 'ar') throw new Error('store down');
        return recordsFor(s);
      }),
    ).rejects.toThrow('store down');
    expect(asked).toEqual(['tech/en', 'tech/ar']);
    await one.close();
  });
});

describe('searchRecords', () => {
  it('takes each published translation in the shard language, with a root-relative URL', () => {
    const channel = { slug: 'tech' } as PublicArticle['channel'];
    const tr = (language: string, title: string) =>
      ({ language, title, text: `${title} body`, htmlUrl: `https://x.example/news/tech/${language}/hello` }) as PublicArticle['translations'][number];
    const articles = [{ channel, translations: [tr('en', 'Hello'), tr('ar', 'مرحبا')] }] as unknown as PublicArticle[];
    expect(searchRecords(articles, { channel: 'tech', language: 'ar', part: 0 })).toEqual([
      { url: '/news/tech/ar/hello', title: 'مرحبا', text: 'مرحبا body', language: 'ar' },
    ]);
    expect(searchRecords(articles, { channel: 'tech', language: 'fr', part: 0 })).toEqual([]);
    expect(searchRecords(articles, { channel: 'food', language: 'en', part: 0 })).toEqual([]);
  });
});

describe('priority', () => {
  it.skipIf(process.platform !== 'linux')('lowers the priority of Pagefind processes, and of no other child', async () => {
    const { spawn } = await import('node:child_process');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-nice-'));
    // A process named as Pagefind's binary is, and one that is not.
    fs.copyFileSync('/bin/sleep', path.join(dir, 'pagefind_extended'));
    fs.chmodSync(path.join(dir, 'pagefind_extended'), 0o755);
    const pagefind = spawn(path.join(dir, 'pagefind_extended'), ['30']);
    const other = spawn('/bin/sleep', ['30']);
    try {
      // Until the child has exec'd its binary it still bears the parent's name: asked again until it is lowered.
      const deadline = Date.now() + 30_000;
      while (os.getPriority(pagefind.pid!) !== PAGEFIND_NICENESS && Date.now() < deadline) {
        lowerPagefindPriority();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(os.getPriority(pagefind.pid!)).toBe(PAGEFIND_NICENESS);
      expect(os.getPriority(other.pid!)).toBe(os.getPriority());
    } finally {
      pagefind.kill();
      other.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
