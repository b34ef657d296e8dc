/**
 * Whether this process still writes to the database files that are on disk.
 *
 * SQLite deletes the WAL (and SHM) when a connection closes believing itself
 * the last user of the database, a belief it takes from the POSIX locks of
 * the other processes. A process that has lost its locks (closing any
 * descriptor of the file drops them all) or an operator who removes
 * `pressroom.db-wal` leaves the server writing into files nobody else can
 * see: its acknowledged writes are lost at the next stop, and its checkpoint
 * on close overwrites what other processes wrote since (issue 39).
 *
 * This module notices that state without opening any of the files (an open
 * and close would itself drop the locks): `stat` by path, compared with the
 * identity recorded when the connection was opened, and on Linux the
 * process's own descriptors in `/proc/self/fd`, which the kernel marks
 * `(deleted)` when their file no longer has a name.
 * @module
 */
import fs from 'node:fs';

/** The database file's companions that SQLite keeps open while a WAL connection lives. */
const SUFFIXES = ['', '-wal', '-shm'] as const;

/** Where the kernel lists this process's descriptors (Linux); absent elsewhere. */
const OWN_DESCRIPTORS = '/proc/self/fd';

/** One file as it was when the connection opened it. */
interface FileIdentity {
  readonly name: string;
  readonly dev: number;
  readonly ino: number;
}

/** A file the process holds that is no longer the file at its name. */
export interface DetachedFile {
  readonly name: string;
  /** `deleted`: nothing has that name now; `replaced`: another file has it. */
  readonly how: 'deleted' | 'replaced';
}

/** The identity of a database's files, taken once its connection is open. */
export interface DatabaseFiles {
  /** The database file's real path. */
  readonly file: string;
  /**
   * The files this process holds that are no longer on disk under their
   * names; empty while all is well. Costs three `stat` calls, plus a read
   * of `/proc/self/fd` when `descriptors` is true.
   */
  detached(options?: { descriptors?: boolean }): DetachedFile[];
}

/** The identity of `name`, or null when it does not exist. */
function identityOf(name: string): { dev: number; ino: number } | null {
  const stat = fs.statSync(name, { throwIfNoEntry: false });
  return stat ? { dev: stat.dev, ino: stat.ino } : null;
}

/**
 * Records the identity of `file`, `file-wal` and `file-shm`. Call it once
 * the connection has opened the database in WAL mode. A new database has no
 * WAL until its first write: a companion missing now is recorded the first
 * time a check finds it (the connection that exists then is the one that
 * made it).
 */
export function recordDatabaseFiles(file: string): DatabaseFiles {
  const real = fs.realpathSync(file);
  const recorded = new Map<string, FileIdentity | null>(SUFFIXES.map((suffix) => [real + suffix, null]));
  const record = () => {
    for (const [name, known] of recorded) {
      if (known) continue;
      const id = identityOf(name);
      if (id) recorded.set(name, { name, ...id });
    }
  };
  record();
  return {
    file: real,
    detached(options = {}) {
      const found = new Map<string, DetachedFile>();
      for (const entry of recorded.values()) {
        if (!entry) continue;
        const now = identityOf(entry.name);
        if (!now) found.set(entry.name, { name: entry.name, how: 'deleted' });
        else if (now.dev !== entry.dev || now.ino !== entry.ino) found.set(entry.name, { name: entry.name, how: 'replaced' });
      }
      if (options.descriptors) for (const name of deletedDescriptors(real)) if (!found.has(name)) found.set(name, { name, how: 'deleted' });
      if (found.size === 0) record();
      return [...found.values()];
    },
  };
}

/**
 * The database files among this process's descriptors whose file has lost
 * its name (Linux shows such a link as `path (deleted)`). Empty where the
 * kernel has no `/proc/self/fd`. `readlink` reads the link; nothing is opened.
 */
export function deletedDescriptors(realFile: string): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(OWN_DESCRIPTORS);
  } catch {
    return [];
  }
  const wanted = new Set(SUFFIXES.map((suffix) => `${realFile}${suffix} (deleted)`));
  const found = new Set<string>();
  for (const entry of entries) {
    let target: string;
    try {
      target = fs.readlinkSync(`${OWN_DESCRIPTORS}/${entry}`);
    } catch {
      continue; // closed between the listing and the read
    }
    if (wanted.has(target)) found.add(target.slice(0, -' (deleted)'.length));
  }
  return [...found];
}
