/**
 * Serves the static output (`dist/`) from the bundled server, the way a
 * static host would: every public address maps onto its file through
 * `fileForRequest` (the inverse of the build's file layout), with strong
 * ETags derived from the content, Last-Modified, Cache-Control and 304s for
 * `If-None-Match` and `If-Modified-Since`. Nothing outside the output folder
 * is ever read: the mapping refuses dot segments and encoded separators, and
 * the resolved path is checked once more against the folder.
 * @module
 */
import { Hono, type Context } from 'hono';
import { fileForRequest } from '../../serving/static-files.ts';
import { resolveOutputRequest } from '../../serving/output-request.ts';
import { contentTypeOf } from '../../serving/content-types.ts';
import { respondConditionally, type ConditionalBody } from '../conditional-get.ts';
import type { CachedFile, OutputFileCache } from '../output-file-cache.ts';
import { PressroomError } from '../../domain/errors.ts';
import { isApiPath, notFoundPageFiles, wantsNotFoundPage } from '../../serving/not-found-page.ts';
import { HTML_SECURITY_HEADERS } from '../../serving/security-headers.ts';
import { cacheControlOfFile, documentCacheControl as documentCacheControlFor, ERROR_CACHE_CONTROL } from '../../serving/cache-policy.ts';
import type { NotFoundPage } from '../on-error.ts';
import { cacheTagHeaders, tagsOfFile } from '../../serving/cache-tags.ts';

export { resolveOutputRequest, type OutputAnswer } from '../../serving/output-request.ts';

/** How long clients and CDNs may keep what the server answers. */
export interface CachePolicy {
  /** Seconds a published document may be served from a cache before revalidating. */
  readonly maxAgeSeconds: number;
  /** Prefix of the cache tags every answer carries (`serving/cache-tags.ts`). */
  readonly tagPrefix: string;
}

/** Cache-Control of a published document (a page, a JSON or Markdown answer, a feed): a publish may change it. */
export function documentCacheControl(policy: CachePolicy): string {
  return documentCacheControlFor(policy.maxAgeSeconds);
}

/** Cache-Control of an output file: hashed assets forever, everything else as a published document. */
export function cacheControlOf(file: string, policy: CachePolicy): string {
  return cacheControlOfFile(file, policy.maxAgeSeconds);
}

function notFound(c: Context): never {
  throw new PressroomError('NOT_FOUND', `Nothing is published at ${new URL(c.req.url).pathname}. It does not exist, or it is not published (any more).`);
}

/** The validator headers and content headers of a cached output file. */
export function outputFileHeaders(relative: string, file: CachedFile, policy: CachePolicy, extra: Record<string, string> = {}): Omit<ConditionalBody, 'bytes'> {
  return {
    contentType: contentTypeOf(relative),
    cacheControl: cacheControlOf(relative, policy),
    etag: file.etag,
    lastModified: file.mtime,
    headers: { ...cacheTagHeaders(tagsOfFile(policy.tagPrefix, relative)), ...extra },
  };
}

/**
 * Serves one output file (relative path) with validators, or resolves null
 * when no such file exists (or the path leaves the folder).
 */
export async function serveOutputFile(
  c: Context,
  files: OutputFileCache,
  relative: string,
  policy: CachePolicy,
  headers: Record<string, string> = {},
): Promise<Response | null> {
  const file = await files.get(relative);
  if (!file) return null;
  return respondConditionally(c, { bytes: file.bytes, ...outputFileHeaders(relative, file, policy, headers) });
}

/** GET and HEAD for every public address of the static output, read through `files`. */
export function siteFileRoutes(files: OutputFileCache, policy: CachePolicy): Hono {
  const serve = async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    const answer = resolveOutputRequest(url.pathname, url.searchParams.get('lang'), c.req.header('accept'));
    if (!answer) return notFound(c);
    return (await serveOutputFile(c, files, answer.file, policy, answer.headers)) ?? notFound(c);
  };
  return new Hono().get('/*', serve);
}

/**
 * The site's 404 page for a GET that wants HTML (`serving/not-found-page.ts`):
 * the first of the address's 404 files that exists, with status 404. Outside
 * `/api/` the answer depends on `Accept`, so it says `Vary: Accept` (the
 * JSON body included).
 */
export function notFoundPageFrom(files: OutputFileCache): NotFoundPage {
  return async (c) => {
    const pathname = c.req.path;
    if (isApiPath(pathname)) return null;
    c.header('Vary', 'Accept');
    if (!wantsNotFoundPage(pathname, c.req.header('accept'))) return null;
    for (const relative of notFoundPageFiles(pathname)) {
      const file = await files.get(relative);
      if (!file) continue;
      return new Response(c.req.method === 'HEAD' ? null : file.bytes, {
        status: 404,
        headers: {
          'Content-Type': contentTypeOf(relative),
          'Cache-Control': ERROR_CACHE_CONTROL,
          Vary: 'Accept',
          'X-Content-Type-Options': 'nosniff',
          ...HTML_SECURITY_HEADERS,
        },
      });
    }
    return null;
  };
}
