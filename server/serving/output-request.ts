/**
 * Which output file answers a request for a page or file, and with which
 * headers: the one mapping the bundled server (routes and fast path) and
 * the generated Cloudflare Pages worker share. Pure: no HTTP framework, no
 * filesystem, so it can be bundled into a worker.
 * @module
 */
import { securityHeadersFor } from './security-headers.ts';
import { articleAlternates, articleLinkHeader, articleOfHtmlFile, fileForRequest, staticFiles } from './static-files.ts';
import { prefersMarkdown } from './accept-markdown.ts';

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
export function resolveOutputRequest(pathname: string, lang: string | null, accept: string | undefined, cursor: string | null = null): OutputAnswer | null {
  const mapped = fileForRequest(pathname, lang, cursor);
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

