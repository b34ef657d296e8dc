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
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { articleAlternates, articleLinkHeader, articleOfHtmlFile, fileForRequest, staticFiles } from '../../urls/static-files.ts';
import { etagOf, respondConditionally } from '../conditional-get.ts';
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

/** Cache-Control: hashed assets forever; everything else briefly, since a publish may change it. */
export function cacheControlOf(file: string, policy: CachePolicy): string {
  return file.startsWith('_astro/') ? 'public, max-age=31536000, immutable' : `public, max-age=${policy.maxAgeSeconds}, must-revalidate`;
}

// Content hashes by file, valid while size and mtime are unchanged (the builder never rewrites equal bytes).
const etags = new Map<string, { key: string; etag: string }>();

function cachedEtag(file: string, bytes: Buffer, stat: fs.Stats): string {
  const key = `${stat.size}:${stat.mtimeMs}`;
  const cached = etags.get(file);
  if (cached?.key === key) return cached.etag;
  const etag = etagOf(bytes);
  if (etags.size > 50_000) etags.clear();
  etags.set(file, { key, etag });
  return etag;
}

function notFound(c: Context): Response {
  return c.json(
    errorBody('NOT_FOUND', `Nothing is published at ${new URL(c.req.url).pathname}. It does not exist, or it is not published (any more).`),
    404,
  );
}

/**
 * Serves one output file (relative path) with validators, or resolves null
 * when no such file exists (or the path leaves the folder).
 */
export async function serveOutputFile(
  c: Context,
  outputDir: string,
  relative: string,
  policy: CachePolicy,
  headers: Record<string, string> = {},
): Promise<Response | null> {
  const root = path.resolve(outputDir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return null;
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return null;
  const bytes = await fs.promises.readFile(file);
  return respondConditionally(c, {
    bytes: new Uint8Array(bytes),
    contentType: contentTypeOf(relative),
    cacheControl: cacheControlOf(relative, policy),
    etag: cachedEtag(file, bytes, stat),
    lastModified: stat.mtime,
    headers,
  });
}

/** GET and HEAD for every public address of the static output in `outputDir`. */
export function siteFileRoutes(outputDir: string, policy: CachePolicy): Hono {
  const serve = async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    const mapped = fileForRequest(url.pathname, url.searchParams.get('lang'));
    if ('reason' in mapped) return notFound(c);
    const page = articleOfHtmlFile(mapped.file);
    // Agents that ask for Markdown on an article's page get the exact Markdown document.
    const wantsMarkdown = page !== null && /(^|,)\s*text\/markdown/i.test(c.req.header('accept') ?? '');
    const served = wantsMarkdown ? staticFiles.articleMarkdown(page.channel, page.article, page.lang ?? undefined) : mapped.file;
    const headers: Record<string, string> = {};
    if (page) {
      headers['Link'] = articleLinkHeader(page);
      // The page and its Markdown share an address: caches must keep them apart.
      headers['Vary'] = 'Accept';
      if (wantsMarkdown) headers['Content-Location'] = articleAlternates(page).markdown;
    }
    return (await serveOutputFile(c, outputDir, served, policy, headers)) ?? notFound(c);
  };
  return new Hono().get('/*', serve);
}
