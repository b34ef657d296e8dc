import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { keptInBucket, restoreMediaFromBucket, type MediaBucket } from './bucket-kept-media.ts';
import { createMediaStorage } from './media-storage.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-kept-media-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An S3 bucket held in memory (the S3 adapter itself is tested against s3rver, test/e2e/media-bucket.test.ts). */
function memoryBucket(options: { failing?: boolean } = {}): MediaBucket & { objects: Map<string, Uint8Array>; headers: Map<string, unknown> } {
  const objects = new Map<string, Uint8Array>();
  const headers = new Map<string, unknown>();
  return {
    name: 's3://memory/',
    objects,
    headers,
    async put(key, bytes, sent) {
      if (options.failing) throw new Error('s3: uploading failed: ECONNREFUSED');
      objects.set(key, bytes);
      headers.set(key, sent);
    },
    async get(key) {
      if (options.failing) throw new Error('s3: downloading failed: ECONNREFUSED');
      return objects.get(key) ?? null;
    },
  };
}

const log = createLogger('silent');
const headersOf = (file: string) => ({ contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable', cacheTag: `tag:${file}` });
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('uploads kept in the bucket', () => {
  it('stores each write in the bucket under the output copy\'s key, with the deploy\'s headers', async () => {
    const bucket = memoryBucket();
    const storage = keptInBucket(createMediaStorage(path.join(dir, 'data'), path.join(dir, 'dist')), bucket, headersOf, log);
    await storage.write('news/_drafts/0123456789abcdef.webp', bytes('image'));
    expect(fs.readFileSync(path.join(dir, 'data/news/_drafts/0123456789abcdef.webp'), 'utf8')).toBe('image');
    expect(Buffer.from(bucket.objects.get('media/news/_drafts/0123456789abcdef.webp')!).toString()).toBe('image');
    expect(bucket.headers.get('media/news/_drafts/0123456789abcdef.webp')).toEqual(headersOf('media/news/_drafts/0123456789abcdef.webp'));
  });

  it('refuses the write with MEDIA_STORE_UNAVAILABLE and a retry time when the bucket refuses it', async () => {
    const storage = keptInBucket(createMediaStorage(path.join(dir, 'data'), path.join(dir, 'dist')), memoryBucket({ failing: true }), headersOf, log);
    await expect(storage.write('news/_drafts/0123456789abcdef.webp', bytes('image'))).rejects.toMatchObject({ code: 'MEDIA_STORE_UNAVAILABLE', status: 503, details: { retry_after_seconds: 10 } });
  });

  it('fetches what the data folder lacks: by its own key, or by a file with the same bytes; names what it cannot find', async () => {
    const bucket = memoryBucket();
    bucket.objects.set('media/news/_drafts/aaaa.webp', bytes('draft bytes'));
    bucket.objects.set('media/news/_channel/avatar-b.webp', bytes('avatar'));
    bucket.objects.set('media/news/_channel/avatar-b.png', bytes('avatar png'));
    const local = createMediaStorage(path.join(dir, 'data'), path.join(dir, 'dist'));
    await local.write('news/kept/cccc.webp', bytes('already here'));
    const files = [
      { file_name: 'news/_drafts/aaaa.webp', feed_file_name: null, content_hash: 'h1' },
      // The article's copy of that draft: not uploaded yet when its server died.
      { file_name: 'news/story/aaaa.webp', feed_file_name: null, content_hash: 'h1' },
      { file_name: 'news/_channel/avatar-b.webp', feed_file_name: 'news/_channel/avatar-b.png', content_hash: 'h2' },
      { file_name: 'news/kept/cccc.webp', feed_file_name: null, content_hash: 'h3' },
      { file_name: 'news/lost/dddd.webp', feed_file_name: null, content_hash: 'h4' },
    ];
    const result = await restoreMediaFromBucket(local, bucket, files);
    expect(result).toEqual({ restored: 4, missing: ['news/lost/dddd.webp'] });
    expect(fs.readFileSync(path.join(dir, 'data/news/story/aaaa.webp'), 'utf8')).toBe('draft bytes');
    expect(fs.readFileSync(path.join(dir, 'data/news/_channel/avatar-b.png'), 'utf8')).toBe('avatar png');
    expect(fs.readFileSync(path.join(dir, 'data/news/kept/cccc.webp'), 'utf8')).toBe('already here');
    // Nothing was uploaded again.
    expect(bucket.headers.size).toBe(0);
  });

  it('leaves a file missing, with the bucket\'s error, when the bucket cannot be read', async () => {
    const local = createMediaStorage(path.join(dir, 'data'), path.join(dir, 'dist'));
    const result = await restoreMediaFromBucket(local, memoryBucket({ failing: true }), [{ file_name: 'news/_drafts/aaaa.webp', feed_file_name: null, content_hash: 'h1' }]);
    expect(result.missing).toEqual(['news/_drafts/aaaa.webp']);
    expect(result.failure).toContain('ECONNREFUSED');
  });
});
