/**
 * Opens the database through kysely and runs the migrations: the SQLite
 * file by default, or a Postgres database when the location is a
 * `postgres://` URL (`postgres/postgres-database.ts`, issue 38); what
 * follows is about SQLite.
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
import { Kysely, Migrator, PostgresAdapter, sql, type Transaction } from 'kysely';
import { ImmediateSqliteDialect } from './immediate-dialect.ts';
import type { Database } from './schema.ts';
import { reportingMigrations } from './migrations/index.ts';
import { everyFewSeconds, PROGRESS_EVERY_MS, type RebuildProgress } from './table-rebuild.ts';
import { describeError } from '../describe-error.ts';
import { InternalError, invariant } from '../internal-error.ts';
import { isPostgresUrl, openPostgres, POOL_SIZE, postgresUrl, shownDatabaseUrl, WORKER_POOL_SIZE } from './postgres/postgres-database.ts';
import { installJobQueue } from './postgres/graphile-queue.ts';
import { postgresMigrations } from './postgres/migrations/index.ts';

export { holdInstanceLock, isPostgresUrl, type InstanceLock } from './postgres/postgres-database.ts';

/** Where the data lives, as logs and messages show it: the SQLite file, or the Postgres URL without its password. */
export function shownDatabase(location: string): string {
  return isPostgresUrl(location) ? shownDatabaseUrl(location) : location;
}

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** The database handle passed to every repository. */
export type Db = Kysely<Database>;

/** A handle inside a transaction; repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Mode of the database's folder when this creates it: the owner alone (it holds drafts and key hashes). */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of the database file and its `-wal`/`-shm` companions. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the database file 0600 when it is missing. `wx` (create, fail if it
 * exists) is the only open this module makes on the file: when it succeeds no
 * SQLite connection of this process can hold the file, so closing it drops no
 * lock. An existing file is never opened here (see {@link tightenFileModes}).
 */
function createPrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Makes the database file and its `-wal`/`-shm` companions readable by the
 * owner alone (SQLite gives the companions it creates the database file's
 * mode; files made by an earlier version with 0644 are tightened too).
 *
 * Only `chmod`, which takes a path: never `open` + `close`. POSIX locks
 * belong to the process, and closing *any* descriptor of a file drops all of
 * the process's locks on it; a render or check thread opening the database
 * while the main connection runs would then leave the server without locks,
 * the next `sqlite3` or `npm run admin` would believe itself the last user,
 * checkpoint and delete the WAL the server still writes to (issue 39).
 */
function tightenFileModes(file: string): void {
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(name).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(name, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** The two stores (issue 38): the embedded SQLite file, or a Postgres database. */
export type StoreKind = 'sqlite' | 'postgres';

/**
 * Which store `db` (or a transaction on it) talks to: the few statements
 * that differ between the two choose by it, inside `server/store/` only.
 */
export function storeKind(db: Executor): StoreKind {
  // The dialect's adapter tells, for a handle and for a transaction on it alike.
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs `read` on one view of the data: every statement in it sees the same
 * committed state, none of a write that commits meanwhile. For answers
 * built from several reads that must agree (an article's statuses and its
 * revisions: the publishing API's read-your-writes answer).
 *
 * On SQLite, a deferred (read) transaction on the handle's one connection:
 * in WAL mode it reads one snapshot and takes no write lock. On Postgres, a
 * read-only `REPEATABLE READ` transaction: one snapshot, and no wait for the
 * writers' lock.
 */
export async function readConsistently<T>(db: Db, read: (db: Executor) => Promise<T>): Promise<T> {
  if (storeKind(db) === 'postgres') return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  return db.connection().execute(async (connection) => {
    await sql`begin deferred`.execute(connection);
    try {
      return await read(connection);
    } finally {
      await sql`commit`.execute(connection);
    }
  });
}

/**
 * Opens the database at `location`: a Postgres URL (`postgres://…`,
 * `postgres/postgres-database.ts`), or else the path of a SQLite file,
 * created if needed, with its pragmas.
 * @param location a Postgres URL, or the path of the SQLite file; its folder is created (0700), the file is 0600.
 * @param options.thread a build, render or search thread's handle: on Postgres, a smaller pool.
 */
export function openDatabase(location: string, options: { thread?: boolean } = {}): Db {
  if (isPostgresUrl(location)) {
    return openPostgres(location, options.thread ? WORKER_POOL_SIZE : POOL_SIZE);
  }
  const file = location;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  if (file !== ':memory:') createPrivateFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // WAL mode creates the companions now; an existing 0644 database may have made them 0644.
  if (file !== ':memory:') tightenFileModes(file);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  // SQLite's own lower() and LIKE fold ASCII only: searches fold titles in any script with this (article.repository.ts).
  sqlite.function('fold_case', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldCase(text) : text));
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  connections.set(db, sqlite);
  return db;
}

/** Text folded for case-insensitive search in any script: lower case, and compatibility forms (NFKC) made one. */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The SQLite connection under each handle {@link openDatabase} made. */
const connections = new WeakMap<Db, InstanceType<typeof SQLite>>();

/**
 * The SQLite connection under `db`, for what kysely does not wrap (the
 * online backup API, `store/backup.ts`). Only store modules use it.
 */
export function sqliteConnection(db: Db): InstanceType<typeof SQLite> {
  const connection = connections.get(db);
  invariant(connection, 'This database handle was not made by openDatabase.');
  return connection;
}

/**
 * Makes every later write of this connection fail (`PRAGMA query_only`):
 * used when its files were found detached (`database-guard.ts`), so that
 * nothing more is acknowledged into a WAL no other process sees.
 */
export async function refuseWrites(db: Db): Promise<void> {
  await sql`pragma query_only = on`.execute(db);
}

/** What to say beside the names of pending migrations, before they run. */
export const MIGRATION_NOTE = 'a migration that rebuilds a table takes minutes on a large database; it says where it is every few seconds, and resumes where it stopped if interrupted';

/**
 * Applies every pending migration, in order. `onPending` is told their names
 * first, when there are any, and `onProgress` where a table rebuild is, every
 * `progressEveryMs` once it has run that long (`everyFewSeconds`): a long one
 * should not look like a hang.
 * @returns the names of the migrations applied now.
 * @throws when a migration fails; the database stays at the last good version
 *   (a rebuild interrupted mid-copy keeps its copy, and the next run resumes it).
 */
export async function migrateToLatest(
  db: Db,
  onPending?: (names: readonly string[]) => void,
  onProgress?: (progress: RebuildProgress) => void,
  progressEveryMs = PROGRESS_EVERY_MS,
): Promise<string[]> {
  const provided = storeKind(db) === 'postgres' ? postgresMigrations : reportingMigrations(everyFewSeconds(onProgress ?? (() => undefined), progressEveryMs));
  const migrator = new Migrator({ db, provider: { getMigrations: async () => provided } });
  if (onPending) {
    // Said before they run: one that rebuilds a table takes minutes on a large database (0013's time is in docs/PERFORMANCE.md, "Current figures").
    const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
    if (pending.length > 0) onPending(pending);
  }
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new InternalError('MIGRATION_FAILED', `Database migration "${failed}" failed: ${describeError(error)}`, {
      cause: error,
    });
  }
  // The job queue's own schema (graphile-worker's migrations, `postgres/graphile-queue.ts`); on SQLite it is the `jobs` table.
  if (storeKind(db) === 'postgres') {
    await installJobQueue(postgresUrl(db)).catch((error: unknown) => {
      throw new InternalError('MIGRATION_FAILED', `The job queue's schema (graphile_worker) could not be created or updated: ${describeError(error)}. The database user needs the right to create a schema (or own graphile_worker).`, { cause: error });
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
