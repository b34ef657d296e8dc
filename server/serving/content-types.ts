/**
 * The content type of every output file, decided once: the bundled server
 * (routes and fast path), the Cloudflare worker and the nginx configuration
 * all send what this table says.
 * @module
 */

/** Types by extension, without parameters; {@link CHARSET_TYPES} get `; charset=utf-8`. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  html: 'text/html',
  json: 'application/json',
  md: 'text/markdown',
  txt: 'text/plain',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
});

/** Types that are text in UTF-8, sent with `; charset=utf-8`. */
export const CHARSET_TYPES: readonly string[] = Object.freeze([
  'text/html',
  'text/plain',
  'text/css',
  'text/javascript',
  'text/markdown',
  'application/json',
  'application/xml',
  'application/rss+xml',
  'application/feed+json',
]);

/** The bare type of an output file: feeds have their own, then by extension. */
export function bareTypeOf(file: string): string {
  if (file.endsWith('rss.xml')) return 'application/rss+xml';
  if (file.endsWith('feed.json')) return 'application/feed+json';
  return CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** The Content-Type header of an output file. */
export function contentTypeOf(file: string): string {
  const type = bareTypeOf(file);
  return CHARSET_TYPES.includes(type) ? `${type}; charset=utf-8` : type;
}
