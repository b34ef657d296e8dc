/**
 * Small pure helpers shared by the page models: URLs relative to the site,
 * descriptions, and JSON that is safe inside a `<script>` element.
 * @module
 */
import type { SiteInfo } from '../../server/read-model/view-models.ts';

/**
 * The path of `path` on the site, honouring a base path in `site.baseUrl`
 * (`https://x.example/news` → `/news/pagefind/…`).
 * @example sitePath({ baseUrl: 'https://x.example' }, '/pagefind/pagefind-ui.js') // '/pagefind/pagefind-ui.js'
 */
export function sitePath(site: Pick<SiteInfo, 'baseUrl'>, path: string): string {
  const basePath = new URL(`${site.baseUrl}/`).pathname.replace(/\/+$/, '');
  return `${basePath}/${path.replace(/^\/+/, '')}`;
}

/**
 * A link target for navigation inside the site: the root-relative form of an
 * absolute URL on the site's own origin (so the static files work on any
 * host, e.g. a local preview), the URL unchanged otherwise. Canonical,
 * alternate and OpenGraph URLs stay absolute; this is for `<a href>` only.
 * @example localHref('https://x.example/tech/en/hello', { baseUrl: 'https://x.example' }) // '/tech/en/hello'
 */
export function localHref(url: string, site: Pick<SiteInfo, 'baseUrl'>): string {
  let origin: string;
  try {
    origin = new URL(site.baseUrl).origin;
  } catch {
    return url;
  }
  if (url === origin) return '/';
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
}

/** An absolute URL: `url` itself when absolute, else resolved against the site. */
export function absoluteUrl(url: string, site: Pick<SiteInfo, 'baseUrl'>): string {
  try {
    return new URL(url).href;
  } catch {
    return new URL(url, `${site.baseUrl}/`).href;
  }
}

/**
 * JSON for a `<script type="application/ld+json">` element: `<`, `>`, `&`
 * and the line separators are escaped so the text can never close the
 * element or start a comment, whatever the data contains.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
