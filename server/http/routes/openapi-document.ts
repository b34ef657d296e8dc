/**
 * An OpenAPI document as the API serves it: the same bytes for the whole
 * process, with a strong ETag, Last-Modified (the start), Cache-Control,
 * 304s and compression, like every static file (issue 34: the publishing
 * API's document had none of them).
 * @module
 */
import type { Context } from 'hono';
import { etagOf, respondConditionally } from '../conditional-get.ts';

/** A handler answering `document`, cacheable for `maxAgeSeconds`. */
export function openApiDocument(document: unknown, maxAgeSeconds: number): (c: Context) => Promise<Response> {
  const bytes = new TextEncoder().encode(JSON.stringify(document));
  const body = {
    bytes,
    contentType: 'application/json; charset=utf-8',
    cacheControl: `public, max-age=${maxAgeSeconds}, must-revalidate`,
    etag: etagOf(bytes),
    lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
  };
  return (c) => respondConditionally(c, body);
}
