/**
 * Where each public address lives as a file in the output folder. With
 * `public-urls.ts`, this is the one place that decides the layout; the
 * builder writes these paths, the bundled server and the host configs
 * (nginx, Netlify, Cloudflare) map requests onto them.
 *
 * One rule covers every JSON and Markdown address of the public API:
 *   path P            → file `P.json` (or `P.md` when P ends in `.md`)
 *   path P ? lang=L   → file `P/_lang/L.json` (`P/_lang/L.md`)
 *   path P ? cursor=T → file `P/_cursor/T.json` (with lang: `P/_lang/L/_cursor/T.json`)
 * `_lang` cannot collide with a slug (slugs never start with `_`).
 * HTML pages are `.html` files named after their path; `?lang=L` on an
 * article's default address is answered by `/{channel}/{L}/{article}`, and on
 * a channel's feed (`/{channel}/rss.xml`, `feed.json`) by `/{channel}/{L}/…`.
 * @module
 */
import { PUBLIC_API_PREFIX } from '../urls/public-urls.ts';
import { normalizeRequestPath } from '../urls/request-path.ts';

const api = PUBLIC_API_PREFIX.slice(1);

/** The name of the 404 pages' files and folder (`{channel}/_404.html`, `_404/{lang}.html`): no slug starts with `_`, and no address names it. */
export const NOT_FOUND_NAME = '_404';

/**
 * A language as a path segment or `?lang=` value of the output (`/{channel}/{lang}/…`, `_lang/{lang}.json`):
 * the one pattern the server, the builder's search shards and every host configuration use. Looser than
 * BCP 47 (`domain/language.ts`) on purpose: it only keeps what is no language out of file names.
 */
export const LANG_SEGMENT_PATTERN = '[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*';
/** {@link LANG_SEGMENT_PATTERN}, whole. */
export const LANG_SEGMENT = new RegExp(`^${LANG_SEGMENT_PATTERN}$`);

/** What a list cursor looks like (`CursorCodec.token`: 16 bytes, base64url); hosts refuse any other value before looking for a file. */
export const LIST_CURSOR_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Relative file paths (forward slashes, no leading slash) of every output kind. */
export const staticFiles = Object.freeze({
  home: () => 'index.html',
  /** Channel page: default language, or one language at `/{channel}/{lang}/`. */
  channelHtml: (channel: string, lang?: string) => (lang ? `${channel}/${lang}/index.html` : `${channel}/index.html`),
  /** Article page in its default language, at `/{channel}/{article}`. */
  articleDefaultHtml: (channel: string, article: string) => `${channel}/${article}.html`,
  /** Article page in one language, at `/{channel}/{lang}/{article}`. */
  articleHtml: (channel: string, article: string, lang: string) => `${channel}/${lang}/${article}.html`,
  rss: (channel: string, lang?: string) => (lang ? `${channel}/${lang}/rss.xml` : `${channel}/rss.xml`),
  jsonFeed: (channel: string, lang?: string) => (lang ? `${channel}/${lang}/feed.json` : `${channel}/feed.json`),
  channelsJson: (lang?: string) => apiFile(`${api}/channels`, lang, 'json'),
  channelJson: (channel: string, lang?: string) => apiFile(`${api}/channels/${channel}`, lang, 'json'),
  channelArticlesJson: (channel: string, lang?: string) => apiFile(`${api}/channels/${channel}/articles`, lang, 'json'),
  /** The page of the channel list after the position a cursor names (`read-model/list-pages.ts`). */
  channelsPage: (cursor: string, lang?: string) => apiPage(`${api}/channels`, lang, cursor),
  /** The page of a channel's article list after the position a cursor names. */
  channelArticlesPage: (channel: string, cursor: string, lang?: string) => apiPage(`${api}/channels/${channel}/articles`, lang, cursor),
  articleJson: (channel: string, article: string, lang?: string) => apiFile(`${api}/channels/${channel}/articles/${article}`, lang, 'json'),
  articleMarkdown: (channel: string, article: string, lang?: string) =>
    apiFile(`${api}/channels/${channel}/articles/${article}`, lang, 'md'),
  /** The sitemap index. */
  sitemap: () => 'sitemap.xml',
  /** The homepage's sitemap (a sitemap lists only URLs under its own folder, so the homepage needs a root one). */
  homeSitemap: () => 'sitemap-home.xml',
  /** A channel's sitemap of its pages, at `/{channel}/sitemap.xml`. */
  channelSitemap: (channel: string) => `${channel}/sitemap.xml`,
  /** Part `n` (from 1) of a channel's article sitemaps, at `/{channel}/sitemap-{n}.xml`. */
  channelSitemapPart: (channel: string, n: number) => `${channel}/sitemap-${n}.xml`,
  /** A channel's llms.txt (its newest articles, links to the parts), at `/{channel}/llms.txt`, linked from `/llms.txt`. */
  channelLlms: (channel: string) => `${channel}/llms.txt`,
  /** Part `n` (from 1) of a channel's complete llms list, at `/{channel}/llms-{n}.txt`. */
  channelLlmsPart: (channel: string, n: number) => `${channel}/llms-${n}.txt`,
  robots: () => 'robots.txt',
  /** The site's icon, linked from every page. */
  favicon: () => 'favicon.svg',
  /**
   * The site's 404 page for people, in English (`not-found-page.ts` picks the page of an address); also the page
   * Cloudflare Pages and Netlify send by themselves (without it Pages answers 200 with the homepage).
   */
  notFound: () => '404.html',
  /** A channel's 404 page: in its default language, or in one of its languages (for `/{channel}/{lang}/…`). */
  channelNotFound: (channel: string, lang?: string) => (lang ? `${channel}/${lang}/${NOT_FOUND_NAME}.html` : `${channel}/${NOT_FOUND_NAME}.html`),
  /** The 404 page in one language of the site, for `/{x}/{lang}/…` where no channel `x` exists. */
  languageNotFound: (lang: string) => `${NOT_FOUND_NAME}/${lang}.html`,
  llms: () => 'llms.txt',
  /** An article page's link-preview card (`render/social-card.ts`), at its canonical address plus `.png`. */
  articleCard: (channel: string, article: string, lang: string) => `${channel}/${lang}/${article}.png`,
  /** A channel page's card: its default-language page's (`/{channel}/index.png`), or another language's. */
  channelCard: (channel: string, lang?: string) => (lang ? `${channel}/${lang}/index.png` : `${channel}/index.png`),
  /** The homepage's card, also the preview of the site's other pages (search, 404). */
  siteCard: () => 'index.png',
  /** The site's logo (from its favicon): JSON-LD `publisher.logo` of channels without an avatar. */
  logo: () => 'logo.png',
  /** The search page: every language at `/search/` (English), one language at `/search/{lang}/` (`channel` slug `search` is reserved). */
  searchPage: (lang?: string) => (lang ? `search/${lang}/index.html` : 'search/index.html'),
  /** The public API's OpenAPI document, at `/api/public/v1/openapi.json`. */
  publicOpenApi: () => `${api}/openapi.json`,
  /** The publishing API's OpenAPI document, at `/api/v1/openapi.json` (the API itself is the service's). */
  publishingOpenApi: () => 'api/v1/openapi.json',
});

function apiFile(path: string, lang: string | undefined, ext: 'json' | 'md'): string {
  return lang ? `${path}/_lang/${lang}.${ext}` : `${path}.${ext}`;
}

/** `P?cursor=T` → `P/_cursor/T.json`; `P?lang=L&cursor=T` → `P/_lang/L/_cursor/T.json` (a cursor names a page of one list in one language). */
function apiPage(path: string, lang: string | undefined, cursor: string): string {
  return `${path}${lang ? `/_lang/${lang}` : ''}/_cursor/${cursor}.json`;
}

/** Top-level folders of the output that the site builder does not own (never deleted by a build). */
export const UNMANAGED_OUTPUT_FOLDERS: readonly string[] = ['media', 'pagefind'];

/**
 * Top-level files of the output that the site builder does not own: the
 * static hosts' configuration, written by `npm run host-config -- netlify|cloudflare --out dist`
 * (docs/HOSTING.md). A build never deletes them, and nothing serves them.
 */
export const UNMANAGED_OUTPUT_FILES: readonly string[] = ['_headers', '_redirects', '_worker.js'];

/** The file names of a channel's feeds, at `/{channel}/{name}` and `/{channel}/{lang}/{name}`. */
export const CHANNEL_FEEDS: ReadonlySet<string> = new Set(['rss.xml', 'feed.json']);

/** Why a request maps to no file. */
export type UnservableReason = 'bad_path' | 'bad_lang' | 'bad_cursor';

/**
 * Temporary names of the output's writers (`{name}.{pid}-{thread}-{hex}-{count}.tmp`, media's
 * `.{name}.{pid}.{hex}.tmp`): never published, never served. A `kill -9`
 * mid-write can leave one behind until the next start removes it.
 */
export const TEMP_FILE_NAME = /\.tmp$/;

/**
 * The file that answers a request for `pathname` (raw, percent-encoded as
 * received) with an optional `lang` query value: the inverse of
 * {@link staticFiles}. The path goes through `normalizeRequestPath` first,
 * so every spelling of an address names the same file. Returns the relative
 * file path, or a reason when the request can never name a file (a
 * traversal attempt, an encoded slash, a temporary file, a malformed
 * language, a cursor that is not one). `cursor` counts only on the public
 * API's JSON addresses (it names a page of a list); pages ignore it. Whether
 * the file exists is the caller's business.
 * @example fileForRequest('/tech/hello', 'ar') // { file: 'tech/ar/hello.html' }
 */
export function fileForRequest(pathname: string, lang: string | null, cursor: string | null = null): { file: string } | { reason: UnservableReason } {
  if (lang !== null && !LANG_SEGMENT.test(lang)) return { reason: 'bad_lang' };
  const canonical = normalizeRequestPath(pathname);
  if (canonical === null) return { reason: 'bad_path' };
  const segments: string[] = [];
  const raw = canonical.split('/').slice(1);
  for (const [i, part] of raw.entries()) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { reason: 'bad_path' };
    }
    // Encoded separators, dot segments and control characters never name an output file.
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment) || /[\u0000-\u001f]/.test(segment)) return { reason: 'bad_path' };
    if (segment === '' && i !== raw.length - 1) return { reason: 'bad_path' };
    if (TEMP_FILE_NAME.test(segment)) return { reason: 'bad_path' };
    segments.push(segment);
  }
  const trailingSlash = segments[segments.length - 1] === '';
  const parts = trailingSlash ? segments.slice(0, -1) : segments;
  const path = parts.join('/');
  if (path === api || path.startsWith(`${api}/`)) {
    if (trailingSlash) return { reason: 'bad_path' };
    // The API's own document is its own file.
    if (path === staticFiles.publicOpenApi()) return lang || cursor ? { reason: 'bad_path' } : { file: path };
    // Segments starting with "_" (`_lang`, `_cursor`) name the layout's files, never an address (slugs never start with "_").
    if (parts.some((part) => part.startsWith('_'))) return { reason: 'bad_path' };
    const md = path.endsWith('.md');
    const base = md ? path.slice(0, -3) : path;
    if (cursor !== null && !md) return LIST_CURSOR_PATTERN.test(cursor) ? { file: apiPage(base, lang ?? undefined, cursor) } : { reason: 'bad_cursor' };
    return { file: lang ? `${base}/_lang/${lang}.${md ? 'md' : 'json'}` : `${base}.${md ? 'md' : 'json'}` };
  }
  if (parts.length === 0) return { file: 'index.html' };
  // A folder's page has one address, with the trailing slash: `/{channel}/index` (or `index.html`) would be a second.
  if (!trailingSlash && /^index(\.html)?$/.test(parts[parts.length - 1]!)) return { reason: 'bad_path' };
  // The 404 pages are what a missing address gets; asked for by name one would be a 200 saying "not found".
  if (parts.length === 1 && (path === '404' || path === staticFiles.notFound())) return { reason: 'bad_path' };
  if (parts.some((part) => part === NOT_FOUND_NAME || part === `${NOT_FOUND_NAME}.html`)) return { reason: 'bad_path' };
  // The hosts' configuration (the Cloudflare worker's source included) is no address.
  if (parts.length === 1 && UNMANAGED_OUTPUT_FILES.includes(path)) return { reason: 'bad_path' };
  if (trailingSlash) return { file: lang ? `${path}/${lang}/index.html` : `${path}/index.html` };
  // An article's default address with ?lang= is answered by that language's page.
  if (lang && parts.length === 2 && !parts[1]!.includes('.')) return { file: `${parts[0]}/${lang}/${parts[1]}.html` };
  // A channel's feed with ?lang= is that language's feed (public API rule 7), never the unfiltered one.
  if (lang && parts.length === 2 && CHANNEL_FEEDS.has(parts[1]!)) return { file: `${parts[0]}/${lang}/${parts[1]}` };
  // Any extension names a file as it is (Pagefind's `.pf_meta`, `.pf_fragment` included); pages have none.
  return { file: /\.[A-Za-z0-9_]+$/.test(parts[parts.length - 1]!) ? path : `${path}.html` };
}

/** Article slugs that would collide with the channel's own files (`{channel}/index.html`). */
export const RESERVED_ARTICLE_SLUGS: ReadonlySet<string> = new Set(['index']);

/**
 * The article an HTML output file belongs to, or null for other pages:
 * `{channel}/{lang}/{article}.html` (one language) or `{channel}/{article}.html`
 * (default language, `lang` null).
 */
export function articleOfHtmlFile(file: string): { channel: string; article: string; lang: string | null } | null {
  const parts = file.replace(/\.html$/, '').split('/');
  if (!file.endsWith('.html') || parts.includes('index')) return null;
  if (parts.length === 3) return { channel: parts[0]!, lang: parts[1]!, article: parts[2]! };
  if (parts.length === 2) return { channel: parts[0]!, lang: null, article: parts[1]! };
  return null;
}

/** Root-relative addresses of an article page's exact Markdown and JSON versions. */
export function articleAlternates(page: { channel: string; article: string; lang: string | null }): { markdown: string; json: string } {
  const query = page.lang ? `?lang=${encodeURIComponent(page.lang)}` : '';
  const base = `${PUBLIC_API_PREFIX}/channels/${encodeURIComponent(page.channel)}/articles/${encodeURIComponent(page.article)}`;
  return { markdown: `${base}.md${query}`, json: `${base}${query}` };
}

/**
 * The `Link` header of an article page: its exact Markdown and JSON versions
 * (root-relative, so it holds on any domain the site is served from).
 */
export function articleLinkHeader(page: { channel: string; article: string; lang: string | null }): string {
  const { markdown, json } = articleAlternates(page);
  return `<${markdown}>; rel="alternate"; type="text/markdown", <${json}>; rel="alternate"; type="application/json"`;
}
