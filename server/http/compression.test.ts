import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressed, encodedEtag, isCompressible, varyWithEncoding } from './compression.ts';

describe('chooseEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', null],
    ['deflate', null],
    ['GZIP', 'gzip'],
  ] as const)('Accept-Encoding: %s → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('isCompressible', () => {
  it.each([
    ['text/html; charset=utf-8', 2000, true],
    ['application/json; charset=utf-8', 2000, true],
    ['application/rss+xml; charset=utf-8', 2000, true],
    ['application/feed+json; charset=utf-8', 2000, true],
    ['text/markdown; charset=utf-8', 2000, true],
    ['image/svg+xml', 2000, true],
    ['image/webp', 2000, false],
    ['text/html; charset=utf-8', 1023, false],
  ] as const)('%s, %d bytes → %s', (type, size, expected) => {
    expect(isCompressible(type, size)).toBe(expected);
  });
});

describe('representations', () => {
  it('names each encoding in the ETag and Vary', () => {
    expect(encodedEtag('"abc"', 'br')).toBe('"abc-br"');
    expect(varyWithEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyWithEncoding('Accept')).toBe('Accept, Accept-Encoding');
  });

  it('compresses once per ETag and encoding, and the bytes decode back', async () => {
    const bytes = new TextEncoder().encode('<p>tide</p>'.repeat(500));
    const first = compressed(bytes, '"t1"', 'br');
    expect(compressed(bytes, '"t1"', 'br')).toBe(first);
    expect(zlib.brotliDecompressSync(await first).equals(Buffer.from(bytes))).toBe(true);
    expect(zlib.gunzipSync(await compressed(bytes, '"t1"', 'gzip')).equals(Buffer.from(bytes))).toBe(true);
  });
});
