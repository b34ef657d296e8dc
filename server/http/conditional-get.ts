/**
 * Validators and conditional GETs shared by every public response, static
 * file or rendered variant: a strong ETag from the content, Last-Modified,
 * and 304 for `If-None-Match` (which wins when both are sent, RFC 9110
 * 13.2.2) or `If-Modified-Since`.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';

/** A strong ETag of some bytes. */
export function etagOf(bytes: Uint8Array | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/** True when the validators a client sent (header values, or undefined) say its copy is current. */
export function validatorsMatch(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, lastModified: Date | null): boolean {
  if (ifNoneMatch !== undefined) return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
  if (!lastModified) return false;
  const since = Date.parse(ifModifiedSince ?? '');
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** True when the request's validators say the client's copy is current. */
export function isNotModified(c: Context, etag: string, lastModified: Date | null): boolean {
  return validatorsMatch(c.req.header('if-none-match'), c.req.header('if-modified-since'), etag, lastModified);
}

/** A response to send with validators. */
export interface ConditionalBody {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly etag: string;
  readonly lastModified: Date | null;
  readonly headers?: Record<string, string>;
}

/** Every header of a response with validators. */
export function conditionalHeaders(body: Omit<ConditionalBody, 'bytes'>): Record<string, string> {
  return {
    'Content-Type': body.contentType,
    'Cache-Control': body.cacheControl,
    ETag: body.etag,
    'X-Content-Type-Options': 'nosniff',
    ...(body.lastModified ? { 'Last-Modified': body.lastModified.toUTCString() } : {}),
    ...body.headers,
  };
}

/** Answers 304, a bodiless 200 for HEAD, or the full 200. */
export function respondConditionally(c: Context, body: ConditionalBody): Response {
  const headers = conditionalHeaders(body);
  if (isNotModified(c, body.etag, body.lastModified)) return c.body(null, 304, headers);
  // HEAD carries the length the GET would have.
  if (c.req.method === 'HEAD') return c.body(null, 200, { ...headers, 'Content-Length': String(body.bytes.byteLength) });
  return c.body(body.bytes, 200, headers);
}
