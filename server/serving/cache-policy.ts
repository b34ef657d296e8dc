/**
 * How long caches may keep the output's files, as the static hosts' configs
 * send it: hashed assets and media for a year, everything else for a minute
 * and then revalidated. The bundled server sends the same two forms, with
 * the minute configurable (`PRESSROOM_CACHE_MAX_AGE`, `http/routes/site-files.ts`).
 * @module
 */

/** Pages, JSON, feeds and every other address that changes with a publish. */
export const SHORT_CACHE = 'public, max-age=60, must-revalidate';

/** `/_astro/*` and `/media/*`: names that change whenever their bytes do. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * Every error answer (404, 422, 503…): an error is the answer of one moment (a 404 before a publish), and a
 * cache that kept it would answer wrongly after it.
 */
export const ERROR_CACHE_CONTROL = 'no-store';

/** Cache-Control of a published document that may change with a publish, kept `maxAgeSeconds`. */
export function documentCacheControl(maxAgeSeconds: number): string {
  return `public, max-age=${maxAgeSeconds}, must-revalidate`;
}

/** Cache-Control of an output file: hashed assets and media forever, everything else as a published document. */
export function cacheControlOfFile(file: string, maxAgeSeconds: number): string {
  return file.startsWith('_astro/') || file.startsWith('media/') ? IMMUTABLE_CACHE : documentCacheControl(maxAgeSeconds);
}
