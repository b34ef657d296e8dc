import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { migrateToLatest, openDatabase } from './database.ts';
import { deletedDescriptors, recordDatabaseFiles } from './database-files.ts';
import { describeProgress } from './table-rebuild.ts';
import { databaseBefore } from '../../test/helpers/migrated-database.ts';

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

describe('migrateToLatest says where a long migration is (issue 36)', () => {
  it('passes a table rebuild\'s progress to its listener, as often as it is told to', async () => {
    const before = await databaseBefore('0013');
    try {
      const now = '2026-12-06T00:00:00.000Z';
      await sql`INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'a', 'pro', ${now})`.execute(before.db);
      await sql`INSERT INTO channels (id, slug, owner_account_id, default_language, status, created_at, updated_at) VALUES (1, 'c', 1, 'en', 'active', ${now}, ${now})`.execute(before.db);
      await sql`INSERT INTO articles (id, channel_id, slug, default_language, status, created_at, updated_at) VALUES (1, 1, 'a', 'en', 'draft', ${now}, ${now})`.execute(before.db);
      await sql`INSERT INTO article_translations (id, article_id, language, status, title, content_markdown, created_at, updated_at) VALUES (1, 1, 'en', 'draft', 'T', 'Body', ${now}, ${now})`.execute(before.db);
      await sql`INSERT INTO revisions (id, translation_id, number, title, content_markdown, content_hash, moderation_state, created_at) VALUES (1, 1, 1, 'T', 'Body', 'h', 'none', ${now})`.execute(before.db);
      const said: string[] = [];
      const pending: string[] = [];
      // 0 ms: every report (the service and npm run migrate pass one every few seconds of a long rebuild).
      await migrateToLatest(before.db, (names) => pending.push(...names), (p) => said.push(describeProgress(p)), 0);
      expect(pending[0]).toBe('0013-heads-before-bodies');
      expect(said).toEqual([
        expect.stringMatching(/^0013-heads-before-bodies: revisions 1 \/ 1 rows \(100 %\), about \d+ s left$/),
        expect.stringMatching(/^0013-heads-before-bodies: article_translations 1 \/ 1 rows \(100 %\), about \d+ s left$/),
        '0013-heads-before-bodies: every row copied (2); switching to the new tables in one transaction',
        expect.stringMatching(/^0013-heads-before-bodies: switched in \d+\.\d s; freeing the old tables$/),
        '0013-heads-before-bodies: freeing the old revisions, 1 / 1 rows (100 %)',
        '0013-heads-before-bodies: freeing the old article_translations, 1 / 1 rows (100 %)',
        expect.stringMatching(/^0013-heads-before-bodies: done \(the switch held the write lock \d+\.\d s\)$/),
      ]);
      // Nothing pending, nothing said.
      said.length = 0;
      expect(await migrateToLatest(before.db, undefined, (p) => said.push(describeProgress(p)), 0)).toEqual([]);
      expect(said).toEqual([]);
    } finally {
      await before.remove();
    }
  });
});
