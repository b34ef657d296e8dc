import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../store/database.ts';
import { recordFiles, recordsAtLeast } from '../../store/output-file.repository.ts';
import { checkOutputInWorker } from '../workers/output-check.ts';
import { checkOutput, knownOutput } from './known-output.ts';

let dir: string;
let outputDir: string;
let databaseFile: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-known-output-'));
  outputDir = path.join(dir, 'dist');
  databaseFile = path.join(dir, 'data', 'pressroom.db');
  db = openDatabase(databaseFile);
  await migrateToLatest(db);
  const put = (p: string) => {
    fs.mkdirSync(path.dirname(path.join(outputDir, p)), { recursive: true });
    fs.writeFileSync(path.join(outputDir, p), p);
  };
  // article:1 complete, article:2 lost a file, site complete; a stray file; media is not the builder's.
  for (const p of ['a/one.md', 'a/one.json', 'index.html', 'stray/left.html', 'media/photo.webp', 'b/two.json']) put(p);
  await recordFiles(
    db,
    [
      { path: 'a/one.md', owner: 'article:1', hash: 'h1' },
      { path: 'a/one.json', owner: 'article:1', hash: 'h2' },
      { path: 'b/two.md', owner: 'article:2', hash: 'h3' },
      { path: 'b/two.json', owner: 'article:2', hash: 'h4' },
      { path: 'index.html', owner: 'site', hash: 'h5' },
    ],
    '2026-11-27T00:00:00.000Z',
  );
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('checkOutput', () => {
  it('names the owners, the recorded files missing and their owners, and the files nobody recorded', async () => {
    const check = await checkOutput(db, outputDir);
    expect([...check.owners].sort()).toEqual(['article:1', 'article:2', 'site']);
    expect(check.missing).toEqual(['b/two.md']);
    expect(check.incomplete).toEqual(['article:2']);
    expect(check.unrecorded).toEqual(['stray/left.html']);
    const known = knownOutput(check);
    expect([known.inPlace('a/one.md'), known.inPlace('b/two.md')]).toEqual([true, false]);
  });

  it('counts the recorded files only as far as asked (whether the check earns a thread)', async () => {
    expect(await Promise.all([0, 1, 5, 6].map((n) => recordsAtLeast(db, n)))).toEqual([true, true, true, false]);
  });

  it('finds nothing to match in a missing folder and an empty manifest (a cold build)', async () => {
    await db.deleteFrom('output_files').execute();
    expect(await checkOutput(db, path.join(dir, 'nowhere'))).toEqual({ owners: [], missing: [], incomplete: [], unrecorded: [] });
  });

  it('gives the same answer from a worker thread, with its own store connection', async () => {
    expect(await checkOutputInWorker({ databaseFile, outputDir })).toEqual(await checkOutput(db, outputDir));
  });

  it("fails with the thread's error when the check cannot run", async () => {
    const notADatabase = path.join(dir, 'not-a-database.db');
    fs.writeFileSync(notADatabase, 'this is not SQLite '.repeat(100));
    await expect(checkOutputInWorker({ databaseFile: notADatabase, outputDir })).rejects.toThrow(/Output check failed: .*not a database/);
  });

  it('reads a manifest larger than one slice', async () => {
    const many = Array.from({ length: 120_005 }, (_, i) => ({ path: `x/${String(i).padStart(6, '0')}.json`, owner: `article:${1000 + (i % 7)}`, hash: 'h' }));
    await recordFiles(db, many, '2026-11-27T00:00:00.000Z');
    const check = await checkOutput(db, outputDir);
    expect(check.missing).toHaveLength(120_006);
    expect(check.owners).toHaveLength(3 + 7);
  });
});
