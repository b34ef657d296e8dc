/**
 * An OpenAPI document as the API serves it: the same bytes for the whole
 * process, with a strong ETag, Last-Modified (the start), Cache-Control,
 * 304s and compression, like every static file (issue 34: the publishing
 * API's document had none of them).
 * @module
 */
import type { Context } from 'hono';
import { etagOf, respondConditionally, type ConditionalBody } from '../conditional-get.ts';

/**
 * A handler answering the JSON text `load` returns, cacheable for `maxAgeSeconds`. Loaded (and its YAML parsed)
 * at the first request, not at the start: parsing both documents cost ~0.35 s of every start (issue 36).
 */
export function openApiDocument(load: () => string, maxAgeSeconds: number): (c: Context) => Promise<Response> {
  const started = new Date(Math.floor(Date.now() / 1000) * 1000);
  let body: ConditionalBody | null = null;
  return (c) => {
    if (!body) {
      const bytes = new TextEncoder().encode(load());
      body = { bytes, contentType: 'application/json; charset=utf-8', cacheControl: `public, max-age=${maxAgeSeconds}, must-revalidate`, etag: etagOf(bytes), lastModified: started };
    }
    return respondConditionally(c, body);
  };
}
