/**
 * Uploads kept in the object store (issue 38, item 4): with a bucket
 * configured (`PRESSROOM_DEPLOY_S3_*`), every uploaded image is stored in it
 * under `media/{name}`, the key the bucket deploy gives its output copy,
 * before its row commits, so an upload any server acknowledged survives that
 * server's disk. A server that starts without some of the files its
 * database names (a standby on another machine taking over, a new machine,
 * a lost data folder) fetches them from the bucket before it places its
 * output copy: the data folder is then a cache of the bucket.
 *
 * Only uploads go to the bucket here. The copies the service makes of them
 * (a draft attached to its article: the same bytes under another name) are
 * uploaded by the bucket deploy with the build that shows them; until then
 * a start finds them through any stored file with the same content hash.
 * Deletions stay the bucket deploy's, so the bucket loses an image only when
 * the output no longer has it.
 * @module
 */
import type { Logger } from '../logger.ts';
import { PressroomError } from '../domain/errors.ts';
import { describeError } from '../describe-error.ts';
import type { MediaRestore, PublishedMediaStorage } from './media-storage.ts';

/** The part of the bucket this needs (`edge/bucket/s3-bucket.ts`). */
export interface MediaBucket {
  readonly name: string;
  put(key: string, bytes: Uint8Array, headers: { contentType: string; cacheControl: string; cacheTag: string }): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
}

/** Seconds a client is told to wait before an upload the bucket refused is sent again. */
export const MEDIA_STORE_RETRY_AFTER_SECONDS = 10;

/** The bucket key of media file `name` (the output copy's path, as the deploy names it). */
export const mediaKey = (name: string) => `media/${name}`;

/**
 * The storage, with every write also stored in `bucket` (and awaited).
 * @param headersOf the object headers the bucket deploy would give the output file.
 * @throws {PressroomError} MEDIA_STORE_UNAVAILABLE (503) from `write` when the bucket refuses; the local file stays, no row refers to it, and the cleanup removes it.
 */
export function keptInBucket(
  storage: PublishedMediaStorage,
  bucket: MediaBucket,
  headersOf: (file: string) => { contentType: string; cacheControl: string; cacheTag: string },
  log: Logger,
): PublishedMediaStorage {
  return {
    ...storage,
    restore: (files) => restoreMediaFromBucket(storage, bucket, files),
    async write(name, data) {
      await storage.write(name, data);
      try {
        await bucket.put(mediaKey(name), data, headersOf(mediaKey(name)));
      } catch (error) {
        log.error('an upload could not be stored in the bucket: refused with 503', { file: name, bucket: bucket.name, error: describeError(error) });
        throw new PressroomError('MEDIA_STORE_UNAVAILABLE', undefined, { retry_after_seconds: MEDIA_STORE_RETRY_AFTER_SECONDS });
      }
    },
  };
}

/**
 * Fetches from the bucket every file of `files` the data folder lacks: by
 * its own key, or else by the key of a file with the same bytes (a draft
 * and the article copy made of it). Run before `publishAll`, which would
 * otherwise make the output copy, and so the bucket, lose them.
 */
export async function restoreMediaFromBucket(
  storage: PublishedMediaStorage,
  bucket: MediaBucket,
  files: ReadonlyArray<{ file_name: string; feed_file_name: string | null; content_hash: string }>,
): Promise<MediaRestore> {
  const sameBytes = new Map<string, string[]>();
  for (const file of files) sameBytes.set(file.content_hash, [...(sameBytes.get(file.content_hash) ?? []), file.file_name]);
  let restored = 0;
  const missing: string[] = [];
  let failure: string | undefined;
  const fetchInto = async (name: string, candidates: readonly string[]): Promise<void> => {
    if (await storage.exists(name)) return;
    for (const candidate of candidates) {
      // A bucket that cannot be read leaves the image missing (a 404, logged), not the server down.
      const bytes = await bucket.get(mediaKey(candidate)).catch((error: unknown) => void (failure ??= describeError(error)));
      if (!bytes) continue;
      // The local write only: the bucket has these bytes already.
      await storage.write(name, bytes);
      restored++;
      return;
    }
    missing.push(name);
  };
  for (const file of files) {
    await fetchInto(file.file_name, [file.file_name, ...(sameBytes.get(file.content_hash) ?? []).filter((other) => other !== file.file_name)]);
    if (file.feed_file_name) await fetchInto(file.feed_file_name, [file.feed_file_name]);
  }
  return { restored, missing, ...(failure ? { failure } : {}) };
}
