/**
 * A real SQLite file in a temp folder, migrated up to (not including) one
 * migration, for tests of that migration on the data it will meet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { migrations } from '../../server/store/migrations/index.ts';

/** A database file migrated to just before `migration`, with `applyRest` to run that one and every later one. */
export interface DatabaseBefore {
  readonly db: Db;
  readonly dir: string;
  applyRest(): Promise<void>;
  remove(): Promise<void>;
}

async function migrateWith(db: Db, selected: Record<string, (typeof migrations)[string]>): Promise<void> {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => selected } }).migrateToLatest();
  if (error) throw error;
}

/**
 * Opens a new database in a temp folder and applies every migration whose
 * name sorts before `migration` (e.g. `'0014'`).
 */
export async function databaseBefore(migration: string): Promise<DatabaseBefore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pressroom-${migration}-`));
  const db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateWith(db, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < migration)));
  return {
    db,
    dir,
    applyRest: () => migrateWith(db, migrations),
    async remove() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
