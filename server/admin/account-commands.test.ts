import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByName, updateAccount } from '../store/account.repository.ts';
import { changePlan, listAccounts, setAccountPassword } from './account-commands.ts';
import { signIn } from '../domain/account/session.service.ts';
import { createKey } from './key-commands.ts';
import { createTestChannel, openTestDeps, type TestDeps } from '../../test/support/admin-deps.ts';

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
});
afterEach(async () => t.cleanup());

describe('listAccounts', () => {
  it('shows plan, channels owned and the review flag', async () => {
    await createKey(t, { account: 'ana' });
    await createKey(t, { account: 'bob', plan: 'pro' });
    await createTestChannel(t, 'ana', 'tech');
    await createTestChannel(t, 'ana', 'food');
    await updateAccount(t.db, (await findAccountByName(t.db, 'bob'))!.id, { review_required: 1 });
    const lines = (await listAccounts(t)).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+PLAN\s+CHANNELS\s+REVIEW\s+CREATED \(UTC\)$/);
    expect(lines[1]).toMatch(/^ana\s+free\s+2\s+no\s+2026-11-22 12:00$/);
    expect(lines[2]).toMatch(/^bob\s+pro\s+0\s+yes\s+2026-11-22 12:00$/);
  });

  it('says how to create an account when there is none', async () => {
    expect((await listAccounts(t)).stdout).toContain('No accounts yet');
  });
});

describe('changePlan', () => {
  it('changes the plan and warns when channels go past the new limit', async () => {
    await createKey(t, { account: 'ana', plan: 'pro' });
    for (const slug of ['a', 'b', 'c', 'd']) await createTestChannel(t, 'ana', slug);
    const result = await changePlan(t, { account: 'ana', plan: 'free' });
    expect(result.changed).toBe(true);
    expect(result.stdout).toBe('Changed the plan of "ana" from pro to free.\n');
    expect(result.stderr).toContain('owns 4 channels but plan free allows 3; the newest 1 are now read-only');
    expect((await findAccountByName(t.db, 'ana'))?.plan).toBe('free');
    expect((await listAccounts(t)).stdout).toMatch(/ana\s+free\s+4 \(limit 3\)/);
  });

  it('reports an unchanged plan without writing', async () => {
    await createKey(t, { account: 'ana' });
    const result = await changePlan(t, { account: 'ana', plan: 'free' });
    expect(result).toMatchObject({ changed: false, stdout: 'Account "ana" is already on plan free.\n' });
  });

  it('fails for an unknown account, saying how to create it', async () => {
    await expect(changePlan(t, { account: 'zoe', plan: 'pro' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('key create --account zoe'),
    });
  });
});

describe('setAccountPassword', () => {
  it('sets a password read as a secret, never from the command line, and ends the sessions', async () => {
    await createKey(t, { account: 'ana' });
    const first = await setAccountPassword({ ...t, readSecret: async () => 'a long enough password' }, { account: 'ana', generate: false });
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain('Set the password of "ana".');
    expect((await signIn(t, 'ana', 'a long enough password')).ok).toBe(true);
    const generated = await setAccountPassword(t, { account: 'ana', generate: true });
    const password = generated.stdout.trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generated.stderr).toContain('ended its 1 session');
    expect((await signIn(t, 'ana', 'a long enough password')).ok).toBe(false);
    expect((await signIn(t, 'ana', password)).ok).toBe(true);
  });

  it('says what to do without a password to read, with a short one, or for an unknown account', async () => {
    await createKey(t, { account: 'ana' });
    await expect(setAccountPassword(t, { account: 'ana', generate: false })).rejects.toThrow(/pipe it in/);
    await expect(setAccountPassword({ ...t, readSecret: async () => '' }, { account: 'ana', generate: false })).rejects.toThrow(/No password was given/);
    await expect(setAccountPassword({ ...t, readSecret: async () => 'short' }, { account: 'ana', generate: false })).rejects.toThrow(/12 to 1000 characters; this one has 5/);
    await expect(setAccountPassword(t, { account: 'nobody', generate: true })).rejects.toThrow(/No account is named "nobody"/);
  });
});
