/**
 * Looks keys up by their listed prefix, for revocation by an administrator.
 * Prefixes are not unique in the schema (48 random bits), so this returns
 * every match. The caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { ApiKeyRow } from './account.table.ts';

/** Every key (revoked or not) with this exact prefix, with its account name, oldest first. */
export async function findApiKeysByPrefix(db: Executor, prefix: string): Promise<Array<ApiKeyRow & { account_name: string }>> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select('accounts.name as account_name')
    .where('api_keys.prefix', '=', prefix)
    .orderBy('api_keys.id')
    .execute();
}
