/**
 * Instance-wide settings that must survive restarts, such as the secret that
 * signs list cursors.
 * @module
 */
import type { Executor } from './database.ts';

/**
 * Reads a setting, storing `make()` first when it is missing. Safe when two
 * processes race: the first insert wins and both read it back.
 */
export async function getOrCreateSetting(db: Executor, key: string, make: () => string): Promise<string> {
  await db.insertInto('instance_settings').values({ key, value: make() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

/** Reads a setting; undefined when it was never written. */
export async function readSetting(db: Executor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Writes a setting, replacing its value. */
export async function writeSetting(db: Executor, key: string, value: string): Promise<void> {
  await db.insertInto('instance_settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}
