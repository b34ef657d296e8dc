/**
 * First-run set-up: the instance secret and a local account with a
 * development API key, saved to the data folder and shown once.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import { createApiKey } from './domain/account/account.service.ts';
import { createCursorCodec, type CursorCodec } from './domain/cursor.ts';
import type { Db } from './store/database.ts';
import { findAccountByName } from './store/account.repository.ts';
import { getOrCreateSetting } from './store/instance-setting.repository.ts';

/** Name of the account created on first run; owns the sample content. */
export const LOCAL_ACCOUNT = 'local';

/** File in the data folder holding the development key. */
export const DEV_KEY_FILE = 'dev-api-key.txt';

/** The cursor codec, signed with the instance secret (created on first use). */
export async function loadCursorCodec(db: Db): Promise<CursorCodec> {
  return createCursorCodec(await getOrCreateSetting(db, 'cursor_secret', () => randomBytes(32).toString('base64url')));
}

/**
 * Ensures the local account exists. On first run creates it (plan `pro`, so
 * scheduling works locally) with a key, saves the key to `<dataDir>/dev-api-key.txt`
 * with owner-only permissions, and returns it so the caller can print it once.
 */
export async function ensureLocalAccount(
  deps: { db: Db; clock: Clock },
  dataDir: string,
): Promise<{ accountId: number; newKey: string | null; keyFile: string }> {
  const keyFile = path.join(dataDir, DEV_KEY_FILE);
  const existing = await findAccountByName(deps.db, LOCAL_ACCOUNT);
  if (existing) return { accountId: existing.id, newKey: null, keyFile };
  const created = await createApiKey(deps, { accountName: LOCAL_ACCOUNT, plan: 'pro', label: 'development key (npm start)' });
  const temp = `${keyFile}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${created.key}\n`, { mode: 0o600 });
  fs.renameSync(temp, keyFile);
  return { accountId: created.account.id, newKey: created.key, keyFile };
}
