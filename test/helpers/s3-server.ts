/**
 * A real S3-compatible server in process (s3rver, from npm) with one bucket,
 * for the deploy tests (issue 35): its endpoint, the settings that point
 * Pressroom at it, a way to slow its uploads (to stop a deploy half-way),
 * and a reading of everything it holds.
 * @module
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const S3_BUCKET = 'pressroom-site';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** One object as the bucket holds it. */
export interface StoredObject {
  readonly bytes: Buffer;
  readonly contentType: string | undefined;
  readonly cacheControl: string | undefined;
  readonly cacheTag: string | undefined;
}

/** A running server with a proxy in front that can hold uploads back. */
export interface S3Server {
  /** The proxy's address: what Pressroom is given. */
  readonly endpoint: string;
  /** `PRESSROOM_DEPLOY_S3_*` and the SDK's credentials for it. */
  readonly env: Record<string, string>;
  /** Uploads (PUT) seen through the proxy. */
  puts(): number;
  /** The key of each upload seen through the proxy, in order. */
  putKeys(): readonly string[];
  /** Each upload waits this long before it is passed on. */
  delayUploads(ms: number): void;
  /** Everything in the bucket, by key. */
  objects(): Promise<Map<string, StoredObject>>;
  stop(): Promise<void>;
}

/** Starts s3rver with the bucket, and the proxy. */
export async function startS3(): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: S3_BUCKET, configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  let delayMs = 0;
  let puts = 0;
  const putKeys: string[] = [];
  const proxy = http.createServer((req, res) => {
    const forward = () => {
      const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (req.method === 'PUT') {
      puts += 1;
      // Path-style: /{bucket}/{key}?x-id=PutObject.
      const { pathname } = new URL(req.url ?? '/', 'http://s3');
      putKeys.push(decodeURIComponent(pathname.slice(`/${S3_BUCKET}/`.length)));
      if (delayMs > 0) return void setTimeout(forward, delayMs);
    }
    forward();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const { S3Client, ListObjectsV2Command, GetObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    env: {
      PRESSROOM_DEPLOY_S3_BUCKET: S3_BUCKET,
      PRESSROOM_DEPLOY_S3_ENDPOINT: endpoint,
      PRESSROOM_DEPLOY_S3_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    puts: () => puts,
    putKeys: () => putKeys,
    delayUploads(ms) {
      delayMs = ms;
    },
    async objects() {
      // One object as stored now: null when deleted since the listing (a deploy is running). s3rver replaces
      // an object's file in place, so a read that meets a deploy's overwrite can be cut off ("aborted"): it is
      // read again, as a client of a real bucket retries.
      const readObject = async (key: string, attempt = 1): Promise<StoredObject | null> => {
        try {
          const got = await client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: key }));
          return { bytes: Buffer.from(await got.Body!.transformToByteArray()), contentType: got.ContentType, cacheControl: got.CacheControl, cacheTag: got.Metadata?.['cache-tag'] };
        } catch (error) {
          if (error instanceof Error && error.name === 'NoSuchKey') return null;
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
          return readObject(key, attempt + 1);
        }
      };
      const out = new Map<string, StoredObject>();
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, ContinuationToken: token }));
        for (const o of page.Contents ?? []) {
          const object = await readObject(o.Key!);
          if (object) out.set(o.Key!, object);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async stop() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
