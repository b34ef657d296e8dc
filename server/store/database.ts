/**
 * Opens the SQLite database through kysely and runs the migrations.
 * WAL mode lets readers (the builder, the public server) read while the write
 * service writes; foreign keys are enforced. Transactions begin as writes
 * (`immediate-dialect.ts`) and wait up to {@link BUSY_TIMEOUT_MS} for another
 * process's write to finish, so a concurrent `npm run build` or admin command
 * delays a write instead of failing it.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { SQLite } from './sqlite-binding.ts';
import { Kysely, Migrator, type Transaction } from 'kysely';
import { ImmediateSqliteDialect } from './immediate-dialect.ts';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** The database handle passed to every repository. */
export type Db = Kysely<Database>;

/** A handle inside a transaction; repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Opens (creating if needed) the database file and applies pragmas.
 * @param file path of the SQLite file; its folder is created.
 */
export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
}

/**
 * Applies every pending migration, in order, each in its own transaction.
 * @returns the names of the migrations applied now.
 * @throws when a migration fails; the database stays at the last good version.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration "${failed}" failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
