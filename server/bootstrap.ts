/**
 * What a process that writes does once before its work: the first-run
 * set-up (the instance secret and a local account with a development API
 * key, saved to the data folder and shown once), and bodies of an older
 * renderer rendered again.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import { createApiKey } from './domain/account/account.service.ts';
import { generatePassword, hasPassword, setAdministrator, setPassword } from './domain/account/session.service.ts';
import { createCursorCodec, type CursorCodec } from './domain/cursor.ts';
import type { Db } from './store/database.ts';
import type { Logger } from './logger.ts';
import { refreshRenderings } from './domain/article/refresh-renderings.ts';
import { BODY_RENDER_VERSION } from './domain/body/index.ts';
import { createBodyPool } from './bodies/body-pool.ts';
import { findAccountByName } from './store/account.repository.ts';
import { getOrCreateSetting } from './store/instance-setting.repository.ts';

/** Name of the account created on first run; owns the sample content. */
export const LOCAL_ACCOUNT = 'local';

/** File in the data folder holding the development key. */
export const DEV_KEY_FILE = 'dev-api-key.txt';

/** File in the data folder holding the local account's first dashboard password. */
export const DEV_PASSWORD_FILE = 'dev-password.txt';

/** The cursor codec, signed with the instance secret (created on first use). */
export async function loadCursorCodec(db: Db): Promise<CursorCodec> {
  return createCursorCodec(await getOrCreateSetting(db, 'cursor_secret', () => randomBytes(32).toString('base64url')));
}

/** The local account, and what a first run made for it (to print once). */
export interface LocalAccount {
  readonly accountId: number;
  /** The development API key, on the first run only. */
  readonly newKey: string | null;
  readonly keyFile: string;
  /** The dashboard password, on the first run only. */
  readonly newPassword: string | null;
  readonly passwordFile: string;
  /** Whether the account can sign in to the dashboard (a data folder older than the dashboard has no password yet). */
  readonly canSignIn: boolean;
}

/** Writes a secret to a file only its owner reads, whole or not at all. */
function writeSecretFile(file: string, secret: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${secret}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/**
 * Ensures the local account exists. On first run creates it (plan `pro`, so
 * scheduling works locally, and an administrator of the dashboard) with a key
 * and a dashboard password, saves them to
 * `<dataDir>/dev-api-key.txt` and `<dataDir>/dev-password.txt` with
 * owner-only permissions, and returns them so the caller can print them once.
 */
export async function ensureLocalAccount(deps: { db: Db; clock: Clock }, dataDir: string): Promise<LocalAccount> {
  const keyFile = path.join(dataDir, DEV_KEY_FILE);
  const passwordFile = path.join(dataDir, DEV_PASSWORD_FILE);
  const existing = await findAccountByName(deps.db, LOCAL_ACCOUNT);
  if (existing) {
    return { accountId: existing.id, newKey: null, keyFile, newPassword: null, passwordFile, canSignIn: await hasPassword(deps, existing.id) };
  }
  const created = await createApiKey(deps, { accountName: LOCAL_ACCOUNT, plan: 'pro', label: 'development key (npm start)' });
  writeSecretFile(keyFile, created.key);
  const password = generatePassword();
  await setPassword(deps, LOCAL_ACCOUNT, password);
  // The machine's owner decides moderation in the dashboard, as on the command line.
  await setAdministrator(deps, LOCAL_ACCOUNT, true);
  writeSecretFile(passwordFile, password);
  return { accountId: created.account.id, newKey: created.key, keyFile, newPassword: password, passwordFile, canSignIn: true };
}

/**
 * Renders again, and keeps, the bodies an older renderer made
 * (`refreshRenderings`): after the migrations, before the first build, on
 * `threads` body threads of its own (a full build's threads,
 * `PRESSROOM_BUILD_WORKERS`; started only when a body needs it, closed
 * after), or in this thread with 0. Logs the totals, then progress every
 * tenth; nothing when all are current.
 */
export async function refreshBodyRenderings(db: Db, log: Logger, options: { threads: number; timeLimitMs: number }): Promise<void> {
  let nextTenth = 0;
  const onProgress = (done: number, total: number) => {
    if (done === 0) log.info('rendering bodies again', { bodies: total, renderer: BODY_RENDER_VERSION, note: 'the body renderer changed; once, before the first build' });
    else if (done >= nextTenth) log.info('rendering bodies again', { done, of: total });
    if (done >= nextTenth) nextTenth = done + Math.ceil(total / 10);
  };
  const pool = options.threads > 0 ? createBodyPool({ threads: options.threads, timeLimitMs: options.timeLimitMs, lazy: true }) : null;
  try {
    const report = await refreshRenderings(db, onProgress, pool ? (markdown) => pool.render(markdown) : undefined);
    if (report.translations + report.revisions > 0) log.info('bodies rendered again', { ...report });
  } finally {
    await pool?.close();
  }
}
