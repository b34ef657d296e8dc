/**
 * The bucket sync's own rules, on a real SQLite file and a real output
 * folder, with a bucket that records what it is sent (S3 itself is tested in
 * test/e2e/edge-bucket.test.ts, on s3rver).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../../store/database.ts';
import { recordFiles } from '../../store/output-file.repository.ts';
import { EdgeFailure } from '../purger.ts';
import { applySync, bucketDeployer, planSync, type BucketSyncDeps } from './bucket-sync.ts';
import type { Bucket, ObjectHeaders } from './s3-bucket.ts';

let dir: string;
let db: Db;
let sent: Array<{ op: 'put' | 'delete'; key: string; headers?: ObjectHeaders }>;
let failAfter: number;

function recordingBucket(name = 's3://site/'): Bucket {
  return {
    name,
    async put(key, _bytes, headers) {
      if (sent.filter((s) => s.op === 'put').length >= failAfter) throw new EdgeFailure(`s3: refused ${key}`);
      sent.push({ op: 'put', key, headers });
    },
    async get() {
      return null;
    },
    async delete(keys) {
      for (const key of keys) sent.push({ op: 'delete', key });
    },
  };
}

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, 'dist', file)), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist', file), text);
};

let deps: BucketSyncDeps;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bucket-sync-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  sent = [];
  failAfter = Number.POSITIVE_INFINITY;
  deps = { db, clock: manualClock('2026-11-28T00:00:00Z'), outputDir: path.join(dir, 'dist'), bucket: recordingBucket(), tagPrefix: 'pressroom', maxAgeSeconds: 60 };
  write('index.html', 'home');
  write('news/index.html', 'channel');
  write('news/hello.html', 'article');
  write('api/public/v1/channels/news/articles/hello.json', '{}');
  write('media/a.webp', 'image');
  write('pagefind/pagefind-entry.json', '{}');
  write('pagefind/news/en/fragment/x.pf_fragment', 'fragment');
  write('news/stale.html.123.tmp', 'half-written');
  await recordFiles(
    db,
    [
      { path: 'index.html', owner: 'site', hash: 'h' },
      { path: 'news/index.html', owner: 'channel:1', hash: 'h' },
      { path: 'news/hello.html', owner: 'article:1', hash: 'h' },
      { path: 'api/public/v1/channels/news/articles/hello.json', owner: 'article:1', hash: 'h' },
    ],
    '2026-11-28T00:00:00Z',
  );
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a full sync', () => {
  it('uploads leaves, then the search entry, then lists; never a temporary file; with type, cache policy and tags', async () => {
    const plan = await planSync(deps, 'all');
    expect(plan.uploads).toEqual([
      ['api/public/v1/channels/news/articles/hello.json', 'media/a.webp', 'news/hello.html', 'pagefind/news/en/fragment/x.pf_fragment'],
      ['pagefind/pagefind-entry.json'],
      ['index.html', 'news/index.html'],
    ]);
    const result = await applySync(deps, plan);
    expect(result.uploaded).toBe(7);
    const hello = sent.find((s) => s.key === 'news/hello.html')!.headers!;
    expect(hello).toEqual({ contentType: 'text/html; charset=utf-8', cacheControl: 'public, max-age=60, must-revalidate', cacheTag: 'pressroom,pressroom:f:/news/hello.html' });
    expect(sent.find((s) => s.key === 'media/a.webp')!.headers!.cacheControl).toBe('public, max-age=31536000, immutable');
  });

  it('sends nothing twice: unchanged files are skipped, rewritten files with the same bytes too', async () => {
    await applySync(deps, await planSync(deps, 'all'));
    sent = [];
    expect((await planSync(deps, 'all')).uploads).toEqual([]);
    // The same bytes under a new mtime (a full build into a fresh folder): noted, not sent.
    const file = path.join(dir, 'dist', 'news/hello.html');
    fs.utimesSync(file, new Date('2030-01-01'), new Date('2030-01-01'));
    const again = await planSync(deps, 'all');
    expect(again.uploads).toEqual([]);
    expect(again.unchanged).toBe(7);
    write('news/hello.html', 'article, revised');
    expect((await planSync(deps, { paths: ['news/hello.html'] })).uploads).toEqual([['news/hello.html']]);
  });

  it('deletes what the output no longer has, after every upload', async () => {
    await applySync(deps, await planSync(deps, 'all'));
    sent = [];
    fs.rmSync(path.join(dir, 'dist', 'news/hello.html'));
    fs.rmSync(path.join(dir, 'dist', 'media/a.webp'));
    write('news/index.html', 'channel without hello');
    const plan = await planSync(deps, { paths: ['news/hello.html', 'news/index.html'] });
    expect(plan.deletes).toEqual(['media/a.webp', 'news/hello.html']);
    await applySync(deps, plan);
    expect(sent.map((s) => `${s.op} ${s.key}`)).toEqual(['put news/index.html', 'delete media/a.webp', 'delete news/hello.html']);
  });

  it('a refusal half-way keeps what was sent: the next sync sends only the rest', async () => {
    failAfter = 3;
    await expect(applySync(deps, await planSync(deps, 'all'))).rejects.toThrow(EdgeFailure);
    expect(sent).toHaveLength(3);
    failAfter = Number.POSITIVE_INFINITY;
    const rest = await planSync(deps, 'all');
    expect(rest.uploads.flat()).toHaveLength(4);
    expect(rest.uploads.flat()).not.toContain(sent[0]!.key);
  });

  it('refuses an output folder that holds no built site, rather than empty the bucket', async () => {
    await applySync(deps, await planSync(deps, 'all'));
    fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    await expect(planSync(deps, 'all')).rejects.toThrow(/holds no built site.*npm run build/);
  });

  it('after a search rebuild, compares the bundles it names and the top files, not the whole index', async () => {
    await applySync(deps, await planSync(deps, 'all'));
    sent = [];
    write('pagefind/news/en/fragment/y.pf_fragment', 'new fragment');
    fs.rmSync(path.join(dir, 'dist', 'pagefind/news/en/fragment/x.pf_fragment'));
    write('pagefind/pagefind-entry.json', '{"changed":1}');
    // Another bundle changed on disk too, but this rebuild did not name it.
    write('pagefind/sport/en/fragment/z.pf_fragment', 'not named');
    const deploy = bucketDeployer(deps);
    const result = await deploy([], { everything: false, search: { folders: ['pagefind/news/en'], files: ['pagefind/pagefind-entry.json'] } });
    expect(sent.map((s) => `${s.op} ${s.key}`)).toEqual(['put pagefind/news/en/fragment/y.pf_fragment', 'put pagefind/pagefind-entry.json', 'delete pagefind/news/en/fragment/x.pf_fragment']);
    expect(result.paths).not.toContain('pagefind/sport/en/fragment/z.pf_fragment');
    // The whole folder, after a full rebuild.
    sent = [];
    await deploy([], { everything: false, search: 'all' });
    expect(sent.map((s) => `${s.op} ${s.key}`)).toEqual(['put pagefind/sport/en/fragment/z.pf_fragment']);
  });

  it('another bucket starts from nothing', async () => {
    await applySync(deps, await planSync(deps, 'all'));
    const other = { ...deps, bucket: recordingBucket('s3://other/') };
    expect((await planSync(other, 'all')).uploads.flat()).toHaveLength(7);
  });
});
