/**
 * Signing in to the dashboard (issue 37): `account_passwords` holds an
 * account's Argon2id hash (the parameters are part of the hash, so they can
 * be raised later), apart from `accounts`, so the hash never travels with an
 * account row; `sessions` holds the SHA-256 of each session token (the token
 * itself lives only in the browser's cookie), with its idle and absolute
 * ends; `administrators` names the accounts that decide moderation in the
 * dashboard. New tables only: no rewrite.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE account_passwords (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    changed_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX sessions_by_account ON sessions (account_id)`.execute(db);
  await sql`CREATE TABLE administrators (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    granted_at TEXT NOT NULL
  )`.execute(db);
}

/** Drops them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE administrators`.execute(db);
  await sql`DROP TABLE sessions`.execute(db);
  await sql`DROP TABLE account_passwords`.execute(db);
}
