import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutputFileCache } from './output-file-cache.ts';

let dir: string;
let clock = 0;
const now = () => clock;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-file-cache-'));
  fs.mkdirSync(path.join(dir, 'a'));
  fs.writeFileSync(path.join(dir, 'a/one.json'), '{"v":1}');
  clock = 0;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');

describe('output file cache', () => {
  it('serves from memory until invalidated', async () => {
    const cache = createOutputFileCache(dir, { now });
    const first = await cache.get('a/one.json');
    expect(text(first?.bytes)).toBe('{"v":1}');
    fs.writeFileSync(path.join(dir, 'a/one.json'), '{"v":2}');
    expect(await cache.get('a/one.json')).toBe(first);
    cache.invalidate(['a/one.json']);
    const second = await cache.get('a/one.json');
    expect(text(second?.bytes)).toBe('{"v":2}');
    expect(second?.etag).not.toBe(first?.etag);
  });

  it('sees changes made by others once an entry is older than revalidateMs', async () => {
    const cache = createOutputFileCache(dir, { now, revalidateMs: 1000 });
    await cache.get('a/one.json');
    fs.writeFileSync(path.join(dir, 'a/one.json'), '{"v":22}');
    clock = 999;
    expect(text((await cache.get('a/one.json'))?.bytes)).toBe('{"v":1}');
    clock = 1000;
    expect(text((await cache.get('a/one.json'))?.bytes)).toBe('{"v":22}');
    fs.rmSync(path.join(dir, 'a/one.json'));
    clock = 2000;
    expect(await cache.get('a/one.json')).toBeNull();
  });

  it('never reads outside the folder, nor folders', async () => {
    const cache = createOutputFileCache(dir, { now });
    expect(await cache.get('../' + path.basename(dir) + '-x')).toBeNull();
    expect(await cache.get('a')).toBeNull();
    expect(await cache.get('missing.json')).toBeNull();
  });

  it('never follows a symbolic link out of the folder (issue 18), but follows one inside it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.json'), '{"secret":true}');
      fs.symlinkSync(path.join(outside, 'secret.json'), path.join(dir, 'a/leak.json'));
      fs.symlinkSync(outside, path.join(dir, 'linked-folder'));
      fs.symlinkSync(path.join(dir, 'a/one.json'), path.join(dir, 'a/alias.json'));
      const cache = createOutputFileCache(dir, { now });
      expect(await cache.get('a/leak.json')).toBeNull();
      expect(await cache.get('linked-folder/secret.json')).toBeNull();
      expect(text((await cache.get('a/alias.json'))?.bytes)).toBe('{"v":1}');
      // A file replaced by a link later is refused at its next check.
      expect(text((await cache.get('a/one.json'))?.bytes)).toBe('{"v":1}');
      fs.rmSync(path.join(dir, 'a/one.json'));
      fs.symlinkSync(path.join(outside, 'secret.json'), path.join(dir, 'a/one.json'));
      clock += 5000;
      expect(await cache.get('a/one.json')).toBeNull();
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('follows the folder itself when it is a link that is pointed elsewhere (a deploy that swaps releases)', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-release-'));
    const current = path.join(os.tmpdir(), `pressroom-current-${path.basename(dir)}`);
    try {
      fs.mkdirSync(path.join(other, 'a'));
      fs.writeFileSync(path.join(other, 'a/one.json'), '{"v":"next"}');
      fs.symlinkSync(dir, current);
      const cache = createOutputFileCache(current, { now });
      expect(text((await cache.get('a/one.json'))?.bytes)).toBe('{"v":1}');
      fs.rmSync(current);
      fs.symlinkSync(other, current);
      clock += 5000;
      // The folder's real path was kept; a file now outside it makes the cache look the folder up again.
      expect(text((await cache.get('a/one.json'))?.bytes)).toBe('{"v":"next"}');
    } finally {
      fs.rmSync(current, { force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('reads a file of several megabytes whole, with the ETag of its bytes', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'x');
    fs.writeFileSync(path.join(dir, 'a/big.json'), big);
    const cache = createOutputFileCache(dir, { now, maxFileBytes: 8 * 1024 * 1024 });
    const file = await cache.get('a/big.json');
    expect(Buffer.from(file!.bytes).equals(big)).toBe(true);
    expect(file!.etag).toBe((await import('./conditional-get.ts')).etagOf(new Uint8Array(big)));
  });

  it('evicts the least recently used entries beyond maxBytes and skips large files', async () => {
    fs.writeFileSync(path.join(dir, 'a/two.json'), 'x'.repeat(10));
    fs.writeFileSync(path.join(dir, 'a/big.json'), 'x'.repeat(100));
    const cache = createOutputFileCache(dir, { now, maxBytes: 17, maxFileBytes: 50 });
    const one = await cache.get('a/one.json'); // 7 bytes
    const two = await cache.get('a/two.json'); // 10 bytes: 17 in all
    expect(await cache.get('a/one.json')).toBe(one); // one is now the most recent
    const big = await cache.get('a/big.json');
    expect(big?.bytes.byteLength).toBe(100);
    expect(await cache.get('a/big.json')).not.toBe(big); // never kept
    fs.writeFileSync(path.join(dir, 'a/three.json'), 'xyz');
    await cache.get('a/three.json'); // 20 bytes: two (least recent) goes
    expect(await cache.get('a/one.json')).toBe(one);
    expect(await cache.get('a/two.json')).not.toBe(two);
  });
});
