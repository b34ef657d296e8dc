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

/** A key as its owner's settings list it (never the key itself). */
export interface OwnKeyView {
  readonly id: number;
  readonly prefix: string;
  readonly label: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

/** The caller's own keys, newest first. */
export async function listOwnKeys(deps: { db: Db }, principal: Principal): Promise<OwnKeyView[]> {
  return (await accounts.listAccountKeys(deps.db, principal.accountId)).map((k) => ({
    id: k.id,
    prefix: k.prefix,
    label: k.label,
    createdAt: k.created_at,
    lastUsedAt: k.last_used_at,
    revokedAt: k.revoked_at,
  }));
}

/** The longest key label. */
export const KEY_LABEL_MAX = 100;

/**
 * Creates a key for the caller's own account.
 * @returns the key in clear (shown once) and its prefix.
 * @throws PressroomError VALIDATION_FAILED for a label over {@link KEY_LABEL_MAX} characters.
 */
export async function createOwnKey(deps: { db: Db; clock: Clock }, principal: Principal, label: string): Promise<{ key: string; prefix: string }> {
  const trimmed = label.trim();
  if ([...trimmed].length > KEY_LABEL_MAX) {
    throw new PressroomError('VALIDATION_FAILED', `A key's label has at most ${KEY_LABEL_MAX} characters. Shorten it: it only says where the key is used.`);
  }
  const created = await createApiKey(deps, { accountName: principal.accountName, label: trimmed || undefined });
  return { key: created.key, prefix: created.prefix };
}

/**
 * Revokes one of the caller's own keys.
 * @throws PressroomError NOT_FOUND when the caller has no such key that is still valid.
 */
export async function revokeOwnKey(deps: { db: Db; clock: Clock }, principal: Principal, keyId: number): Promise<void> {
  if (!(await accounts.revokeAccountKey(deps.db, principal.accountId, keyId, isoNow(deps.clock)))) {
    throw new PressroomError('NOT_FOUND', 'You have no valid key with this id: it was revoked already, or it is not yours. Reload the settings page to see your keys.');
  }
}
