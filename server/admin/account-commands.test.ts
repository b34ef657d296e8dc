import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByName, updateAccount } from '../store/account.repository.ts';
import { changePlan, listAccounts } from './account-commands.ts';
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
