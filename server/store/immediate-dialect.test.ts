/**
 * Transactions begin as writes: a transaction that reads, then writes, never
 * fails because another process committed in between (issue 18, item 8).
 * A second better-sqlite3 connection on the same file plays the other process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDatabaseBusy } from './busy-error.ts';
import { openDatabase, type Db } from './database.ts';
import { SQLite } from './sqlite-binding.ts';

let dir: string;
let db: Db;
let other: InstanceType<typeof SQLite>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-immediate-'));
  const file = path.join(dir, 'test.db');
  db = openDatabase(file);
  await sql`create table counter (n integer not null)`.execute(db);
  await sql`insert into counter (n) values (0)`.execute(db);
  other = new SQLite(file);
  other.pragma('busy_timeout = 0'); // fail at once instead of blocking this thread
});

afterEach(async () => {
  other.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The other process's write, attempted while our transaction is open: its error code, or 'ok'. */
function otherWrite(): string {
  try {
    other.prepare('update counter set n = n + 100').run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('a transaction over openDatabase', () => {
  it('holds the write lock from its first read, so a read-then-write is never refused', async () => {
    let during = '';
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      during = otherWrite();
      await sql`update counter set n = ${rows[0]!.n + 1}`.execute(trx);
    });
    // The other writer waited (here: failed at once, busy_timeout 0) instead of invalidating our snapshot.
    expect(during).toBe('SQLITE_BUSY');
    expect(other.prepare('select n from counter').get()).toEqual({ n: 1 });
  });
});

describe('isDatabaseBusy', () => {
  it.each([
    [{ code: 'SQLITE_BUSY' }, true],
    [{ code: 'SQLITE_BUSY_SNAPSHOT' }, true],
    [{ code: 'SQLITE_LOCKED' }, true],
    [new Error('wrapped', { cause: { code: 'SQLITE_BUSY_TIMEOUT' } }), true],
    [{ code: 'SQLITE_BUSYNESS' }, false],
    [{ code: 'SQLITE_CONSTRAINT_UNIQUE' }, false],
    [new Error('database is locked'), false],
    [null, false],
  ])('%o → %s', (error, expected) => {
    expect(isDatabaseBusy(error)).toBe(expected);
  });
});
