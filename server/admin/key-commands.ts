/**
 * `key create`, `key revoke` and `key list`.
 * @module
 */
import { isoNow } from '../clock.ts';
import { assertAccountName, createApiKey, toPlanId } from '../domain/account/account.service.ts';
import { KEY_PREFIX_LENGTH } from '../domain/account/api-key.ts';
import { planFeatures, type PlanId } from '../domain/account/plans.ts';
import { PressroomError } from '../domain/errors.ts';
import { findAccountByName, listApiKeys, revokeApiKeyByPrefix } from '../store/account.repository.ts';
import { findApiKeysByPrefix } from '../store/api-key-prefix.repository.ts';
import { UsageError } from './args.ts';
import { output, type AdminDeps, type CommandOutput } from './admin-common.ts';
import { formatTable, formatTime } from './table.ts';

/** Longest label accepted; labels are for listings, not documents. */
export const MAX_LABEL_LENGTH = 200;

/** Result of {@link createKey}: the output plus what happened, for callers and tests. */
export interface CreateKeyResult extends CommandOutput {
  readonly key: string;
  readonly prefix: string;
  readonly accountCreated: boolean;
  /** The plan before this command changed it, when it did. */
  readonly previousPlan: string | null;
}

/**
 * Creates a key, creating the account when missing (plan `free` unless given)
 * or moving an existing account to `plan` when given. stdout holds only the
 * key, so `KEY=$(npm run --silent admin -- key create …)` captures it.
 */
export async function createKey(
  deps: AdminDeps,
  input: { account: string; plan?: PlanId; label?: string },
): Promise<CreateKeyResult> {
  assertAccountName(input.account);
  if (input.label !== undefined && input.label.length > MAX_LABEL_LENGTH) {
    throw new UsageError(`The label is ${input.label.length} characters long; keep it to ${MAX_LABEL_LENGTH}.`);
  }
  if (input.label !== undefined && /[\u0000-\u001f\u007f-\u009f]/.test(input.label)) {
    throw new UsageError('The label contains control characters (such as a newline). Give it as one line of plain text.');
  }
  // Read before, only to tell the administrator whether the plan changed;
  // createApiKey does the change itself, inside its transaction.
  const before = await findAccountByName(deps.db, input.account);
  const created = await createApiKey(deps, { accountName: input.account, plan: input.plan, label: input.label });
  const plan = created.account.plan;
  const previousPlan = before && before.plan !== plan ? before.plan : null;
  const notes: string[] = [];
  if (created.accountCreated) notes.push(`Created account "${input.account}" on plan ${plan}.`);
  if (previousPlan) notes.push(`Changed the plan of "${input.account}" from ${previousPlan} to ${plan}.`);
  notes.push(`Created key ${created.prefix} for "${input.account}"${input.label ? ` (${input.label})` : ''}. It is shown once: store it now.`);
  if (!planFeatures(toPlanId(plan)).apiPublishing) {
    notes.push(`Note: plan ${plan} has no API publishing, so this key is refused by the publishing API until the plan changes.`);
  }
  return { ...output([created.key], notes), key: created.key, prefix: created.prefix, accountCreated: created.accountCreated, previousPlan };
}

/**
 * Revokes the key(s) with a prefix. Accepts the whole key too (its first
 * 12 characters are the prefix), since that is what people have at hand.
 * Revoking a revoked key succeeds with a note, so scripts can repeat it.
 * @throws PressroomError NOT_FOUND when no key has the prefix.
 */
export async function revokeKey(deps: AdminDeps, prefixOrKey: string): Promise<CommandOutput & { revoked: number }> {
  const given = prefixOrKey.trim();
  if (given.length < KEY_PREFIX_LENGTH) {
    throw new UsageError(
      `"${given}" is too short: give the key's prefix, its first ${KEY_PREFIX_LENGTH} characters (e.g. prk_AbCdEfGh), as shown by "npm run admin -- key list".`,
    );
  }
  const prefix = given.slice(0, KEY_PREFIX_LENGTH);
  return deps.db.transaction().execute(async (trx) => {
    const keys = await findApiKeysByPrefix(trx, prefix);
    if (keys.length === 0) {
      throw new PressroomError('NOT_FOUND', `No key has the prefix ${prefix}. See the keys with "npm run admin -- key list".`);
    }
    const revoked = await revokeApiKeyByPrefix(trx, prefix, isoNow(deps.clock));
    const lines = keys.map((k) =>
      k.revoked_at
        ? `Key ${prefix} of "${k.account_name}" was already revoked on ${formatTime(k.revoked_at)}.`
        : `Revoked key ${prefix} of "${k.account_name}"${k.label ? ` (${k.label})` : ''}.`,
    );
    return { ...output(lines), revoked };
  });
}

/** Every key: prefix, account, label, created, last used, revoked (times in UTC). */
export async function listKeys(deps: AdminDeps): Promise<CommandOutput> {
  const keys = await listApiKeys(deps.db);
  if (keys.length === 0) {
    return output(['No keys yet. Create one with "npm run admin -- key create --account NAME".']);
  }
  const rows = keys.map((k) => [
    k.prefix,
    k.account_name,
    k.label ?? '',
    formatTime(k.created_at),
    formatTime(k.last_used_at),
    formatTime(k.revoked_at),
  ]);
  return output([formatTable(['PREFIX', 'ACCOUNT', 'LABEL', 'CREATED (UTC)', 'LAST USED', 'REVOKED'], rows)]);
}
