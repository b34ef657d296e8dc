import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../config.ts';
import { describeFailure, runAdmin, type OpenedAdmin } from './run-admin.ts';
import { openTestDeps, type TestDeps } from '../../test/support/admin-deps.ts';

let t: TestDeps;
let closed: number;
beforeEach(async () => {
  t = await openTestDeps();
  closed = 0;
});
afterEach(async () => t.cleanup());

const open = vi.fn(async (): Promise<OpenedAdmin> => ({
  deps: t,
  notes: ['Database migrated.'],
  close: async () => void closed++,
}));

describe('runAdmin', () => {
  it('prints help without opening the database', async () => {
    open.mockClear();
    const result = await runAdmin(['--help'], open);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toContain('Commands:');
    expect(open).not.toHaveBeenCalled();
  });

  it('exits 2 on a usage error, before opening the database', async () => {
    open.mockClear();
    const result = await runAdmin(['account', 'plan', '--account', 'ana', '--plan', 'gold'], open);
    expect(result).toMatchObject({ exitCode: 2, stdout: '', stderr: 'Plan "gold" does not exist. Choose one of: reader, free, pro.\n' });
    const unknown = await runAdmin(['nope'], open);
    expect(unknown.exitCode).toBe(2);
    expect(open).toHaveBeenCalledTimes(1); // the plan is checked once the command runs; "nope" never opens
    expect(closed).toBe(1);
  });

  it('runs a command, putting notes from opening on stderr, and closes the database', async () => {
    const result = await runAdmin(['key', 'create', '--account', 'ana', '--label', 'ci'], open);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^prk_[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toMatch(/^Database migrated\.\nCreated account "ana"/);
    expect(closed).toBe(1);
  });

  it('exits 1 with the message of a domain error', async () => {
    const result = await runAdmin(['key', 'revoke', 'prk_missing00'], open);
    expect(result).toMatchObject({ exitCode: 1, stdout: '', stderr: expect.stringMatching(/^Error: No key has the prefix prk_missing0\./) });
  });

  it('exits 2 on a configuration error and 1 with the stack on anything unexpected', async () => {
    const badConfig = await runAdmin(['list'], async () => {
      throw new ConfigError(['PORT: bad']);
    });
    expect(badConfig).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('PORT: bad') });
    const broken = await runAdmin(['list'], async () => {
      throw new Error('disk full');
    });
    expect(broken).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('Unexpected error: Error: disk full') });
  });
});

describe('describeFailure', () => {
  it('says a busy database is temporary and the command can be run again, without a stack', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const { stderr, exitCode } = describeFailure(busy);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^Error: The database stayed busy.*Run the command again\.\n$/);
  });
});
