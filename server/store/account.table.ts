/** Row types of `accounts` and `api_keys`. @module */
import type { Generated, Selectable } from 'kysely';

/** An account: owns channels and keys; its plan decides what it may do. */
export interface AccountTable {
  id: Generated<number>;
  name: string;
  plan: string;
  /** 1 when an administrator wants every publication of this account reviewed by a person. */
  review_required: Generated<number>;
  created_at: string;
}

/** An API key: only the SHA-256 hash is stored; `prefix` identifies it in listings. */
export interface ApiKeyTable {
  id: Generated<number>;
  account_id: number;
  prefix: string;
  key_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export type AccountRow = Selectable<AccountTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
