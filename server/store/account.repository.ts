/**
 * Accounts and API keys. Functions take the executor first; the caller owns
 * the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { AccountRow, ApiKeyRow } from './account.table.ts';

/** Finds an account by its unique name. */
export async function findAccountByName(db: Executor, name: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Finds an account by id. */
export async function findAccountById(db: Executor, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts an account and returns it. */
export async function insertAccount(db: Executor, row: { name: string; plan: string; created_at: string }): Promise<AccountRow> {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Changes an account's plan or review flag. */
export async function updateAccount(
  db: Executor,
  id: number,
  patch: { plan?: string; review_required?: number },
): Promise<void> {
  await db.updateTable('accounts').set(patch).where('id', '=', id).execute();
}

/** Every account, oldest first. */
export async function listAccounts(db: Executor): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().orderBy('id').execute();
}

/** Inserts a key (hash only). */
export async function insertApiKey(
  db: Executor,
  row: { account_id: number; prefix: string; key_hash: string; label: string | null; created_at: string },
): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values({ ...row, revoked_at: null, last_used_at: null }).returningAll().executeTakeFirstOrThrow();
}

/** The unrevoked key with this hash, with its account. */
export async function findActiveKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<{ key: ApiKeyRow; account: AccountRow } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.prefix',
      'api_keys.key_hash',
      'api_keys.label',
      'api_keys.created_at as key_created_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'accounts.id as account_id',
      'accounts.name',
      'accounts.plan',
      'accounts.review_required',
      'accounts.created_at as account_created_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    key: {
      id: row.key_id,
      account_id: row.account_id,
      prefix: row.prefix,
      key_hash: row.key_hash,
      label: row.label,
      created_at: row.key_created_at,
      revoked_at: row.revoked_at,
      last_used_at: row.last_used_at,
    },
    account: {
      id: row.account_id,
      name: row.name,
      plan: row.plan,
      review_required: row.review_required,
      created_at: row.account_created_at,
    },
  };
}

/** Marks a key as used now. */
export async function touchApiKey(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/**
 * Revokes the key whose prefix is given.
 * @returns how many keys were revoked (0 when none matched or it was already revoked).
 */
export async function revokeApiKeyByPrefix(db: Executor, prefix: string, at: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every key with its account name, for listings. */
export async function listApiKeys(db: Executor): Promise<Array<ApiKeyRow & { account_name: string }>> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select('accounts.name as account_name')
    .orderBy('api_keys.id')
    .execute();
}

/** The account's keys, newest first (its settings page). */
export async function listAccountKeys(db: Executor, accountId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').execute();
}

/**
 * Revokes one of the account's keys by id (a key of another account is left alone).
 * @returns whether a key was revoked (false when it is not the account's, or was revoked already).
 */
export async function revokeAccountKey(db: Executor, accountId: number, keyId: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
