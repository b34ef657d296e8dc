/**
 * Validators and conditional GETs shared by every public response, static
 * file or rendered variant: a strong ETag from the content, Last-Modified,
 * and 304 for `If-None-Match` (which wins when both are sent, RFC 9110
 * 13.2.2) or `If-Modified-Since`.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { chooseEncoding, compressed, encodedEtag, isCompressible, varyWithEncoding } from './compression.ts';

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

/**
 * The headers `conditionalAnswer` sends for `body` when it is not compressed
 * (a 200 or a 304; without Content-Length): its validators, and `Vary:
 * Accept-Encoding` where it could have been.
 */
export function identityHeaders(body: ConditionalBody): Record<string, string> {
  const headers = conditionalHeaders(body);
  return isCompressible(body.contentType, body.bytes.byteLength) ? { ...headers, Vary: varyWithEncoding(headers['Vary']) } : headers;
}

/** The request headers a conditional answer depends on. */
export interface ConditionalRequest {
  readonly acceptEncoding: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly ifModifiedSince: string | undefined;
}

/**
 * What to send for `body`: 304, or 200 with its bytes, compressed when the
 * type and size allow it and the client accepts it (`compression.ts`; the
 * validators are then the compressed representation's). One rule for the
 * app (`respondConditionally`) and the server's fast path.
 */
export async function conditionalAnswer(body: ConditionalBody, request: ConditionalRequest): Promise<{ status: 200 | 304; headers: Record<string, string>; bytes: Uint8Array<ArrayBuffer> }> {
  let { bytes, etag } = body;
  let headers = identityHeaders(body);
  let encoding: ReturnType<typeof chooseEncoding> = null;
  if (isCompressible(body.contentType, bytes.byteLength)) {
    encoding = chooseEncoding(request.acceptEncoding);
    if (encoding) {
      etag = encodedEtag(body.etag, encoding);
      headers = { ...headers, ETag: etag, 'Content-Encoding': encoding };
    }
  }
  if (validatorsMatch(request.ifNoneMatch, request.ifModifiedSince, etag, body.lastModified)) return { status: 304, headers, bytes: new Uint8Array(0) };
  if (encoding) bytes = await compressed(body.bytes, body.etag, encoding);
  return { status: 200, headers, bytes };
}

/** Answers 304, a bodiless 200 for HEAD (with the length the GET would have), or the full 200 (`conditionalAnswer`). */
export async function respondConditionally(c: Context, body: ConditionalBody): Promise<Response> {
  const answer = await conditionalAnswer(body, { acceptEncoding: c.req.header('accept-encoding'), ifNoneMatch: c.req.header('if-none-match'), ifModifiedSince: c.req.header('if-modified-since') });
  if (answer.status === 304) return c.body(null, 304, answer.headers);
  if (c.req.method === 'HEAD') return c.body(null, 200, { ...answer.headers, 'Content-Length': String(answer.bytes.byteLength) });
  return c.body(answer.bytes, 200, answer.headers);
}
