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
import { isDatabaseBusy, sqliteCode } from './busy-error.ts';
import { openDatabase, type Db } from './database.ts';
import { SQLite } from './sqlite-binding.ts';
import { withStatementCache } from './immediate-dialect.ts';

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

  it('names the SQLite code of a busy failure, wrapped or not, for the log', () => {
    expect(sqliteCode(new Error('wrapped', { cause: { code: 'SQLITE_BUSY_SNAPSHOT' } }))).toBe('SQLITE_BUSY_SNAPSHOT');
    expect(sqliteCode({ code: 'SQLITE_BUSY' })).toBe('SQLITE_BUSY');
    expect(sqliteCode(new Error('database is locked'))).toBeUndefined();
  });
});

describe('statements prepared once per connection (issue 36: kysely prepared every query again)', () => {
  it('hands out the same statement for the same SQL, and a fresh one while it is being iterated', () => {
    const connection = new SQLite(':memory:');
    const cached = withStatementCache(connection);
    const first = cached.prepare('select 1 as n');
    expect(cached.prepare('select 1 as n')).toBe(first);
    const streamed = cached.prepare('select value from json_each(?)');
    const seen: number[] = [];
    for (const row of streamed.iterate('[1,2]') as Iterable<{ value: number }>) {
      // The same SQL asked for during the iteration: another statement, which runs.
      const inner = cached.prepare('select value from json_each(?)');
      expect(inner).not.toBe(streamed);
      seen.push(row.value, ...inner.all('[9]').map((r) => (r as { value: number }).value));
    }
    expect(seen).toEqual([1, 9, 2, 9]);
    connection.close();
  });

  it('keeps a bounded number of SQL texts', () => {
    const connection = new SQLite(':memory:');
    const cached = withStatementCache(connection);
    const oldest = cached.prepare('select 0');
    for (let i = 1; i <= 600; i++) cached.prepare(`select ${i}`);
    expect(cached.prepare('select 0')).not.toBe(oldest);
    expect(cached.prepare('select 600')).toBe(cached.prepare('select 600'));
    connection.close();
  });

  it('serves kysely queries, streamed and not, through one connection', async () => {
    const streamed: number[] = [];
    for await (const row of db.selectFrom('counter' as never).select(sql<number>`n`.as('n')).stream()) streamed.push((row as { n: number }).n);
    const again = await sql<{ n: number }>`select n from counter`.execute(db);
    expect(streamed).toEqual([0]);
    expect(again.rows).toEqual([{ n: 0 }]);
  });
});
