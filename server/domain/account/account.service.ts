/**
 * Accounts and keys: authentication for the API and the admin operations
 * behind `npm run admin`.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import * as accounts from '../../store/account.repository.ts';
import type { AccountRow } from '../../store/account.table.ts';
import { PressroomError } from '../errors.ts';
import { generateApiKey, hashApiKey, hashesEqual } from './api-key.ts';
import { isPlanId, type PlanId } from './plans.ts';

/** The authenticated caller of the publishing API. */
export interface Principal {
  readonly accountId: number;
  readonly accountName: string;
  readonly plan: PlanId;
  readonly keyId: number;
}

/** How precisely a key's last use is kept (`admin key list` shows it): written at most once a minute. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/**
 * Resolves an API key to its account.
 * @throws PressroomError AUTH_MISSING when no key was sent, AUTH_INVALID when it is unknown or revoked.
 */
export async function authenticate(deps: { db: Db; clock: Clock }, rawKey: string | undefined): Promise<Principal> {
  if (!rawKey) throw new PressroomError('AUTH_MISSING');
  const hash = hashApiKey(rawKey.trim());
  const found = await accounts.findActiveKeyByHash(deps.db, hash);
  // The lookup is by hash; comparing again in constant time keeps timing free of key content.
  if (!found || !hashesEqual(found.key.key_hash, hash)) throw new PressroomError('AUTH_INVALID');
  // The last use is kept to the minute: a write per request made every burst of requests a burst of writes.
  const now = isoNow(deps.clock);
  const last = found.key.last_used_at === null ? Number.NEGATIVE_INFINITY : Date.parse(found.key.last_used_at);
  if (!(Date.parse(now) - last < KEY_USE_RESOLUTION_MS)) await accounts.touchApiKey(deps.db, found.key.id, now);
  return {
    accountId: found.account.id,
    accountName: found.account.name,
    plan: toPlanId(found.account.plan),
    keyId: found.key.id,
  };
}

/** Reads a stored plan; an unknown plan (removed from config) falls back to the most restrictive. */
export function toPlanId(plan: string): PlanId {
  return isPlanId(plan) ? plan : 'reader';
}

/** Validates an account name given to the admin CLI. */
export function assertAccountName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(name)) {
    throw new PressroomError(
      'VALIDATION_FAILED',
      `Account name "${name}" is not valid. Use 1–64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit.`,
    );
  }
}

/**
 * Finds an account by name, creating it with `plan` when missing.
 * Runs inside the caller's transaction.
 */
export async function ensureAccount(
  db: Executor,
  clock: Clock,
  name: string,
  plan: PlanId,
): Promise<{ account: AccountRow; created: boolean }> {
  assertAccountName(name);
  const existing = await accounts.findAccountByName(db, name);
  if (existing) return { account: existing, created: false };
  return { account: await accounts.insertAccount(db, { name, plan, created_at: isoNow(clock) }), created: true };
}

/**
 * Creates a key for an account (creating the account when needed).
 * @returns the key in clear: the only time it exists outside the caller.
 */
export async function createApiKey(
  deps: { db: Db; clock: Clock },
  input: { accountName: string; plan?: PlanId; label?: string },
): Promise<{ key: string; prefix: string; account: AccountRow; accountCreated: boolean }> {
  return deps.db.transaction().execute(async (trx) => {
    const { account, created } = await ensureAccount(trx, deps.clock, input.accountName, input.plan ?? 'free');
    if (!created && input.plan && account.plan !== input.plan) {
      await accounts.updateAccount(trx, account.id, { plan: input.plan });
      account.plan = input.plan;
    }
    const generated = generateApiKey();
    await accounts.insertApiKey(trx, {
      account_id: account.id,
      prefix: generated.prefix,
      key_hash: generated.hash,
      label: input.label ?? null,
      created_at: isoNow(deps.clock),
    });
    return { key: generated.key, prefix: generated.prefix, account, accountCreated: created };
  });
}
