/**
 * Where each public address lives as a file in the output folder. With
 * `public-urls.ts`, this is the one place that decides the layout; the
 * builder writes these paths, the bundled server and the host configs
 * (nginx, Netlify, Cloudflare) map requests onto them.
 *
 * One rule covers every JSON and Markdown address of the public API:
 *   path P            → file `P.json` (or `P.md` when P ends in `.md`)
 *   path P ? lang=L   → file `P/_lang/L.json` (`P/_lang/L.md`)
 * `_lang` cannot collide with a slug (slugs never start with `_`).
 * HTML pages are `.html` files named after their path; `?lang=L` on an
 * article's default address is answered by `/{channel}/{L}/{article}`.
 * @module
 */
import { PUBLIC_API_PREFIX } from './public-urls.ts';

const api = PUBLIC_API_PREFIX.slice(1);

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
  articleJson: (channel: string, article: string, lang?: string) => apiFile(`${api}/channels/${channel}/articles/${article}`, lang, 'json'),
  articleMarkdown: (channel: string, article: string, lang?: string) =>
    apiFile(`${api}/channels/${channel}/articles/${article}`, lang, 'md'),
  sitemap: () => 'sitemap.xml',
  robots: () => 'robots.txt',
  llms: () => 'llms.txt',
});

function apiFile(path: string, lang: string | undefined, ext: 'json' | 'md'): string {
  return lang ? `${path}/_lang/${lang}.${ext}` : `${path}.${ext}`;
}

/** Top-level folders of the output that the site builder does not own (never deleted by a build). */
export const UNMANAGED_OUTPUT_FOLDERS: readonly string[] = ['media', 'pagefind'];
