/**
 * `bucket_objects` (migration 0017): what the deploy bucket holds. Written
 * by the bucket sync (`server/edge/bucket/bucket-sync.ts`) one object at a
 * time, after the upload or the deletion succeeded.
 * @module
 */
import type { Executor } from './database.ts';
import type { BucketObjectTable } from './bucket-object.table.ts';
import { readSetting, writeSetting } from './instance-setting.repository.ts';

/** A recorded object. */
export type BucketObject = Readonly<BucketObjectTable>;

/** The recorded objects among `keys`, by key. */
export async function readBucketObjects(db: Executor, keys: readonly string[]): Promise<Map<string, BucketObject>> {
  const out = new Map<string, BucketObject>();
  for (let i = 0; i < keys.length; i += 500) {
    for (const row of await db.selectFrom('bucket_objects').selectAll().where('key', 'in', keys.slice(i, i + 500)).execute()) out.set(row.key, row);
  }
  return out;
}

/** Every recorded key, or those under a folder (`media/`). */
export async function listBucketKeys(db: Executor, under?: string): Promise<string[]> {
  let q = db.selectFrom('bucket_objects').select('key');
  if (under) q = q.where('key', '>=', under).where('key', '<', `${under}\uffff`);
  return (await q.orderBy('key').execute()).map((r) => r.key);
}

/** Records an uploaded object (or a file found unchanged under a new mtime). */
export async function recordBucketObject(db: Executor, row: BucketObject): Promise<void> {
  await db
    .insertInto('bucket_objects')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ hash: row.hash, size: row.size, mtime_ms: row.mtime_ms, content_type: row.content_type, cache_control: row.cache_control, uploaded_at: row.uploaded_at }))
    .execute();
}

/** Forgets deleted objects. */
export async function forgetBucketObjects(db: Executor, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) await db.deleteFrom('bucket_objects').where('key', 'in', keys.slice(i, i + 500)).execute();
}

/** The owners of managed output files among `paths` (`output_files.owner`), for the deploy's order. */
export async function ownersOfPaths(db: Executor, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 500) {
    for (const row of await db.selectFrom('output_files').select(['path', 'owner']).where('path', 'in', paths.slice(i, i + 500)).execute()) out.set(row.path, row.owner);
  }
  return out;
}

/** The setting naming the bucket `bucket_objects` describes. */
const BUCKET_SETTING = 'deploy_bucket';

/**
 * Makes `bucket_objects` describe `name` (`s3://bucket/prefix`): when the
 * records are of another bucket (the setting changed), they are forgotten,
 * so the next sync uploads everything there. @returns whether they were.
 */
export async function adoptBucket(db: Executor, name: string): Promise<boolean> {
  const recorded = await readSetting(db, BUCKET_SETTING);
  if (recorded === name) return false;
  await db.deleteFrom('bucket_objects').execute();
  await writeSetting(db, BUCKET_SETTING, name);
  return recorded !== undefined;
}
