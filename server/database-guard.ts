/**
 * The running server's watch on its database files (issue 39): at start,
 * every few seconds, and before each publishing request, it checks that the
 * WAL and SHM the server writes to are still the files on disk
 * (`store/database-files.ts`). The first time they are not, it logs what
 * happened and what to do, and calls `onDetached`, which stops every write of
 * the process (`main.ts`); the publishing API answers 503
 * `DATABASE_DETACHED` from then on. It never recovers by itself: the writes
 * the server made since are in files no other process sees, and only a
 * restart joins the database again.
 * @module
 */
import type { Logger } from './logger.ts';
import type { DatabaseFiles, DetachedFile } from './store/database-files.ts';
import { describeError } from './describe-error.ts';

/** How often the files are checked in the background. */
export const DATABASE_CHECK_INTERVAL_MS = 2_000;

/** What was found, once. */
export interface DetachedDatabase {
  /** When the guard noticed (ISO 8601). */
  readonly noticedAt: string;
  /** When the files were last seen intact (ISO 8601): writes since then may be lost. */
  readonly lastIntactAt: string;
  readonly files: readonly DetachedFile[];
}

/** The guard of one database. */
export interface DatabaseGuard {
  /** Null while the files are intact; what was found once they were not (it stays). */
  state(): DetachedDatabase | null;
  /** Checks now by path (three `stat` calls) and answers {@link state}. */
  verify(): DetachedDatabase | null;
  /** Stops the background checks. */
  stop(): void;
}

/** The guard of a database with no files of this process's to watch (Postgres): always intact. */
export function unguardedDatabase(): DatabaseGuard {
  return { state: () => null, verify: () => null, stop: () => undefined };
}

/** The log line's advice, kept beside the code that trips. */
export function detachedAdvice(databaseFile: string): string {
  return (
    `Another process deleted or replaced the database's WAL/SHM while this server was writing to it ` +
    `(for example "rm ${databaseFile}-wal", or a tool that opened the database without SQLite's locks). ` +
    `The server now refuses writes (503 DATABASE_DETACHED), stops its jobs and builds, and will not checkpoint on stop, ` +
    `so what it wrote since cannot overwrite the database. Stop the server, run ` +
    `"sqlite3 ${databaseFile} 'PRAGMA integrity_check'" (restore a backup from "npm run admin -- backup" if it is not ok), ` +
    `then start it again; changes acknowledged after lastIntactAt may have to be sent again.`
  );
}

/**
 * Starts the guard: checks at once (including the process's descriptors),
 * then every `intervalMs`.
 * @param onDetached called once, when the files are first found detached.
 */
export function guardDatabase(deps: {
  files: DatabaseFiles;
  log: Logger;
  now: () => Date;
  onDetached: (found: DetachedDatabase) => Promise<void> | void;
  intervalMs?: number;
}): DatabaseGuard {
  let found: DetachedDatabase | null = null;
  let lastIntactAt = deps.now().toISOString();

  const check = (descriptors: boolean): DetachedDatabase | null => {
    if (found) return found;
    const files = deps.files.detached({ descriptors });
    if (files.length === 0) {
      lastIntactAt = deps.now().toISOString();
      return null;
    }
    found = { noticedAt: deps.now().toISOString(), lastIntactAt, files };
    deps.log.error('database files detached', {
      code: 'DATABASE_DETACHED',
      files: files.map((f) => `${f.name} (${f.how})`).join(', '),
      last_intact_at: lastIntactAt,
      advice: detachedAdvice(deps.files.file),
    });
    const stopped = found;
    void Promise.resolve()
      .then(() => deps.onDetached(stopped))
      .catch((error: unknown) => deps.log.error('stopping writes after detached database files failed', { error: describeError(error, { stack: true }) }));
    return found;
  };

  check(true);
  const timer = setInterval(() => check(true), deps.intervalMs ?? DATABASE_CHECK_INTERVAL_MS);
  timer.unref();
  return {
    state: () => found,
    verify: () => check(false),
    stop: () => clearInterval(timer),
  };
}
