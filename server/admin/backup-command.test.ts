import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQLite } from '../store/sqlite-binding.ts';
import { UsageError } from './args.ts';
import { backupCommand } from './backup-command.ts';
import { createKey } from './key-commands.ts';
import { openTestDeps, type TestDeps } from '../../test/support/admin-deps.ts';

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
});
afterEach(async () => t.cleanup());

/** Opens a backup read-only and answers one value. */
function readBackup<T>(file: string, query: string): T {
  const copy = new SQLite(file, { readonly: true });
  try {
    return copy.prepare(query).pluck().get() as T;
  } finally {
    copy.close();
  }
}

describe('backup FILE', () => {
  it('writes one private, self-contained file that passes integrity_check and holds the data', async () => {
    await createKey(t, { account: 'ana' });
    const file = path.join(t.dir, 'copy.db');
    const result = await backupCommand(t, file);
    expect(result.stdout).toMatch(new RegExp(`^Backed up .*pressroom\\.db to ${file} \\(\\d+ KB, \\d+ pages, integrity ok, [\\d.]+ s\\)\\.\\n$`));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(t.dir).sort()).toEqual(['copy.db', 'pressroom.db', 'pressroom.db-shm', 'pressroom.db-wal']);
    expect(readBackup<string>(file, 'pragma journal_mode')).toBe('delete');
    expect(readBackup<string>(file, 'pragma integrity_check')).toBe('ok');
    expect(readBackup<string>(file, "select name from accounts where name = 'ana'")).toBe('ana');
  });

  it('refuses a file that exists, a missing folder and the database itself, as usage errors that say what to do', async () => {
    fs.writeFileSync(path.join(t.dir, 'old.db'), 'keep me');
    await expect(backupCommand(t, path.join(t.dir, 'old.db'))).rejects.toThrow(/exists already; a backup never replaces a file/);
    expect(fs.readFileSync(path.join(t.dir, 'old.db'), 'utf8')).toBe('keep me');
    await expect(backupCommand(t, path.join(t.dir, 'nowhere', 'x.db'))).rejects.toThrow(/does not exist. Create it first \(mkdir -p/);
    await expect(backupCommand(t, path.join(t.dir, 'pressroom.db-wal'))).rejects.toThrow(/is the database itself/);
    await expect(backupCommand(t, '')).rejects.toBeInstanceOf(UsageError);
  });

  it('shows its progress on a large database, a tenth at a time', async () => {
    await sql`create table filler (x blob)`.execute(t.db);
    // ~5,000 pages: several steps of BACKUP_PAGES_PER_STEP.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 5000) insert into filler select randomblob(3500) from n`.execute(t.db);
    const lines: string[] = [];
    const result = await backupCommand({ ...t, progress: (line) => lines.push(line) }, path.join(t.dir, 'big.db'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBeLessThanOrEqual(9);
    for (const line of lines) expect(line).toMatch(/^Backup: \d0 % \([\d,]+ of [\d,]+ pages\)$/);
    expect(result.stdout).toMatch(/MB, [\d,]+ pages, integrity ok/);
  });
});
