/**
 * The database migrated by a program that logs (the service's start,
 * `npm run build`, `npm run deploy`): which migrations are pending, then,
 * every few seconds of a long table rebuild, where it is, so a long
 * migration never looks like a hang (issue 36). `npm run migrate` and
 * `npm run admin` print the same to stderr instead.
 * @module
 */
import type { Logger } from './logger.ts';
import { MIGRATION_NOTE, migrateToLatest, type Db } from './store/database.ts';

/** Applies every pending migration of `db` (the file `file`), logging under `log`; resolves with their names. */
export function migrateLogged(db: Db, file: string, log: Logger): Promise<string[]> {
  return migrateToLatest(
    db,
    (pending) => log.info('migrating the database', { file, pending: pending.join(','), note: MIGRATION_NOTE }),
    (p) => log.info('migration progress', { migration: p.migration, phase: p.phase, table: p.table, rows: p.tableRows, of: p.tableTotal, leftSeconds: p.leftMs === null ? null : Math.round(p.leftMs / 1000), ...(p.switchMs === undefined ? {} : { switchMs: Math.round(p.switchMs) }) }),
  );
}
