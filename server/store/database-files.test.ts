import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from './database.ts';
import { deletedDescriptors, recordDatabaseFiles } from './database-files.ts';

let dir: string;
let file: string;
let db: Db;
beforeEach(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-dbfiles-')));
  file = path.join(dir, 'pressroom.db');
  db = openDatabase(file);
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the database files of a running connection', () => {
  it('are intact while nobody touches them', () => {
    const files = recordDatabaseFiles(file);
    expect(files.file).toBe(file);
    expect(files.detached({ descriptors: true })).toEqual([]);
    expect(deletedDescriptors(file)).toEqual([]);
  });

  it('are found deleted when the WAL and SHM lose their names, by path and by this process\'s descriptors', () => {
    const files = recordDatabaseFiles(file);
    fs.rmSync(`${file}-wal`);
    fs.rmSync(`${file}-shm`);
    expect(files.detached()).toEqual([
      { name: `${file}-wal`, how: 'deleted' },
      { name: `${file}-shm`, how: 'deleted' },
    ]);
    expect(deletedDescriptors(file).sort()).toEqual([`${file}-shm`, `${file}-wal`]);
  });

  it('are found replaced when another file now has the WAL\'s name (what a second connection\'s fresh WAL looks like)', () => {
    const files = recordDatabaseFiles(file);
    fs.rmSync(`${file}-wal`);
    fs.writeFileSync(`${file}-wal`, '');
    expect(files.detached()).toEqual([{ name: `${file}-wal`, how: 'replaced' }]);
    // The descriptor check sees the held file deleted too; one entry per name.
    expect(files.detached({ descriptors: true })).toEqual([{ name: `${file}-wal`, how: 'replaced' }]);
  });

  it('records a WAL that a new database makes at its first write', async () => {
    const fresh = path.join(dir, 'fresh.db');
    const other = openDatabase(fresh);
    const files = recordDatabaseFiles(fresh);
    expect(fs.existsSync(`${fresh}-wal`)).toBe(false);
    await migrateToLatest(other);
    expect(files.detached()).toEqual([]);
    fs.rmSync(`${fresh}-wal`);
    expect(files.detached()).toEqual([{ name: `${fresh}-wal`, how: 'deleted' }]);
    await other.destroy();
  });
});
