import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { migrateToLatest, openDatabase } from './database.ts';
import { deletedDescriptors, recordDatabaseFiles } from './database-files.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-database-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('database files are private (issue 18: pressroom.db was 0644 while it holds drafts and key hashes)', () => {
  it('creates the folder 0700 and the database, -wal and -shm 0600', async () => {
    const file = path.join(dir, 'data', 'pressroom.db');
    const db = openDatabase(file);
    await migrateToLatest(db);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      expect(fs.existsSync(name), name).toBe(true);
      expect(modeOf(name), name).toBe(0o600);
    }
    await db.destroy();
  });

  it('tightens a database an earlier version left 0644', async () => {
    const file = path.join(dir, 'pressroom.db');
    await openDatabase(file).destroy();
    for (const name of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(name)) fs.chmodSync(name, 0o644);
    const db = openDatabase(file);
    await migrateToLatest(db);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(name)) expect(modeOf(name), name).toBe(0o600);
    expect(modeOf(file)).toBe(0o600);
    await db.destroy();
  });
});

describe('opening the database again in this process keeps the locks of the connection already open (issue 39)', () => {
  it('another process that opens and closes the database leaves the WAL of this process in place', async () => {
    const file = path.join(dir, 'pressroom.db');
    const db = openDatabase(file);
    await migrateToLatest(db);
    // As a render or check thread does while the main connection runs: any open+close of the file here would drop its locks.
    const second = openDatabase(file);
    await second.destroy();
    // Another process connects and leaves: Debian's sqlite3, as an operator runs it (.ci/run installs it). It must see
    // this process's locks and keep the WAL. (A better-sqlite3 process does not delete the WAL on close here, so it
    // would not show the fault.)
    execFileSync('sqlite3', [file, 'select count(*) from sqlite_schema']);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(deletedDescriptors(fs.realpathSync(file))).toEqual([]);
    expect(recordDatabaseFiles(file).detached({ descriptors: true })).toEqual([]);
    await db.destroy();
  });
});
