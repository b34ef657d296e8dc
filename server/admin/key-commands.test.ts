import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authenticate } from '../domain/account/account.service.ts';
import { PressroomError } from '../domain/errors.ts';
import { findAccountByName, listApiKeys } from '../store/account.repository.ts';
import { UsageError } from './args.ts';
import { createKey, listKeys, revokeKey } from './key-commands.ts';
import { openTestDeps, type TestDeps } from '../../test/support/admin-deps.ts';

const KEY_PATTERN = /^prk_[A-Za-z0-9_-]{43}$/;
let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
});
afterEach(async () => t.cleanup());

describe('createKey', () => {
  it('creates the account on plan free and prints only the key on stdout', async () => {
    const result = await createKey(t, { account: 'ana', label: 'laptop' });
    expect(result.key).toMatch(KEY_PATTERN);
    expect(result.stdout).toBe(`${result.key}\n`);
    expect(result.accountCreated).toBe(true);
    expect(result.stderr).toContain('Created account "ana" on plan free.');
    expect(result.stderr).toContain(`Created key ${result.prefix} for "ana" (laptop)`);
    expect(result.stderr).not.toContain(result.key);
    const principal = await authenticate(t, result.key);
    expect(principal).toMatchObject({ accountName: 'ana', plan: 'free' });
    expect((await listApiKeys(t.db))[0]).toMatchObject({ label: 'laptop', created_at: '2026-11-22T12:00:00.000Z' });
  });

  it('reuses an existing account and changes its plan only when --plan is given', async () => {
    await createKey(t, { account: 'ana', plan: 'pro' });
    const same = await createKey(t, { account: 'ana' });
    expect(same.accountCreated).toBe(false);
    expect(same.previousPlan).toBeNull();
    expect((await findAccountByName(t.db, 'ana'))?.plan).toBe('pro');
    const moved = await createKey(t, { account: 'ana', plan: 'reader' });
    expect(moved.previousPlan).toBe('pro');
    expect(moved.stderr).toContain('Changed the plan of "ana" from pro to reader.');
    expect(moved.stderr).toContain('no API publishing');
    expect((await findAccountByName(t.db, 'ana'))?.plan).toBe('reader');
  });

  it('rejects invalid account names and unreadable labels', async () => {
    await expect(createKey(t, { account: 'no spaces' })).rejects.toThrow(PressroomError);
    await expect(createKey(t, { account: 'ana', label: 'x'.repeat(201) })).rejects.toThrow(UsageError);
    await expect(createKey(t, { account: 'ana', label: 'two\nlines' })).rejects.toThrow(/control characters/);
    expect(await findAccountByName(t.db, 'ana')).toBeUndefined();
  });
});

describe('revokeKey', () => {
  it('revokes by prefix or by whole key, after which the key no longer authenticates', async () => {
    const first = await createKey(t, { account: 'ana', label: 'ci' });
    const second = await createKey(t, { account: 'ana' });
    t.clock.advance(60_000);
    const byPrefix = await revokeKey(t, first.prefix);
    expect(byPrefix.revoked).toBe(1);
    expect(byPrefix.stdout).toBe(`Revoked key ${first.prefix} of "ana" (ci).\n`);
    await expect(authenticate(t, first.key)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    expect((await revokeKey(t, second.key)).revoked).toBe(1);
    await expect(authenticate(t, second.key)).rejects.toMatchObject({ code: 'AUTH_INVALID' });
    expect((await listApiKeys(t.db)).map((k) => k.revoked_at)).toEqual(['2026-11-22T12:01:00.000Z', '2026-11-22T12:01:00.000Z']);
  });

  it('succeeds with a note when the key was already revoked', async () => {
    const { prefix } = await createKey(t, { account: 'ana' });
    await revokeKey(t, prefix);
    const again = await revokeKey(t, prefix);
    expect(again.revoked).toBe(0);
    expect(again.stdout).toContain('was already revoked on 2026-11-22 12:00');
  });

  it('fails clearly for an unknown or too short prefix', async () => {
    await expect(revokeKey(t, 'prk_nothere00')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('No key has the prefix prk_nothere0') });
    await expect(revokeKey(t, 'prk_ab')).rejects.toThrow(/too short.*first 12 characters/);
  });
});

describe('listKeys', () => {
  it('lists prefix, account, label, created, last used and revoked', async () => {
    const used = await createKey(t, { account: 'ana', label: 'laptop' });
    t.clock.advance(5 * 60_000);
    await authenticate(t, used.key);
    const revoked = await createKey(t, { account: 'bob' });
    await revokeKey(t, revoked.prefix);
    const lines = (await listKeys(t)).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PREFIX\s+ACCOUNT\s+LABEL\s+CREATED \(UTC\)\s+LAST USED\s+REVOKED$/);
    expect(lines[1]).toMatch(new RegExp(`^${used.prefix}\\s+ana\\s+laptop\\s+2026-11-22 12:00\\s+2026-11-22 12:05\\s+-$`));
    expect(lines[2]).toMatch(new RegExp(`^${revoked.prefix}\\s+bob\\s+-\\s+2026-11-22 12:05\\s+-\\s+2026-11-22 12:05$`));
  });

  it('says how to create a key when there is none', async () => {
    expect((await listKeys(t)).stdout).toContain('No keys yet');
  });
});
