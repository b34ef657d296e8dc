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
import { securityHeadersFor } from '../../hosting/security-headers.ts';
import { articleAlternates, articleLinkHeader, articleOfHtmlFile, fileForRequest, staticFiles } from '../../urls/static-files.ts';
import { prefersMarkdown } from '../accept-markdown.ts';
import { respondConditionally, type ConditionalBody } from '../conditional-get.ts';
import type { CachedFile, OutputFileCache } from '../output-file-cache.ts';
import { errorBody } from '../error-body.ts';

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  png: 'image/png',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
};

/** Content type of an output file; feeds and the sitemap have their own. */
export function contentTypeOf(file: string): string {
  if (file.endsWith('rss.xml')) return 'application/rss+xml; charset=utf-8';
  if (file.endsWith('feed.json')) return 'application/feed+json; charset=utf-8';
  if (file.endsWith('.xml')) return 'application/xml; charset=utf-8';
  return TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** How long clients and CDNs may keep what the server answers. */
export interface CachePolicy {
  /** Seconds a published document may be served from a cache before revalidating. */
  readonly maxAgeSeconds: number;
}

/** Cache-Control of a published document (a page, a JSON or Markdown answer, a feed): a publish may change it. */
export function documentCacheControl(policy: CachePolicy): string {
  return `public, max-age=${policy.maxAgeSeconds}, must-revalidate`;
}

/** Cache-Control of an output file: hashed assets forever, everything else as a published document. */
export function cacheControlOf(file: string, policy: CachePolicy): string {
  return file.startsWith('_astro/') ? 'public, max-age=31536000, immutable' : documentCacheControl(policy);
}

function notFound(c: Context): Response {
  return c.json(
    errorBody('NOT_FOUND', `Nothing is published at ${new URL(c.req.url).pathname}. It does not exist, or it is not published (any more).`),
    404,
  );
}

/** A file of the output and the headers it is served with, besides the validators. */
export interface OutputAnswer {
  /** Relative path of the file that answers. */
  readonly file: string;
  /** Link, Vary and Content-Location on article pages; the security headers on HTML pages and scripts. */
  readonly headers: Record<string, string>;
}

/**
 * Which output file answers a GET for `pathname` (raw) with `lang` and an
 * `Accept` header, or null when no file can (a 404). Shared by the routes
 * and the server's fast path so both answer alike.
 */
export function resolveOutputRequest(pathname: string, lang: string | null, accept: string | undefined): OutputAnswer | null {
  const mapped = fileForRequest(pathname, lang);
  if ('reason' in mapped) return null;
  const security = securityHeadersFor(mapped.file);
  const page = articleOfHtmlFile(mapped.file);
  if (!page) return { file: mapped.file, headers: { ...security } };
  // Agents that ask for Markdown on an article's page get the exact Markdown document.
  const wantsMarkdown = prefersMarkdown(accept);
  const headers: Record<string, string> = {
    Link: articleLinkHeader(page),
    // The page and its Markdown share an address: caches must keep them apart.
    Vary: 'Accept',
  };
  if (!wantsMarkdown) return { file: mapped.file, headers: { ...headers, ...security } };
  headers['Content-Location'] = articleAlternates(page).markdown;
  return { file: staticFiles.articleMarkdown(page.channel, page.article, page.lang ?? undefined), headers };
}

/** The validator headers and content headers of a cached output file. */
export function outputFileHeaders(relative: string, file: CachedFile, policy: CachePolicy, extra: Record<string, string> = {}): Omit<ConditionalBody, 'bytes'> {
  return {
    contentType: contentTypeOf(relative),
    cacheControl: cacheControlOf(relative, policy),
    etag: file.etag,
    lastModified: file.mtime,
    headers: extra,
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
