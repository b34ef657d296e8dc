/**
 * Signing in to the dashboard: passwords set by an administrator (or the
 * first run), sessions made at sign-in and ended by sign-out. A session is
 * a 256-bit random token held in the browser's cookie; the store keeps its
 * SHA-256 only. Sessions and API keys never stand for each other: the
 * publishing API reads keys from headers only, the dashboard reads its
 * cookie only.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db } from '../../store/database.ts';
import { findAccountByName } from '../../store/account.repository.ts';
import * as store from '../../store/session.repository.ts';
import { PressroomError } from '../errors.ts';
import { findControlCharacter } from '../schema-parts.ts';
import type { Principal } from './account.service.ts';
import { toPlanId } from './account.service.ts';
import { decoyHash, hashPassword, needsRehash, PASSWORD_LENGTH, verifyPassword } from './password-hash.ts';

/** How long a session lasts unused. */
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
/** How long a session lasts at most, however it is used. */
export const SESSION_MAX_MS = 30 * 24 * 3_600_000;
/** How precisely a session's last use is kept (a write per dashboard page would be a write per click). */
const SEEN_RESOLUTION_MS = 60_000;

/** A signed-in caller of the dashboard: the account as the domain's services know callers. */
export interface SessionPrincipal extends Principal {
  /** The SHA-256 of the session's token (what sign-out ends). */
  readonly sessionHash: string;
  /** Whether the account decides moderation (`admin account admin`). */
  readonly administrator: boolean;
}

/** Hashes a session token for storage and lookup (256 random bits: a fast hash is enough). */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** @throws PressroomError VALIDATION_FAILED when the password is too short or too long. */
export function assertPasswordAcceptable(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max) {
    throw new PressroomError(
      'VALIDATION_FAILED',
      `A password has ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters; this one has ${length}. A few unrelated words make a long password that is easy to remember.`,
    );
  }
}

/**
 * Sets an account's password and ends its sessions (a new password locks out whoever knew the old one).
 * @throws PressroomError NOT_FOUND when no account has the name, VALIDATION_FAILED for a bad password.
 */
export async function setPassword(deps: { db: Db; clock: Clock }, accountName: string, password: string): Promise<{ sessionsEnded: number }> {
  assertPasswordAcceptable(password);
  const account = await findAccountByName(deps.db, accountName);
  if (!account) {
    throw new PressroomError('NOT_FOUND', `No account is named "${accountName}". List the accounts with "npm run admin -- account list".`);
  }
  const hashed = await hashPassword(password);
  return deps.db.transaction().execute(async (trx) => {
    await store.putPasswordHash(trx, account.id, hashed, isoNow(deps.clock));
    return { sessionsEnded: await store.deleteAccountSessions(trx, account.id) };
  });
}

/** A new random password (144 bits in 24 characters), for a first run or `account password --generate`. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** What a sign-in gave: a new session's token for the cookie, or no session. */
export type SignInResult = { readonly ok: true; readonly token: string; readonly principal: SessionPrincipal } | { readonly ok: false };

/**
 * Checks a name and password and, when they match, opens a new session (always a new token: a token the browser
 * held before, perhaps planted, never becomes signed in). Takes as long for an unknown name as for a wrong password.
 */
export async function signIn(deps: { db: Db; clock: Clock }, accountName: string, password: string): Promise<SignInResult> {
  // No account name holds a control character (Postgres cannot even compare text holding U+0000): such a name signs in no one.
  const account = accountName.length <= 64 && findControlCharacter(accountName) === null ? await findAccountByName(deps.db, accountName) : undefined;
  const stored = account ? await store.findPasswordHash(deps.db, account.id) : undefined;
  const matches = await verifyPassword(stored ?? (await decoyHash()), password.slice(0, PASSWORD_LENGTH.max * 4));
  if (!account || !stored || !matches) return { ok: false };
  if (needsRehash(stored)) await store.putPasswordHash(deps.db, account.id, await hashPassword(password), isoNow(deps.clock));
  const token = `prs_${randomBytes(32).toString('base64url')}`;
  const now = deps.clock.now();
  const sessionHash = hashSessionToken(token);
  await store.insertSession(deps.db, {
    token_hash: sessionHash,
    account_id: account.id,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_MAX_MS).toISOString(),
  });
  const administrator = await store.isAdministrator(deps.db, account.id);
  return { ok: true, token, principal: { accountId: account.id, accountName: account.name, plan: toPlanId(account.plan), keyId: 0, sessionHash, administrator } };
}

/** The signed-in account of a session token, or null when the token is unknown, ended or past its time. */
export async function sessionPrincipal(deps: { db: Db; clock: Clock }, token: string | undefined): Promise<SessionPrincipal | null> {
  if (!token || !/^prs_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const sessionHash = hashSessionToken(token);
  const found = await store.findSession(deps.db, sessionHash);
  if (!found) return null;
  const now = deps.clock.now().getTime();
  const idleEnd = Date.parse(found.session.last_seen_at) + SESSION_IDLE_MS;
  if (now >= Date.parse(found.session.expires_at) || now >= idleEnd) {
    await store.deleteSession(deps.db, sessionHash);
    return null;
  }
  if (now - Date.parse(found.session.last_seen_at) >= SEEN_RESOLUTION_MS) await store.touchSession(deps.db, sessionHash, new Date(now).toISOString());
  const administrator = await store.isAdministrator(deps.db, found.account.id);
  return { accountId: found.account.id, accountName: found.account.name, plan: toPlanId(found.account.plan), keyId: 0, sessionHash, administrator };
}

/** Ends the session (sign-out). */
export async function signOut(deps: { db: Db }, principal: SessionPrincipal): Promise<void> {
  await store.deleteSession(deps.db, principal.sessionHash);
}

/** Ends every session of the account, this one included (sign-out everywhere). @returns how many ended. */
export async function signOutEverywhere(deps: { db: Db }, principal: SessionPrincipal): Promise<number> {
  return store.deleteAccountSessions(deps.db, principal.accountId);
}

/** Whether the account can sign in at all (has a password). */
export async function hasPassword(deps: { db: Db }, accountId: number): Promise<boolean> {
  return (await store.findPasswordHash(deps.db, accountId)) !== undefined;
}

/**
 * Makes an account an administrator of the dashboard (it decides moderation there), or not.
 * @throws PressroomError NOT_FOUND when no account has the name.
 */
export async function setAdministrator(deps: { db: Db; clock: Clock }, accountName: string, on: boolean): Promise<{ changed: boolean }> {
  const account = await findAccountByName(deps.db, accountName);
  if (!account) {
    throw new PressroomError('NOT_FOUND', `No account is named "${accountName}". List the accounts with "npm run admin -- account list".`);
  }
  return { changed: await store.setAdministrator(deps.db, account.id, on, isoNow(deps.clock)) };
}
