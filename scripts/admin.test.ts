/**
 * Runs the real `scripts/admin.ts` and `scripts/migrate.ts` as child
 * processes against a temp data dir, checking what a shell user sees: stdout,
 * stderr and exit codes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../server/clock.ts';
import { authenticate } from '../server/domain/account/account.service.ts';
import { openDatabase } from '../server/store/database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dataDir: string;

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { ...process.env, PRESSROOM_DATA_DIR: dataDir, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const admin = (...args: string[]) => run('npx', ['tsx', 'scripts/admin.ts', ...args]);

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-admin-cli-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run admin', { timeout: 60_000 }, () => {
  it('key create prints only a key, which authenticates against the same database', async () => {
    const result = await admin('key', 'create', '--account', 'ana', '--plan', 'pro', '--label', 'cli test');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^prk_[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toContain('Created account "ana" on plan pro.');
    const db = openDatabase(path.join(dataDir, 'pressroom.db'));
    try {
      const principal = await authenticate({ db, clock: systemClock }, result.stdout.trim());
      expect(principal).toMatchObject({ accountName: 'ana', plan: 'pro' });
    } finally {
      await db.destroy();
    }
  });

  it('works through the package script, so KEY=$(npm run --silent admin -- …) captures the key alone', async () => {
    const result = await run('npm', ['run', '--silent', 'admin', '--', 'key', 'create', '--account', 'bob']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^prk_[A-Za-z0-9_-]{43}\n$/);
    const list = await admin('key', 'list');
    expect(list.stdout).toMatch(/^prk_\S{8}\s+bob\s/m);
  });

  it('--help exits 0 and lists the commands, without creating a database', async () => {
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-admin-help-'));
    try {
      const result = await run('npx', ['tsx', 'scripts/admin.ts', '--help'], { PRESSROOM_DATA_DIR: path.join(emptyDir, 'data') });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^ {2}key create\s+Create an API key/m);
      expect(result.stdout).toMatch(/^ {2}channel invite\s+/m);
      expect(fs.existsSync(path.join(emptyDir, 'data'))).toBe(false);
    } finally {
      fs.rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  it('an unknown command exits 2 saying what was wrong and how to fix it', async () => {
    const result = await admin('keys', 'create');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Unknown command "keys". Did you mean "key"?');
    expect(result.stderr).toContain('npm run admin -- --help');
  });

  it('a domain error exits 1 with its message', async () => {
    const result = await admin('key', 'revoke', 'prk_notakey00');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No key has the prefix prk_notakey0.');
  });
});

describe('npm run migrate', { timeout: 60_000 }, () => {
  it('applies pending migrations once, then says the database is up to date', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-migrate-'));
    try {
      const env = { PRESSROOM_DATA_DIR: fresh };
      const first = await run('npx', ['tsx', 'scripts/migrate.ts'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^Applied \d+ migrations? to .*pressroom\.db:\n {2}0001-initial\n/);
      expect(first.stderr).toMatch(/^Applying 0001-initial, .* \(a migration that rebuilds a table takes minutes on a large database; it says where it is every few seconds, and resumes where it stopped if interrupted\)…$/m);
      const second = await run('npx', ['tsx', 'scripts/migrate.ts'], env);
      expect(second.stdout).toMatch(/^Database is up to date/);
      expect((await run('npx', ['tsx', 'scripts/migrate.ts', 'now'], env)).code).toBe(2);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
