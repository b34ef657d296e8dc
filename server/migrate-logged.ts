/**
 * The database migrated by a program that logs (the service's start,
 * `npm run build`, `npm run deploy`): which migrations are pending, then,
 * every few seconds of a long table rebuild, where it is, so a long
 * migration never looks like a hang (issue 36). `npm run migrate` and
 * `npm run admin` print the same to stderr instead.
 * @module
 */
import type { Logger } from './logger.ts';
import { InternalError } from './internal-error.ts';
import { MIGRATION_NOTE, migrateToLatest, openDatabase, shownDatabase, type Db } from './store/database.ts';
import { databaseUnreachable } from './store/postgres/postgres-database.ts';

/** Applies every pending migration of `db` (the file `file`), logging under `log`; resolves with their names. */
export function migrateLogged(db: Db, file: string, log: Logger): Promise<string[]> {
  return migrateToLatest(
    db,
    (pending) => log.info('migrating the database', { file, pending: pending.join(','), note: MIGRATION_NOTE }),
    (p) => log.info('migration progress', { migration: p.migration, phase: p.phase, table: p.table, rows: p.tableRows, of: p.tableTotal, leftSeconds: p.leftMs === null ? null : Math.round(p.leftMs / 1000), ...(p.switchMs === undefined ? {} : { switchMs: Math.round(p.switchMs) }) }),
  );
}

/**
 * Opens a Postgres database beside a running server (a job worker, a web instance) and migrates it: safe there,
 * since migrations take their lock and do nothing when the database is current. Logs as `migrateLogged`.
 * @throws {InternalError} the migration's own failure, or DATABASE_UNREACHABLE when the database does not answer.
 */
export async function openMigratedPostgres(databaseUrl: string, log: Logger): Promise<Db> {
  const db = openDatabase(databaseUrl);
  try {
    const applied = await migrateLogged(db, shownDatabase(databaseUrl), log);
    if (applied.length > 0) log.info('database migrated', { database: shownDatabase(databaseUrl), applied: applied.join(',') });
    return db;
  } catch (error) {
    await db.destroy();
    throw InternalError.is(error) ? error : databaseUnreachable(databaseUrl, error);
  }
}
