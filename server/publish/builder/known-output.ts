/**
 * What a full build learns of its output before it renders: which owners
 * have recorded files, which recorded files are missing from the folder,
 * and which files in the folder the manifest does not record. One pass over
 * the manifest and the folder (1.2 million of each at 100,000 articles),
 * made in a thread of its own while the builder reads the heads
 * (`workers/output-check.ts`), so no owner asks about each file again.
 * @module
 */
import * as manifest from '../../store/output-file.repository.ts';
import type { Executor } from '../../store/database.ts';
import { listManagedOutput } from './output-listing.ts';

/** Recorded files by owner, then by path. */
export type FilesByOwner = ReadonlyMap<string, ReadonlyMap<string, manifest.RecordedFile>>;

/** What the check found, as plain data (it may come from a worker thread). */
export interface OutputCheck {
  /** Every owner with a recorded file. */
  readonly owners: readonly string[];
  /** Recorded files missing from the folder. */
  readonly missing: readonly string[];
  /** The owners of those files. */
  readonly incomplete: readonly string[];
  /** Files in the managed part of the folder that the manifest does not record (left by a crash or an older version). */
  readonly unrecorded: readonly string[];
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

/**
 * Lists the managed output folder, then reads the manifest a slice at a
 * time and matches the two: the listing shrinks to the files nobody
 * recorded as the manifest is read.
 */
export async function checkOutput(db: Executor, outputDir: string): Promise<OutputCheck> {
  const onDisk = listManagedOutput(outputDir);
  const owners = new Set<string>();
  const missing: string[] = [];
  const incomplete = new Set<string>();
  await manifest.eachRecordedFile(db, (path, owner) => {
    owners.add(owner);
    if (onDisk.delete(path)) return;
    missing.push(path);
    incomplete.add(owner);
  });
  return { owners: [...owners], missing, incomplete: [...incomplete], unrecorded: [...onDisk] };
}

/** The check, as the build asks it. */
export function knownOutput(check: OutputCheck): KnownOutput {
  const missing = new Set(check.missing);
  return { owners: new Set(check.owners), incomplete: new Set(check.incomplete), unrecorded: check.unrecorded, inPlace: (p) => !missing.has(p) };
}
