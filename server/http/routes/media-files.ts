/**
 * GET /media/{path}: the stored images, as static files from the media folder.
 * Names are content-hashed, so every file is cached for a year as immutable
 * and its hash is its ETag. Only plain names inside the media folder are
 * served: dot segments, encoded separators, backslashes and absolute paths
 * are refused before the filesystem is touched.
 * @module
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import type { MediaStorage } from '../../media/media-storage.ts';
import { normalizeRequestPath } from '../../urls/request-path.ts';
import { PressroomError } from '../../domain/errors.ts';

/** Cache-Control of every media file. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

// PNG: the channel avatar's rendition for RSS `<image>` (docs/MEDIA.md).
const CONTENT_TYPES: Readonly<Record<string, string>> = { webp: 'image/webp', png: 'image/png' };

/**
 * The media name in a request path (`/media/a/b.webp` → `a/b.webp`), or null
 * when the path is not a plain, safe name. Checks the raw (still encoded)
 * path, so `%2e%2e`, `%2f` and `%5c` cannot smuggle a separator or `..`.
 */
export function mediaNameFromPath(rawPath: string): string | null {
  const canonical = normalizeRequestPath(rawPath);
  if (canonical === null || !canonical.startsWith('/media/')) return null;
  const raw = canonical.slice('/media/'.length);
  if (raw === '' || raw.startsWith('/') || /%(?:2e|2f|5c|00)|\\|\/\/|(?:^|\/)\.\.?(?:\/|$)/i.test(raw)) return null;
  try {
    const name = decodeURIComponent(raw);
    return /^[A-Za-z0-9_\-./]+$/.test(name) && !name.includes('..') ? name : null;
  } catch {
    return null;
  }
}

function notFound(_c: Context): never {
  throw new PressroomError('NOT_FOUND', 'No media file exists at this address. Check the URL returned by the upload (POST …/media).');
}

/** Serves the files of `storage` under /media. */
export function mediaFileRoutes(storage: MediaStorage): Hono {
  return new Hono().get('/*', async (c) => {
    const name = mediaNameFromPath(new URL(c.req.url).pathname);
    const type = name ? CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] : undefined;
    const file = name && type ? await storage.resolveExisting(name) : null;
    if (!file || !type) return notFound(c);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return notFound(c);
    // The 16-hex hash in the name identifies the bytes; fall back to size and time for other names.
    const hash = /([0-9a-f]{16})\.[a-z]+$/.exec(name!)?.[1];
    const etag = hash ? `"${hash}"` : `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers = {
      'Cache-Control': MEDIA_CACHE_CONTROL,
      ETag: etag,
      'Content-Type': type,
      'X-Content-Type-Options': 'nosniff',
    };
    if ((c.req.header('if-none-match') ?? '').split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      return c.body(null, 304, headers);
    }
    if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Length': String(stat.size) });
    const stream = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
    return c.body(stream, 200, { ...headers, 'Content-Length': String(stat.size) });
  });
}
