/**
 * The static output's manifest (`output_files`).
 * @module
 */
import type { Executor } from './database.ts';

/** Files recorded for the given owners, path → hash. */
export async function filesOfOwners(db: Executor, owners: readonly string[]): Promise<Map<string, { owner: string; hash: string }>> {
  if (owners.length === 0) return new Map();
  const rows = await db.selectFrom('output_files').select(['path', 'owner', 'hash']).where('owner', 'in', owners).execute();
  return new Map(rows.map((r) => [r.path, { owner: r.owner, hash: r.hash }]));
}

/** The recorded files among `paths`, path → owner and hash. */
export async function filesAt(db: Executor, paths: readonly string[]): Promise<Map<string, { owner: string; hash: string }>> {
  const out = new Map<string, { owner: string; hash: string }>();
  for (let i = 0; i < paths.length; i += 500) {
    const rows = await db.selectFrom('output_files').select(['path', 'owner', 'hash']).where('path', 'in', paths.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.path, { owner: r.owner, hash: r.hash });
  }
  return out;
}

/** Every recorded file, path → hash. */
export async function allFiles(db: Executor): Promise<Map<string, { owner: string; hash: string }>> {
  const rows = await db.selectFrom('output_files').select(['path', 'owner', 'hash']).execute();
  return new Map(rows.map((r) => [r.path, { owner: r.owner, hash: r.hash }]));
}

/** Records written files, a few hundred rows per statement (one statement per file cost most of a cold build's manifest time). */
export async function recordFiles(db: Executor, files: ReadonlyArray<{ path: string; owner: string; hash: string }>, now: string): Promise<void> {
  for (let i = 0; i < files.length; i += 400) {
    await db
      .insertInto('output_files')
      .values(files.slice(i, i + 400).map((f) => ({ ...f, updated_at: now })))
      .onConflict((oc) =>
        oc.column('path').doUpdateSet((eb) => ({ owner: eb.ref('excluded.owner'), hash: eb.ref('excluded.hash'), updated_at: eb.ref('excluded.updated_at') })),
      )
      .execute();
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
