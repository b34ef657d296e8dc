/**
 * Applies owners' file lists to the manifest (`output_files`) and the output
 * folder: files an owner no longer produces are deleted, changed hashes are
 * recorded. Rows are collected and written in one transaction per batch,
 * since one transaction per owner was most of a cold build's database time.
 * Files are always in place before their rows are written (`flush()` waits
 * for the output queue first), so a crash leaves at worst files the manifest
 * does not know yet; the next full build records or removes them.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db } from '../../store/database.ts';
import { forgetBuildOwners, writeBuildOwners, type BuildOwnerState } from '../../store/build-owner.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import type { OutputQueue } from '../../output/output-queue.ts';
import { resolveOutputPath } from '../../output/output-writer.ts';
import fs from 'node:fs';

/** What applying owners did, added to the build's report. */
export interface ApplyCounts {
  written: number;
  unchanged: number;
  removed: number;
  changedPaths: string[];
}

/** Collects manifest changes; `flush()` writes them. */
export interface ManifestBatch {
  /**
   * Records what `owner` produces now (`previous`: its recorded files) and
   * deletes the files it no longer produces.
   */
  apply(
    owner: string,
    files: ReadonlyArray<{ path: string; hash: string; written: boolean }>,
    previous: ReadonlyMap<string, manifest.RecordedFile>,
    counts: ApplyCounts,
  ): void;
  /** Remembers (or, with null, forgets) what an article owner was rendered from. */
  setOwnerState(owner: string, state: BuildOwnerState | null): void;
  /** Waits for the output queue, then writes everything collected in one transaction. */
  flush(): Promise<void>;
  /** Rows waiting for `flush()`. */
  readonly pending: number;
}

/**
 * The size and mtime of a recorded file as the build leaves it (its bytes are the recorded hash: written now, or
 * found equal), so the next check of the folder trusts it without hashing it again; null when it is not there.
 */
function stampOf(outputDir: string, relative: string): { size: number; mtimeMs: number } | { size: null; mtimeMs: null } {
  const stat = fs.statSync(resolveOutputPath(outputDir, relative), { throwIfNoEntry: false });
  return stat ? { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) } : { size: null, mtimeMs: null };
}

/**
 * Creates a batch over the output folder (through `files`, the builder's output queue) and the store.
 * `outputDir`: where the files are, to record their stamps with their hashes (without it, the next check learns them).
 */
export function createManifestBatch(db: Db, clock: Clock, files: OutputQueue, outputDir?: string): ManifestBatch {
  let records: Array<{ path: string; owner: string; hash: string }> = [];
  let gone: string[] = [];
  let states = new Map<string, BuildOwnerState | null>();
  return {
    apply(owner, produced, previous, counts) {
      const seen = new Set<string>();
      for (const file of produced) {
        seen.add(file.path);
        if (file.written) {
          counts.written++;
          counts.changedPaths.push(file.path);
        } else counts.unchanged++;
        const before = previous.get(file.path);
        if (before?.hash !== file.hash || before.owner !== owner) records.push({ path: file.path, owner, hash: file.hash });
      }
      for (const p of previous.keys()) {
        if (seen.has(p)) continue;
        gone.push(p);
        if (files.remove(p)) {
          counts.removed++;
          counts.changedPaths.push(p);
        }
      }
    },
    setOwnerState(owner, state) {
      states.set(owner, state);
    },
    async flush() {
      await files.settled();
      if (records.length + gone.length + states.size === 0) return;
      const [r, g, s] = [records, gone, states];
      records = [];
      gone = [];
      states = new Map();
      const stamped = outputDir === undefined ? r : r.map((f) => ({ ...f, ...stampOf(outputDir, f.path) }));
      await db.transaction().execute(async (trx) => {
        await manifest.recordFiles(trx, stamped, isoNow(clock));
        await manifest.forgetFiles(trx, g);
        const kept = [...s].filter((e): e is [string, BuildOwnerState] => e[1] !== null);
        await writeBuildOwners(trx, kept.map(([owner, state]) => ({ owner, ...state })));
        await forgetBuildOwners(trx, [...s].filter(([, state]) => state === null).map(([owner]) => owner));
      });
    },
    get pending() {
      return records.length + gone.length + states.size;
    },
  };
}
