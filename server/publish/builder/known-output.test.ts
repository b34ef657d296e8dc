import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../store/database.ts';
import { recordFiles, recordsAtLeast } from '../../store/output-file.repository.ts';
import { checkOutputInWorker } from '../workers/output-check.ts';
import { hashContent } from '../../output/output-writer.ts';
import { checkOutput, FRESH_FILE_MS, knownOutput, needsRepair } from './known-output.ts';

let dir: string;
let outputDir: string;
let databaseFile: string;
let db: Db;
/** Before the files' own writes, so a later write always moves a file's mtime (whatever the clock's tick). */
const anHourAgo = new Date(Date.now() - 3_600_000);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-known-output-'));
  outputDir = path.join(dir, 'dist');
  databaseFile = path.join(dir, 'data', 'pressroom.db');
  db = openDatabase(databaseFile);
  await migrateToLatest(db);
  const put = (p: string) => {
    fs.mkdirSync(path.dirname(path.join(outputDir, p)), { recursive: true });
    fs.writeFileSync(path.join(outputDir, p), p);
    fs.utimesSync(path.join(outputDir, p), anHourAgo, anHourAgo);
  };
  // article:1 complete, article:2 lost a file, site complete; a stray file; media is not the builder's.
  for (const p of ['a/one.md', 'a/one.json', 'index.html', 'stray/left.html', 'media/photo.webp', 'b/two.json']) put(p);
  await recordFiles(
    db,
    [
      { path: 'a/one.md', owner: 'article:1', hash: hashContent('a/one.md') },
      { path: 'a/one.json', owner: 'article:1', hash: hashContent('a/one.json') },
      { path: 'b/two.md', owner: 'article:2', hash: hashContent('b/two.md') },
      { path: 'b/two.json', owner: 'article:2', hash: hashContent('b/two.json') },
      { path: 'index.html', owner: 'site', hash: hashContent('index.html') },
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
    expect(check.damaged).toEqual([]);
    expect(needsRepair(check)).toBe(true);
    const known = knownOutput(check);
    expect([known.inPlace('a/one.md'), known.inPlace('b/two.md')]).toEqual([true, false]);
  });

  it('counts the recorded files only as far as asked (whether the check earns a thread)', async () => {
    expect(await Promise.all([0, 1, 5, 6].map((n) => recordsAtLeast(db, n)))).toEqual([true, true, true, false]);
  });

  it('finds nothing to match in a missing folder and an empty manifest (a cold build)', async () => {
    await db.deleteFrom('output_files').execute();
    const check = await checkOutput(db, path.join(dir, 'nowhere'));
    expect(check).toEqual({ owners: [], missing: [], incomplete: [], unrecorded: [], damaged: [], hashed: 0 });
    expect(needsRepair(check)).toBe(false);
  });

  it('gives the same answer from a worker thread, with its own store connection', async () => {
    // The first check confirms the stamps (it hashes the four files in place); the second trusts them.
    const inWorker = await checkOutputInWorker({ database: databaseFile, outputDir });
    expect(inWorker.hashed).toBe(4);
    expect(await checkOutput(db, outputDir)).toEqual({ ...inWorker, hashed: 0 });
  });

  it("fails with the thread's error when the check cannot run", async () => {
    const notADatabase = path.join(dir, 'not-a-database.db');
    fs.writeFileSync(notADatabase, 'this is not SQLite '.repeat(100));
    await expect(checkOutputInWorker({ database: notADatabase, outputDir })).rejects.toThrow(/Output check failed: .*not a database/);
  });

  it('trusts a file by its confirmed size and mtime, hashes it again when they change, and removes one whose bytes are not the recorded ones', async () => {
    expect((await checkOutput(db, outputDir)).hashed).toBe(4);
    expect((await checkOutput(db, outputDir)).hashed).toBe(0);
    // Touched, same bytes: hashed, confirmed, kept.
    const halfAnHourAgo = new Date(Date.now() - 1_800_000);
    fs.utimesSync(path.join(outputDir, 'a/one.md'), halfAnHourAgo, halfAnHourAgo);
    const touched = await checkOutput(db, outputDir);
    expect([touched.hashed, touched.damaged]).toEqual([1, []]);
    expect(fs.existsSync(path.join(outputDir, 'a/one.md'))).toBe(true);
    // Edited by hand, even to the same size: other bytes than recorded, so removed and its owner incomplete.
    fs.writeFileSync(path.join(outputDir, 'a/one.json'), 'A/ONE.JSON');
    const edited = await checkOutput(db, outputDir);
    expect(edited.damaged).toEqual(['a/one.json']);
    expect([...edited.missing].sort()).toEqual(['a/one.json', 'b/two.md']);
    expect([...edited.incomplete].sort()).toEqual(['article:1', 'article:2']);
    expect(fs.existsSync(path.join(outputDir, 'a/one.json'))).toBe(false);
  });

  it('does not trust the stamp of a fresh file: a same-size edit within its mtime tick is still found', async () => {
    const full = path.join(outputDir, 'a/one.json');
    fs.writeFileSync(full, 'a/one.json');
    const fresh = fs.statSync(full).mtime;
    expect(Date.now() - fresh.getTime()).toBeLessThan(FRESH_FILE_MS);
    expect((await checkOutput(db, outputDir)).hashed).toBe(4);
    // Rewritten in the same tick of the filesystem's clock: the same size and the same mtime as the stamp seen.
    fs.writeFileSync(full, 'A/ONE.JSON');
    fs.utimesSync(full, fresh, fresh);
    const edited = await checkOutput(db, outputDir);
    expect([edited.hashed, edited.damaged]).toEqual([1, ['a/one.json']]);
    // Old enough, the same bytes confirm their stamp and are trusted from then on.
    fs.writeFileSync(full, 'a/one.json');
    fs.utimesSync(full, anHourAgo, anHourAgo);
    expect((await checkOutput(db, outputDir)).hashed).toBe(1);
    expect((await checkOutput(db, outputDir)).hashed).toBe(0);
  });

  it('reads a manifest larger than one slice', async () => {
    const many = Array.from({ length: 120_005 }, (_, i) => ({ path: `x/${String(i).padStart(6, '0')}.json`, owner: `article:${1000 + (i % 7)}`, hash: 'h' }));
    await recordFiles(db, many, '2026-11-27T00:00:00.000Z');
    const check = await checkOutput(db, outputDir);
    expect(check.missing).toHaveLength(120_006);
    expect(check.owners).toHaveLength(3 + 7);
  });
});
