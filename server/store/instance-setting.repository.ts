/**
 * Instance-wide settings that must survive restarts, such as the secret that
 * signs list cursors.
 * @module
 */
import type { Executor } from './database.ts';

/** Row type of `instance_settings`. */
export interface InstanceSettingTable {
  key: string;
  value: string;
}

/**
 * Reads a setting, storing `make()` first when it is missing. Safe when two
 * processes race: the first insert wins and both read it back.
 */
export async function getOrCreateSetting(db: Executor, key: string, make: () => string): Promise<string> {
  await db.insertInto('instance_settings').values({ key, value: make() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
