/**
 * The generated worker in front of an R2 bucket, run by Miniflare (workerd,
 * Cloudflare's runtime, from npm through wrangler) on a free loopback port:
 * the bucket filled with every file of an output folder as a deploy stores
 * them (key = path, content type and cache policy as metadata), and the
 * worker bound to it as `BUCKET`.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { renderCloudflareWorker } from '../../server/hosting/cloudflare-config.ts';
import { cacheControlOfFile } from '../../server/serving/cache-policy.ts';
import { contentTypeOf } from '../../server/serving/content-types.ts';
import { freePort } from './free-port.ts';
import { outputFiles } from './output-files.ts';

/** A running worker. */
export interface R2WorkerHost {
  readonly url: string;
  stop(): Promise<void>;
}

/** Fills a bucket with `dist` and serves it through the worker. */
export async function startR2Worker(dist: string): Promise<R2WorkerHost> {
  const port = await freePort();
  const mf = new Miniflare({
    modules: true,
    script: await renderCloudflareWorker(),
    compatibilityDate: '2026-04-01',
    r2Buckets: ['BUCKET'],
    host: '127.0.0.1',
    port,
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  const bucket = (await mf.getR2Bucket('BUCKET')) as unknown as { put(key: string, value: Uint8Array, options: { httpMetadata: Record<string, string> }): Promise<unknown> };
  for (const file of outputFiles(dist)) {
    await bucket.put(file, new Uint8Array(fs.readFileSync(path.join(dist, file))), { httpMetadata: { contentType: contentTypeOf(file), cacheControl: cacheControlOfFile(file, 60) } });
  }
  return { url, stop: () => mf.dispose() };
}
