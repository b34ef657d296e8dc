import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hash } from '@node-rs/argon2';
import { createApiKey } from './account.service.ts';
import { SESSION_IDLE_MS, sessionPrincipal, setPassword, signIn, signOut, signOutEverywhere } from './session.service.ts';
import { findPasswordHash, putPasswordHash } from '../../store/session.repository.ts';
import { openTestDeps, type TestDeps } from '../../../test/support/admin-deps.ts';

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
  await createApiKey(t, { accountName: 'ana' });
  await setPassword(t, 'ana', 'a long enough password');
});
afterEach(async () => t.cleanup());

const HOUR = 3_600_000;

describe('sessions', () => {
  it('last while used, end after an idle week or thirty days in all, and end at sign-out', async () => {
    const cases: Array<{ steps: number[]; alive: boolean }> = [
      { steps: [0], alive: true },
      { steps: [SESSION_IDLE_MS - 1], alive: true },
      { steps: [SESSION_IDLE_MS], alive: false },
      // Used every six days, it lives to its absolute end and no further.
      { steps: [6 * 24 * HOUR, 6 * 24 * HOUR, 6 * 24 * HOUR, 6 * 24 * HOUR, 5 * 24 * HOUR], alive: true },
      { steps: [6 * 24 * HOUR, 6 * 24 * HOUR, 6 * 24 * HOUR, 6 * 24 * HOUR, 6 * 24 * HOUR], alive: false },
    ];
    for (const { steps, alive } of cases) {
      const opened = await signIn(t, 'ana', 'a long enough password');
      if (!opened.ok) throw new Error('sign-in failed');
      let principal = null;
      for (const step of steps) {
        t.clock.advance(step);
        principal = await sessionPrincipal(t, opened.token);
      }
      expect(principal !== null, steps.join(' + ')).toBe(alive);
    }
  });

  it('stand for their account as the domain knows callers, and end one by one or all at once', async () => {
    const a = await signIn(t, 'ana', 'a long enough password');
    const b = await signIn(t, 'ana', 'a long enough password');
    if (!a.ok || !b.ok) throw new Error('sign-in failed');
    expect(await sessionPrincipal(t, a.token)).toMatchObject({ accountName: 'ana', plan: 'free' });
    await signOut(t, a.principal);
    expect(await sessionPrincipal(t, a.token)).toBeNull();
    expect(await sessionPrincipal(t, b.token)).not.toBeNull();
    expect(await signOutEverywhere(t, b.principal)).toBe(1);
    expect(await sessionPrincipal(t, b.token)).toBeNull();
    // An API key is no session token.
    expect(await sessionPrincipal(t, (await createApiKey(t, { accountName: 'ana' })).key)).toBeNull();
  });

  it('store a stronger hash at a sign-in whose hash was made with older parameters', async () => {
    const account = (await t.db.selectFrom('accounts').select('id').where('name', '=', 'ana').executeTakeFirstOrThrow()).id;
    await putPasswordHash(t.db, account, await hash('a long enough password', { memoryCost: 4096, timeCost: 3, parallelism: 1, algorithm: 2 }), '2026-01-01T00:00:00.000Z');
    expect((await signIn(t, 'ana', 'a long enough password')).ok).toBe(true);
    expect(await findPasswordHash(t.db, account)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
