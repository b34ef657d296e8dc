/**
 * `backup FILE`: a consistent copy of the database, safe beside a running
 * server (`store/backup.ts` says why).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_PAGES_PER_STEP, backupDatabase } from '../store/backup.ts';
import { sqliteConnection, storeKind } from '../store/database.ts';
import { UsageError } from './args.ts';
import { output, type AdminDeps, type CommandOutput } from './admin-common.ts';

/** "12.3 MB", "4 KB". */
function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Refuses a target that would replace a file or cannot be written. */
function checkTarget(target: string, databaseFile: string): string {
  if (target.trim() === '') throw new UsageError('Give the backup file, e.g. "npm run --silent admin -- backup backups/pressroom-$(date +%F).db".');
  const file = path.resolve(target);
  const folder = path.dirname(file);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`The folder ${folder} does not exist. Create it first (mkdir -p ${folder}), or choose another path.`);
  }
  const database = fs.realpathSync(databaseFile);
  const resolved = path.join(fs.realpathSync(folder), path.basename(file));
  if ([database, `${database}-wal`, `${database}-shm`].includes(resolved)) {
    throw new UsageError(`${target} is the database itself. Choose another file, e.g. backups/pressroom.db.`);
  }
  if (fs.existsSync(file)) {
    throw new UsageError(`${file} exists already; a backup never replaces a file. Choose a new name (e.g. with the date: pressroom-$(date +%F-%H%M).db) or remove the old file first.`);
  }
  return file;
}

/**
 * Copies the database to `target`. Progress goes to `deps.progress` (stderr)
 * every tenth of a large database; stdout holds one line naming the copy.
 */
export async function backupCommand(deps: AdminDeps, target: string): Promise<CommandOutput> {
  if (storeKind(deps.db) === 'postgres') {
    // Postgres has its own consistent copy, taken beside a running server; this command copies a SQLite file.
    throw new UsageError('The data is in Postgres (PRESSROOM_DATABASE_URL): back it up with Postgres\'s own tools, e.g. "pg_dump --format=custom --file=pressroom.dump \'$PRESSROOM_DATABASE_URL\'" (docs/DEPLOYING.md, "Backups").');
  }
  const databaseFile = sqliteConnection(deps.db).name;
  const file = checkTarget(target, databaseFile);
  const started = performance.now();
  let shownTenth = 0;
  const report = await backupDatabase(deps.db, file, ({ copiedPages, totalPages }) => {
    if (totalPages <= BACKUP_PAGES_PER_STEP || copiedPages === 0) return;
    const tenth = Math.floor((copiedPages / totalPages) * 10);
    if (tenth > shownTenth && copiedPages < totalPages) {
      shownTenth = tenth;
      deps.progress?.(`Backup: ${tenth * 10} % (${copiedPages.toLocaleString('en-US')} of ${totalPages.toLocaleString('en-US')} pages)`);
    }
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return output(
    [`Backed up ${databaseFile} to ${report.file} (${formatSize(report.bytes)}, ${report.pages.toLocaleString('en-US')} pages, integrity ok, ${seconds} s).`],
  );
}
