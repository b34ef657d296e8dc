/** Row types of `account_passwords` and `sessions` (the dashboard's sign-in). @module */
import type { Selectable } from 'kysely';

/** An account's password, as its Argon2id hash (PHC string: algorithm, parameters, salt, hash). */
export interface AccountPasswordTable {
  account_id: number;
  hash: string;
  changed_at: string;
}

/** A signed-in browser: only the SHA-256 of its token is stored. */
export interface SessionTable {
  token_hash: string;
  account_id: number;
  created_at: string;
  /** Kept to the minute; the session ends after an idle spell from here. */
  last_seen_at: string;
  /** The absolute end, whatever the use. */
  expires_at: string;
}

export type SessionRow = Selectable<SessionTable>;

/** An account that decides moderation in the dashboard (`admin account admin`). */
export interface AdministratorTable {
  account_id: number;
  granted_at: string;
}
