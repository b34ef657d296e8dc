/**
 * The deploy bucket behind the narrowest interface: put one object, get
 * one, delete some. The one module that knows the S3 API (through the AWS SDK, loaded
 * only when a bucket is configured): AWS S3, Cloudflare R2, GCS in its
 * interoperability mode and MinIO all speak it. Credentials come from the
 * SDK's standard chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`,
 * profiles, instance roles).
 * @module
 */
import type { DeployBucket } from '../../config.ts';
import { EdgeFailure } from '../purger.ts';

/** What an object is stored with. */
export interface ObjectHeaders {
  readonly contentType: string;
  readonly cacheControl: string;
  /** The answer's cache tags (`serving/cache-tags.ts`), kept as object metadata `x-amz-meta-cache-tag` for a CDN in front. */
  readonly cacheTag: string;
}

/** A bucket to deploy to. */
export interface Bucket {
  /** `s3://bucket/prefix`, for logs. */
  readonly name: string;
  put(key: string, bytes: Uint8Array, headers: ObjectHeaders): Promise<void>;
  /** An object's bytes, or null when the bucket has no such key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Deletes objects (at most 1,000 a request, as S3 allows). */
  delete(keys: readonly string[]): Promise<void>;
}

/** Objects deleted in one request (S3's limit). */
const DELETE_BATCH = 1_000;

/** The bucket of `target`. `credentials`: fixed ones (tests); by default the SDK's chain. */
export function s3Bucket(target: DeployBucket, credentials?: { accessKeyId: string; secretAccessKey: string }): Bucket {
  let sdk: Promise<typeof import('@aws-sdk/client-s3')> | null = null;
  let client: import('@aws-sdk/client-s3').S3Client | null = null;
  const load = async () => {
    const s3 = await (sdk ??= import('@aws-sdk/client-s3'));
    client ??= new s3.S3Client({
      region: target.region,
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      forcePathStyle: target.pathStyle,
      ...(credentials ? { credentials } : {}),
    });
    return { s3, client };
  };
  const fail = (what: string, error: unknown): never => {
    throw new EdgeFailure(`s3: ${what} failed in ${target.bucket}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  };
  return {
    name: `s3://${target.bucket}/${target.prefix}`,
    async put(key, bytes, headers) {
      const { s3, client } = await load();
      try {
        await client.send(
          new s3.PutObjectCommand({
            Bucket: target.bucket,
            Key: `${target.prefix}${key}`,
            Body: bytes,
            ContentType: headers.contentType,
            CacheControl: headers.cacheControl,
            Metadata: { 'cache-tag': headers.cacheTag },
          }),
        );
      } catch (error) {
        fail(`uploading ${key}`, error);
      }
    },
    async get(key) {
      const { s3, client } = await load();
      try {
        const answer = await client.send(new s3.GetObjectCommand({ Bucket: target.bucket, Key: `${target.prefix}${key}` }));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (error instanceof Error && error.name === 'NoSuchKey') return null;
        return fail(`downloading ${key}`, error);
      }
    },
    async delete(keys) {
      const { s3, client } = await load();
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        let answer;
        try {
          answer = await client.send(new s3.DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: batch.map((k) => ({ Key: `${target.prefix}${k}` })), Quiet: true } }));
        } catch (error) {
          fail(`deleting ${batch.length} objects`, error);
        }
        const errors = answer?.Errors ?? [];
        if (errors.length > 0) throw new EdgeFailure(`s3: ${errors.length} objects not deleted from ${target.bucket}, e.g. ${errors[0]!.Key}: ${errors[0]!.Code} ${errors[0]!.Message}`);
      }
    },
  };
}
