/**
 * Passwords and sessions of the dashboard. The caller owns the transaction.
 * @module
 */
import type { Executor } from './database.ts';
import type { AccountRow } from './account.table.ts';
import type { SessionRow } from './session.table.ts';

/** The account's password hash, if it has one. */
export async function findPasswordHash(db: Executor, accountId: number): Promise<string | undefined> {
  const row = await db.selectFrom('account_passwords').select('hash').where('account_id', '=', accountId).executeTakeFirst();
  return row?.hash;
}

/** Sets (or replaces) the account's password hash. */
export async function putPasswordHash(db: Executor, accountId: number, hash: string, at: string): Promise<void> {
  await db
    .insertInto('account_passwords')
    .values({ account_id: accountId, hash, changed_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ hash, changed_at: at }))
    .execute();
}

/** Stores a new session. */
export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session with this token hash, with its account. */
export async function findSession(db: Executor, tokenHash: string): Promise<{ session: SessionRow; account: AccountRow } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select([
      'sessions.token_hash',
      'sessions.account_id',
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'accounts.name',
      'accounts.plan',
      'accounts.review_required',
      'accounts.created_at as account_created_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: { token_hash: row.token_hash, account_id: row.account_id, created_at: row.created_at, last_seen_at: row.last_seen_at, expires_at: row.expires_at },
    account: { id: row.account_id, name: row.name, plan: row.plan, review_required: row.review_required, created_at: row.account_created_at },
  };
}

/** Marks a session as seen now. */
export async function touchSession(db: Executor, tokenHash: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute();
}

/** Ends one session. */
export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of an account. @returns how many ended. */
export async function deleteAccountSessions(db: Executor, accountId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many sessions the account has open. */
export async function countAccountSessions(db: Executor, accountId: number): Promise<number> {
  const row = await db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes sessions past their absolute end (a sweep; expired ones are refused anyway). */
export async function deleteSessionsEndedBy(db: Executor, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', at).execute();
}

/** Whether the account is an administrator. */
export async function isAdministrator(db: Executor, accountId: number): Promise<boolean> {
  return (await db.selectFrom('administrators').select('account_id').where('account_id', '=', accountId).executeTakeFirst()) !== undefined;
}

/** Makes the account an administrator, or not. @returns whether anything changed. */
export async function setAdministrator(db: Executor, accountId: number, on: boolean, at: string): Promise<boolean> {
  if (on) {
    if (await isAdministrator(db, accountId)) return false;
    await db.insertInto('administrators').values({ account_id: accountId, granted_at: at }).execute();
    return true;
  }
  const result = await db.deleteFrom('administrators').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
