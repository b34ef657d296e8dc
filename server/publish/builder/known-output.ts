/**
 * What a full build learns of its output before it renders: which owners
 * have recorded files, which recorded files are missing from the folder (or
 * hold other bytes than recorded), and which files in the folder the
 * manifest does not record. One pass over
 * the manifest and the folder (1.2 million of each at 100,000 articles),
 * made in a thread of its own while the builder reads the heads
 * (`workers/output-check.ts`), so no owner asks about each file again.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { hashContent } from '../../output/output-writer.ts';
import * as manifest from '../../store/output-file.repository.ts';
import type { Db } from '../../store/database.ts';
import { listManagedOutput } from './output-listing.ts';

/** Recorded files by owner, then by path. */
export type FilesByOwner = ReadonlyMap<string, ReadonlyMap<string, manifest.RecordedFile>>;

/** What the check found, as plain data (it may come from a worker thread). */
export interface OutputCheck {
  /** Every owner with a recorded file. */
  readonly owners: readonly string[];
  /** Recorded files missing from the folder, the damaged ones included. */
  readonly missing: readonly string[];
  /** The owners of those files. */
  readonly incomplete: readonly string[];
  /** Files in the managed part of the folder that the manifest does not record (left by a crash or an older version). */
  readonly unrecorded: readonly string[];
  /**
   * Recorded files whose bytes were not the recorded ones (edited by hand, or damaged): removed by the check,
   * so they are missing now and their owners render them again.
   */
  readonly damaged: readonly string[];
  /** Files hashed because their stamp was unknown or had changed (the rest were trusted by size and mtime). */
  readonly hashed: number;
}

/** The output as a full build found it. */
export interface KnownOutput {
  /** Owners with a recorded file. */
  readonly owners: ReadonlySet<string>;
  /** Owners with a recorded file missing from the folder: rendered again, whatever their inputs say. */
  readonly incomplete: ReadonlySet<string>;
  /** See `OutputCheck.unrecorded`. */
  readonly unrecorded: readonly string[];
  /** Whether a recorded file was in the folder. */
  inPlace(path: string): boolean;
}

/** Stamps confirmed at a time (one transaction each). */
const CONFIRM_BATCH = 2_000;

/**
 * How old a file's mtime must be before the check remembers it as the stamp of the bytes it hashed. A file
 * rewritten within the filesystem's timestamp granularity (a tick of the kernel's clock; 1 s on HFS+, 2 s on FAT)
 * keeps its mtime, so a stamp taken of a fresh file could trust a later same-size edit ("racy git"): such a file is
 * hashed again at the next check instead.
 */
export const FRESH_FILE_MS = 2_000;

/**
 * Lists the managed output folder, then reads the manifest a slice at a
 * time and matches the two: the listing shrinks to the files nobody
 * recorded as the manifest is read. A recorded file in the folder is
 * trusted when its size and mtime are the ones its hash was last confirmed
 * with; otherwise it is hashed: the same bytes confirm the new stamp
 * (unless the file is fresh, `FRESH_FILE_MS`),
 * other bytes mean the file is not what the site says, and it is removed
 * (a missing file is what every build knows how to repair: its owner
 * renders it again). Not for a folder a build is writing into: the builder
 * runs it under its own lock.
 */
export async function checkOutput(db: Db, outputDir: string): Promise<OutputCheck> {
  const onDisk = listManagedOutput(outputDir);
  const owners = new Set<string>();
  const missing: string[] = [];
  const incomplete = new Set<string>();
  const damaged: string[] = [];
  let confirmed: Array<{ path: string; hash: string; size: number; mtimeMs: number }> = [];
  let hashed = 0;
  /** Files whose bytes were not their row's when it was read: looked at again once the walk is over. */
  const suspects: string[] = [];
  const pending: Array<Promise<void>> = [];
  await manifest.eachRecordedFile(db, (file) => {
    owners.add(file.owner);
    if (!onDisk.delete(file.path)) {
      missing.push(file.path);
      incomplete.add(file.owner);
      return;
    }
    const full = path.join(outputDir, file.path);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    const mtimeMs = stat ? Math.trunc(stat.mtimeMs) : -1;
    if (stat && stat.size === file.size && mtimeMs === file.mtimeMs) return;
    hashed++;
    let bytes: Buffer | null = null;
    try {
      bytes = fs.readFileSync(full);
    } catch {
      // gone since the listing: missing
    }
    if (stat && bytes && hashContent(bytes) === file.hash) {
      if (Date.now() - mtimeMs < FRESH_FILE_MS) return;
      confirmed.push({ path: file.path, hash: file.hash, size: stat.size, mtimeMs });
      if (confirmed.length >= CONFIRM_BATCH) {
        const batch = confirmed;
        confirmed = [];
        pending.push(db.transaction().execute((tx) => manifest.confirmStamps(tx, batch)));
      }
      return;
    }
    if (bytes) suspects.push(file.path);
    else {
      missing.push(file.path);
      incomplete.add(file.owner);
    }
  });
  pending.push(db.transaction().execute((tx) => manifest.confirmStamps(tx, confirmed)));
  await Promise.all(pending);
  // A file that differed from the row read a while ago may have been written since by another process's build
  // (`npm run build` beside the server): it is removed only if it still differs from its row as recorded now.
  const current = await manifest.filesAt(db, suspects);
  for (const file of suspects) {
    const full = path.join(outputDir, file);
    const row = current.get(file);
    let bytes: Buffer | null = null;
    try {
      bytes = fs.readFileSync(full);
    } catch {
      // gone meanwhile
    }
    if (row && bytes && hashContent(bytes) === row.hash) continue;
    if (bytes && row) {
      fs.rmSync(full, { force: true });
      damaged.push(file);
    }
    if (row) {
      missing.push(file);
      incomplete.add(row.owner);
    }
  }
  return { owners: [...owners], missing, incomplete: [...incomplete], unrecorded: [...onDisk], damaged, hashed };
}

/** Whether a check found anything a full build must repair. */
export function needsRepair(check: OutputCheck): boolean {
  return check.missing.length > 0 || check.unrecorded.length > 0;
}

/** The check, as the build asks it. */
export function knownOutput(check: OutputCheck): KnownOutput {
  const missing = new Set(check.missing);
  return { owners: new Set(check.owners), incomplete: new Set(check.incomplete), unrecorded: check.unrecorded, inPlace: (p) => !missing.has(p) };
}
