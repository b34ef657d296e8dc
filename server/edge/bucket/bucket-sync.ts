/**
 * Continuous deploys to object storage (issue 35; docs/HOSTING.md, "CDN and
 * object storage"): the bucket is kept equal to the output folder, every
 * key with its bytes, content type, cache policy and cache tags.
 *
 * - What the bucket holds is recorded (`bucket_objects`), one row once its
 *   upload or deletion succeeded, so a sync resumes after a crash where it
 *   stopped and never uploads an unchanged file twice (an unchanged size and
 *   mtime skip reading it; an unchanged hash skips uploading it).
 * - Order: leaves first (article files, media, hashed assets, search
 *   fragments), then the search index's entry files, then lists, feeds and
 *   every other page, then deletions: no list or feed in the bucket ever
 *   links to an object that is not there yet, and nothing is deleted while
 *   a list still names it.
 * - After a build, only its changed paths and the folders the builder does
 *   not own (`media/`, `pagefind/`) are compared; `npm run deploy` compares
 *   everything.
 * @module
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import { cacheTagHeaders, tagsOfFile } from '../../serving/cache-tags.ts';
import { cacheControlOfFile } from '../../serving/cache-policy.ts';
import { contentTypeOf } from '../../serving/content-types.ts';
import { TEMP_FILE_NAME, UNMANAGED_OUTPUT_FOLDERS } from '../../serving/static-files.ts';
import type { Db } from '../../store/database.ts';
import { adoptBucket, forgetBucketObjects, listBucketKeys, ownersOfPaths, readBucketObjects, recordBucketObject } from '../../store/bucket-object.repository.ts';
import type { Bucket, ObjectHeaders } from './s3-bucket.ts';
import { EdgeFailure } from '../purger.ts';
import type { SearchFiles } from '../edge-delivery.ts';
import type { Logger } from '../../logger.ts';

/** The search index's folder (`UNMANAGED_OUTPUT_FOLDERS`). */
const SEARCH_FOLDER = 'pagefind';

/** What the object of output file `file` is stored with: the type, cache policy and tags the hosts send with it. */
export function objectHeadersOf(file: string, maxAgeSeconds: number, tagPrefix: string): ObjectHeaders {
  return { contentType: contentTypeOf(file), cacheControl: cacheControlOfFile(file, maxAgeSeconds), cacheTag: cacheTagHeaders(tagsOfFile(tagPrefix, file))['Cache-Tag']! };
}

/** Uploads in flight at once. */
export const BUCKET_UPLOAD_CONCURRENCY = 8;

/** What a sync will do. */
export interface SyncPlan {
  /** Paths to upload, in order: each inner list is uploaded whole before the next starts. */
  readonly uploads: readonly (readonly string[])[];
  /** Paths to delete, after every upload. */
  readonly deletes: readonly string[];
  /** Files found as the bucket has them. */
  readonly unchanged: number;
}

/** What a sync did. */
export interface SyncResult {
  readonly uploaded: number;
  readonly deleted: number;
  readonly bytes: number;
  /** The paths uploaded or deleted: what a CDN in front of the bucket must purge. */
  readonly paths: readonly string[];
}

/** What the sync needs. */
export interface BucketSyncDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly outputDir: string;
  readonly bucket: Bucket;
  readonly tagPrefix: string;
  readonly maxAgeSeconds: number;
}

/**
 * Plans a sync of `scope`: every file (`'all'`), or the given output paths
 * plus the folders the builder does not own.
 */
export async function planSync(
  deps: Pick<BucketSyncDeps, 'db' | 'clock' | 'outputDir' | 'bucket'>,
  scope: 'all' | { readonly paths: readonly string[]; readonly folders?: readonly string[] },
): Promise<SyncPlan> {
  // What is recorded is of one bucket: another one (the setting changed) starts from nothing.
  await deps.db.transaction().execute((trx) => adoptBucket(trx, deps.bucket.name));
  const local = new Map<string, fs.Stats>();
  const recordedUnder: string[] = [];
  if (scope === 'all') {
    // A missing or unbuilt output would make the bucket equal to nothing: every object deleted.
    if (!fs.existsSync(path.join(deps.outputDir, 'index.html'))) {
      throw new EdgeFailure(`s3: ${deps.outputDir} holds no built site (no index.html); nothing was sent or deleted. Build it first (npm run build), or point PRESSROOM_OUTPUT_DIR at it.`);
    }
    walk(deps.outputDir, '', local);
    for (const key of await listBucketKeys(deps.db)) recordedUnder.push(key);
  } else {
    for (const p of new Set(scope.paths)) {
      const stat = statOrNull(path.join(deps.outputDir, p));
      if (stat?.isFile()) local.set(p, stat);
      else recordedUnder.push(p);
    }
    for (const folder of scope.folders ?? UNMANAGED_OUTPUT_FOLDERS) {
      walk(path.join(deps.outputDir, folder), `${folder}/`, local);
      for (const key of await listBucketKeys(deps.db, `${folder}/`)) recordedUnder.push(key);
    }
  }
  const recorded = await readBucketObjects(deps.db, [...local.keys()]);
  const changed: string[] = [];
  let unchanged = 0;
  for (const [p, stat] of local) {
    const row = recorded.get(p);
    if (row && row.size === stat.size && row.mtime_ms === Math.floor(stat.mtimeMs)) {
      unchanged += 1;
      continue;
    }
    if (row && row.size === stat.size) {
      // Rewritten with the same bytes (a full build into a new folder): noted, not uploaded.
      const bytes = readOrNull(path.join(deps.outputDir, p));
      if (bytes && sha256(bytes) === row.hash) {
        await recordBucketObject(deps.db, { ...row, mtime_ms: Math.floor(stat.mtimeMs) });
        unchanged += 1;
        continue;
      }
    }
    changed.push(p);
  }
  const gone = [...new Set(recordedUnder)].filter((p) => !local.has(p));
  const deletes = [...(await readBucketObjects(deps.db, gone)).keys()].sort();
  const owners = await ownersOfPaths(deps.db, changed);
  const stages: string[][] = [[], [], []];
  for (const p of changed.sort()) stages[stageOf(p, owners.get(p))]!.push(p);
  return { uploads: stages.filter((s) => s.length > 0), deletes, unchanged };
}

/** Carries out a plan; `progress` is told after each object. Throws an `EdgeFailure` at the first refusal (what was done stays recorded). */
export async function applySync(deps: BucketSyncDeps, plan: SyncPlan, progress?: (done: number, total: number, bytes: number) => void): Promise<SyncResult> {
  const total = plan.uploads.reduce((n, s) => n + s.length, 0) + plan.deletes.length;
  let done = 0;
  let bytes = 0;
  let uploaded = 0;
  const paths: string[] = [];
  for (const stage of plan.uploads) {
    let next = 0;
    const lane = async () => {
      while (next < stage.length) {
        const p = stage[next++]!;
        const file = path.join(deps.outputDir, p);
        const stat = statOrNull(file);
        const body = stat?.isFile() ? readOrNull(file) : null;
        // Gone since the plan: the next sync deletes it.
        if (body && stat) {
          const headers = objectHeadersOf(p, deps.maxAgeSeconds, deps.tagPrefix);
          await deps.bucket.put(p, body, headers);
          await recordBucketObject(deps.db, {
            key: p,
            hash: sha256(body),
            size: body.byteLength,
            mtime_ms: Math.floor(stat.mtimeMs),
            content_type: headers.contentType,
            cache_control: headers.cacheControl,
            uploaded_at: isoNow(deps.clock),
          });
          bytes += body.byteLength;
          uploaded += 1;
          paths.push(p);
        }
        done += 1;
        progress?.(done, total, bytes);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BUCKET_UPLOAD_CONCURRENCY, stage.length) }, lane));
  }
  for (let i = 0; i < plan.deletes.length; i += 1_000) {
    const batch = plan.deletes.slice(i, i + 1_000);
    await deps.bucket.delete(batch);
    await forgetBucketObjects(deps.db, batch);
    for (const key of batch) paths.push(key);
    done += batch.length;
    progress?.(done, total, bytes);
  }
  return { uploaded, deleted: plan.deletes.length, bytes, paths };
}

/**
 * The deploy of the edge delivery: the paths builds changed, `media/`,
 * and `pagefind/` when the search index was rebuilt; or (`everything`: the
 * first round after a start) every file; resolves with the paths it uploaded or deleted. A large sync
 * logs its progress every tenth.
 */
export function bucketDeployer(deps: BucketSyncDeps, log?: Logger): (paths: readonly string[], scope: { everything: boolean; search: SearchFiles | null }) => Promise<SyncResult> {
  return async (paths, scope) => {
    // The search index's files are compared when it was rebuilt: the bundles the rebuild rewrote, or the whole
    // folder (tens of thousands of files on a large site) after a full rebuild; media at every round, since a
    // page may name an image uploaded just before.
    const folders = UNMANAGED_OUTPUT_FOLDERS.filter((f) => f !== SEARCH_FOLDER || scope.search === 'all');
    const search = scope.search !== null && scope.search !== 'all' ? scope.search : { folders: [], files: [] };
    const plan = await planSync(deps, scope.everything ? 'all' : { paths: [...paths, ...search.files], folders: [...folders, ...search.folders] });
    const total = plan.uploads.reduce((n, s) => n + s.length, 0) + plan.deletes.length;
    if (total >= 1_000) log?.info('bucket sync', { bucket: deps.bucket.name, upload: total - plan.deletes.length, delete: plan.deletes.length, unchanged: plan.unchanged });
    let tenth = 0;
    const result = await applySync(deps, plan, (done, all, bytes) => {
      if (all < 1_000 || Math.floor((done * 10) / all) <= tenth) return;
      tenth = Math.floor((done * 10) / all);
      log?.info('bucket sync progress', { done, total: all, mb: Math.round(bytes / 1_048_576) });
    });
    if (total >= 1_000) log?.info('bucket synced', { bucket: deps.bucket.name, uploaded: result.uploaded, deleted: result.deleted, mb: Math.round(result.bytes / 1_048_576) });
    return result;
  };
}

/** 0: leaves (article files, media, assets, search fragments); 1: the search index's entry files; 2: lists, feeds, pages. */
function stageOf(p: string, owner: string | undefined): 0 | 1 | 2 {
  if (p.startsWith('pagefind/')) return /(?:^|\/)(?:pagefind-entry\.json|pagefind[^/]*\.js|[^/]*\.pf_meta)$/.test(p) ? 1 : 0;
  if (p.startsWith('media/') || p.startsWith('_astro/') || owner?.startsWith('article:')) return 0;
  return 2;
}

/** Every regular file under `dir`, as output paths under `prefix`; temporary files are never deployed. */
function walk(dir: string, prefix: string, into: Map<string, fs.Stats>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory()) walk(path.join(dir, entry.name), `${rel}/`, into);
    else if (entry.isFile() && !TEMP_FILE_NAME.test(entry.name)) {
      const stat = statOrNull(path.join(dir, entry.name));
      if (stat) into.set(rel, stat);
    }
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
