/**
 * Compressed answers for the text outputs (pages, JSON, Markdown, feeds,
 * sitemaps, llms.txt, CSS, scripts, SVG) on the bundled server, routes and
 * fast path alike: brotli or gzip as the client's `Accept-Encoding` allows
 * (q-values, negotiator; brotli first when both are equally welcome), each
 * with its own strong ETag (`"…-br"`, `"…-gzip"`: RFC 9110 8.8.3, a
 * representation's validator differs from another encoding's) and
 * `Vary: Accept-Encoding`. Files under `MIN_COMPRESSED_BYTES` and other
 * types (images) are sent as they are.
 *
 * A file is compressed once per version: the results are remembered by
 * ETag and encoding (least recently used first out past `MEMO_BYTES`), and
 * made with zlib's asynchronous functions, on libuv's thread pool rather
 * than the request thread. Brotli quality 5 and gzip level 6: most of the
 * size gain of the highest settings at a small part of their time
 * (`npm run bench -- --only compression`).
 * @module
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

/** A content coding the server can apply. */
export type Encoding = 'br' | 'gzip';

/** Below this size a compressed answer saves less than its headers and the client's work cost. */
export const MIN_COMPRESSED_BYTES = 1024;
const MEMO_BYTES = 32 * 1024 * 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|rss\+xml|atom\+xml|feed\+json|javascript|manifest\+json)|image\/svg\+xml)/i;
const OFFERED = ['br', 'gzip', 'identity'];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Whether an answer of this type and size is sent compressed when the client accepts it. */
export function isCompressible(contentType: string, size: number): boolean {
  return size >= MIN_COMPRESSED_BYTES && COMPRESSIBLE.test(contentType);
}

/** The coding to send for `acceptEncoding` (the header's value), or null for the bytes as they are. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  // negotiator 1.0 takes the server's order for ties (`preferred`); @types/negotiator 0.6 does not know it.
  const encoding = negotiator.encoding as unknown as (available: string[], options: { preferred: string[] }) => string | undefined;
  const chosen = encoding.call(negotiator, OFFERED, { preferred: OFFERED });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/** The ETag of the `encoding` representation of the bytes whose ETag is `etag`. */
export function encodedEtag(etag: string, encoding: Encoding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : `${etag}-${encoding}`;
}

/** `Vary` with `Accept-Encoding` added to `vary` (a header value or undefined). */
export function varyWithEncoding(vary: string | undefined): string {
  return vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
}

const memo = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
const sizes = new Map<string, number>();
let memoBytes = 0;

/**
 * The bytes whose ETag is `etag`, compressed with `encoding`, made once per
 * ETag and encoding while remembered (see module doc).
 */
export function compressed(bytes: Uint8Array, etag: string, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const key = `${encoding}:${etag}`;
  const known = memo.get(key);
  if (known) {
    // Map order is recency order.
    memo.delete(key);
    memo.set(key, known);
    return known;
  }
  const made = (
    encoding === 'br'
      ? brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
      : gzip(bytes, { level: 6 })
  ).then((out) => {
    const result = new Uint8Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer);
    if (memo.get(key) === made) {
      sizes.set(key, result.byteLength);
      memoBytes += result.byteLength;
      for (const [old] of memo) {
        if (memoBytes <= MEMO_BYTES) break;
        if (!sizes.has(old)) continue;
        memo.delete(old);
        memoBytes -= sizes.get(old)!;
        sizes.delete(old);
      }
    }
    return result;
  });
  made.catch(() => memo.delete(key));
  memo.set(key, made);
  return made;
}
