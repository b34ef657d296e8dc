/**
 * The static output's manifest (`output_files`).
 * @module
 */
import type { Executor } from './database.ts';

/** A recorded file: the owner that produces it and its content hash. */
export interface RecordedFile {
  readonly owner: string;
  readonly hash: string;
}

/** Files recorded for the given owners, path → hash. */
export async function filesOfOwners(db: Executor, owners: readonly string[]): Promise<Map<string, RecordedFile>> {
  if (owners.length === 0) return new Map();
  const rows = await db.selectFrom('output_files').select(['path', 'owner', 'hash']).where('owner', 'in', owners).execute();
  return new Map(rows.map((r) => [r.path, { owner: r.owner, hash: r.hash }]));
}

/** The recorded files among `paths`, path → owner and hash. */
export async function filesAt(db: Executor, paths: readonly string[]): Promise<Map<string, RecordedFile>> {
  const out = new Map<string, RecordedFile>();
  for (let i = 0; i < paths.length; i += 500) {
    const rows = await db.selectFrom('output_files').select(['path', 'owner', 'hash']).where('path', 'in', paths.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.path, { owner: r.owner, hash: r.hash });
  }
  return out;
}

/** Rows read at a time by `eachRecordedFile`. */
const SLICE_ROWS = 50_000;

/** A recorded file with the stamp its hash was last confirmed with (`size`, `mtimeMs`: null until confirmed). */
export interface RecordedStamp {
  readonly path: string;
  readonly owner: string;
  readonly hash: string;
  readonly size: number | null;
  readonly mtimeMs: number | null;
}

/**
 * Visits every recorded file, a slice at a time in path order, so the rows
 * of a large site (1.2 million files at 100,000 articles) are never all
 * held at once.
 */
export async function eachRecordedFile(db: Executor, visit: (file: RecordedStamp) => void): Promise<void> {
  let after: string | null = null;
  for (;;) {
    let query = db.selectFrom('output_files').select(['path', 'owner', 'hash', 'size', 'mtime_ms']).orderBy('path').limit(SLICE_ROWS);
    if (after !== null) query = query.where('path', '>', after);
    const rows = await query.execute();
    for (const r of rows) visit({ path: r.path, owner: r.owner, hash: r.hash, size: r.size, mtimeMs: r.mtime_ms });
    if (rows.length < SLICE_ROWS) return;
    after = rows[rows.length - 1]!.path;
  }
}

/** The recorded files of `owners`, by owner then path (read 500 owners at a time). */
export async function filesByOwner(db: Executor, owners: readonly string[]): Promise<Map<string, Map<string, RecordedFile>>> {
  const byOwner = new Map<string, Map<string, RecordedFile>>();
  for (let i = 0; i < owners.length; i += 500) {
    for (const [p, f] of await filesOfOwners(db, owners.slice(i, i + 500))) {
      let files = byOwner.get(f.owner);
      if (!files) byOwner.set(f.owner, (files = new Map()));
      files.set(p, f);
    }
  }
  return byOwner;
}

/** Whether the manifest records at least `count` files (reads at most `count` rows of an index). */
export async function recordsAtLeast(db: Executor, count: number): Promise<boolean> {
  if (count <= 0) return true;
  const rows = await db.selectFrom('output_files').select('owner').limit(1).offset(count - 1).execute();
  return rows.length > 0;
}

/** Records written files, a few hundred rows per statement (one statement per file cost most of a cold build's manifest time). */
export async function recordFiles(db: Executor, files: ReadonlyArray<{ path: string; owner: string; hash: string; size?: number | null; mtimeMs?: number | null }>, now: string): Promise<void> {
  // A path given twice is recorded as last given: Postgres refuses one statement that upserts a row twice.
  const last = [...new Map(files.map((f) => [f.path, f] as const)).values()];
  for (let i = 0; i < last.length; i += 400) {
    await db
      .insertInto('output_files')
      // Without the stamp the file had when written, the next check of the folder hashes it and learns it.
      .values(last.slice(i, i + 400).map((f) => ({ path: f.path, owner: f.owner, hash: f.hash, size: f.size ?? null, mtime_ms: f.mtimeMs ?? null, updated_at: now })))
      .onConflict((oc) =>
        oc.column('path').doUpdateSet((eb) => ({ owner: eb.ref('excluded.owner'), hash: eb.ref('excluded.hash'), size: eb.ref('excluded.size'), mtime_ms: eb.ref('excluded.mtime_ms'), updated_at: eb.ref('excluded.updated_at') })),
      )
      .execute();
  }
}

/**
 * Remembers the stamps files had when a check confirmed their hashes; a row whose hash changed since (a build
 * recorded a new file meanwhile) is left alone.
 */
export async function confirmStamps(db: Executor, stamps: ReadonlyArray<{ path: string; hash: string; size: number; mtimeMs: number }>): Promise<void> {
  for (const s of stamps) {
    await db.updateTable('output_files').set({ size: s.size, mtime_ms: s.mtimeMs }).where('path', '=', s.path).where('hash', '=', s.hash).execute();
  }
}

/** Forgets deleted files. */
export async function forgetFiles(db: Executor, paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 500) {
    await db.deleteFrom('output_files').where('path', 'in', paths.slice(i, i + 500)).execute();
  }
}

/** Whether the manifest records any file (false before the first build). */
export async function hasAnyFile(db: Executor): Promise<boolean> {
  return (await db.selectFrom('output_files').select('path').limit(1).execute()).length > 0;
}
