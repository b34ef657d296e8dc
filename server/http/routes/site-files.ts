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
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { articleAlternates, articleLinkHeader, articleOfHtmlFile, fileForRequest, staticFiles } from '../../urls/static-files.ts';
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

/** Cache-Control: hashed assets forever; everything else briefly, since a publish may change it. */
function cacheControlOf(file: string): string {
  return file.startsWith('_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=60, must-revalidate';
}

// Content hashes by file, valid while size and mtime are unchanged (the builder never rewrites equal bytes).
const etags = new Map<string, { key: string; etag: string }>();

function etagOf(file: string, bytes: Buffer, stat: fs.Stats): string {
  const key = `${stat.size}:${stat.mtimeMs}`;
  const cached = etags.get(file);
  if (cached?.key === key) return cached.etag;
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  if (etags.size > 50_000) etags.clear();
  etags.set(file, { key, etag });
  return etag;
}

/** True when the request's validators say the client's copy is current. */
function notModified(c: Context, etag: string, mtime: Date): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  // If-None-Match wins over If-Modified-Since when both are sent (RFC 9110, 13.2.2).
  if (ifNoneMatch !== undefined) return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
  const since = Date.parse(c.req.header('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

function notFound(c: Context): Response {
  return c.json(
    errorBody('NOT_FOUND', `Nothing is published at ${new URL(c.req.url).pathname}. It does not exist, or it is not published (any more).`),
    404,
  );
}

/** GET and HEAD for every public address of the static output in `outputDir`. */
export function siteFileRoutes(outputDir: string): Hono {
  const root = path.resolve(outputDir);
  const serve = async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    const mapped = fileForRequest(url.pathname, url.searchParams.get('lang'));
    if ('reason' in mapped) return notFound(c);
    const page = articleOfHtmlFile(mapped.file);
    // Agents that ask for Markdown on an article's page get the exact Markdown document.
    const wantsMarkdown = page !== null && /(^|,)\s*text\/markdown/i.test(c.req.header('accept') ?? '');
    const served = wantsMarkdown ? staticFiles.articleMarkdown(page.channel, page.article, page.lang ?? undefined) : mapped.file;
    const file = path.resolve(root, served);
    if (!file.startsWith(root + path.sep)) return notFound(c);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return notFound(c);
    const bytes = await fs.promises.readFile(file);
    const etag = etagOf(file, bytes, stat);
    const headers: Record<string, string> = {
      'Content-Type': contentTypeOf(served),
      'Cache-Control': cacheControlOf(served),
      ETag: etag,
      'Last-Modified': stat.mtime.toUTCString(),
      'X-Content-Type-Options': 'nosniff',
    };
    if (page) {
      headers['Link'] = articleLinkHeader(page);
      // The page and its Markdown share an address: caches must keep them apart.
      headers['Vary'] = 'Accept';
      if (wantsMarkdown) headers['Content-Location'] = articleAlternates(page).markdown;
    }
    if (notModified(c, etag, stat.mtime)) return c.body(null, 304, headers);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(new Uint8Array(bytes), 200, headers);
  };
  return new Hono().get('/*', serve);
}
