/**
 * Online backup of the database beside a running server (issue 39).
 *
 * SQLite's backup API copies the pages through this process's own
 * connection, so it takes part in SQLite's locking like any other
 * connection and never opens the database file by itself (which would drop
 * the process's locks, `database.ts`). The copy runs inside one read
 * transaction: it is the snapshot of the moment the backup started, holds
 * every write acknowledged before it, and is never restarted by writes that
 * come during the copy (between steps SQLite would otherwise start over
 * after every write of another process). The server keeps writing meanwhile;
 * its WAL only waits to be checkpointed past the snapshot until the copy ends.
 *
 * The copy is written to a temporary name beside the target, switched out of
 * WAL mode so that it is one self-contained file, checked with
 * `PRAGMA integrity_check`, flushed, and only then given the target's name
 * (a hard link, which never replaces an existing file). A failed backup
 * leaves no file behind.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, sqliteConnection, type Db } from './database.ts';
import { SQLite } from './sqlite-binding.ts';
import { InternalError } from '../internal-error.ts';

/** Pages copied between two progress reports: 4 MiB of SQLite's default 4 KiB pages. */
export const BACKUP_PAGES_PER_STEP = 1024;

/** Where a running backup is. */
export interface BackupProgress {
  readonly copiedPages: number;
  readonly totalPages: number;
}

/** What a finished backup wrote. */
export interface BackupReport {
  /** The backup's absolute path. */
  readonly file: string;
  readonly bytes: number;
  readonly pages: number;
}

/** Removes a file and the companions SQLite may have made beside it. */
function removeWithCompanions(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** Flushes a file (or a folder's entries) to the disk. */
function flush(name: string): void {
  const fd = fs.openSync(name, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Copies the database under `db` to `target`, which must not exist yet (its
 * folder must). `onProgress` is told after every step of
 * {@link BACKUP_PAGES_PER_STEP} pages.
 * @throws when the copy fails its integrity check, or on a file system error; nothing is left at `target` then.
 */
export async function backupDatabase(db: Db, target: string, onProgress?: (progress: BackupProgress) => void): Promise<BackupReport> {
  const source = sqliteConnection(db);
  const file = path.resolve(target);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  removeWithCompanions(temp);
  try {
    // The snapshot: a read transaction the backup's steps all read in.
    source.exec('BEGIN');
    let pages = 0;
    try {
      source.prepare('select count(*) from sqlite_schema').pluck().get();
      const result = await source.backup(temp, {
        progress: ({ totalPages, remainingPages }) => {
          onProgress?.({ copiedPages: totalPages - remainingPages, totalPages });
          return BACKUP_PAGES_PER_STEP;
        },
      });
      pages = result.totalPages;
    } finally {
      if (source.inTransaction) source.exec('COMMIT');
    }
    const copy = new SQLite(temp);
    try {
      // The source is in WAL mode and the copy would be too; one file is what a backup should be.
      copy.pragma('journal_mode = DELETE');
      const integrity = copy.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') throw new InternalError('BACKUP_FAILED', `The backup copy failed its integrity check (${String(integrity)}); nothing was written to ${file}. Run "sqlite3 ${source.name} 'PRAGMA integrity_check'" on the database.`);
    } finally {
      copy.close();
    }
    // It holds drafts and key hashes, as the database does (PRIVATE_FILE_MODE).
    fs.chmodSync(temp, PRIVATE_FILE_MODE);
    flush(temp);
    fs.linkSync(temp, file);
    flush(path.dirname(file));
    return { file, bytes: fs.statSync(file).size, pages };
  } finally {
    removeWithCompanions(temp);
  }
}
