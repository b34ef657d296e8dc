/**
 * Every public address Pressroom emits, decided once. API responses, the
 * static files and the bundled server all ask this module, so they agree.
 *
 * Layout (documented in docs/URLS.md):
 * - article, default language: `/{channel}/{article}`; with `?lang=xx` the
 *   server (or the host's rewrite) answers with that language's page;
 * - article, each language: `/{channel}/{lang}/{article}`, a static file of
 *   its own. Because article pages have no trailing slash, a body link
 *   `./other-slug` resolves to the sibling article in the same language;
 * - JSON and Markdown: `/api/public/v1/channels/{channel}/articles/{article}`
 *   and `….md`, each with `?lang=xx` to name the exact language;
 * - media: `/media/{channel}/…`;
 * - dashboard: `{dashboard}/channels/{channel}/pages/{id}`, stable because
 *   it names the article by id.
 * @module
 */

/** Path prefix of the public read API. */
export const PUBLIC_API_PREFIX = '/api/public/v1';

/** Where the bundled server serves the editors' dashboard (the default base of `edit_url`); never cached by an edge. */
export const DASHBOARD_PATH = '/dashboard';

/** Builds absolute public URLs. */
export interface PublicUrls {
  /** The service homepage. */
  home(): string;
  /** A channel's page; in one language at `/{channel}/{lang}/`. */
  channelHtml(channel: string, lang?: string): string;
  /** An article's page in its default language, with `?lang=` (the `url` of the publishing API). */
  articleUrl(channel: string, article: string, lang: string): string;
  /** An article's page in one language, as its own static file; the canonical URL of that translation. */
  articleHtml(channel: string, article: string, lang: string): string;
  /** The exact JSON document of one translation. */
  articleJson(channel: string, article: string, lang: string): string;
  /** The exact Markdown document of one translation. */
  articleMarkdown(channel: string, article: string, lang: string): string;
  /** A channel's JSON document. */
  channelJson(channel: string, lang?: string): string;
  /** A channel's article list. */
  channelArticlesJson(channel: string, lang?: string): string;
  /** A channel's RSS feed, optionally of one language. */
  channelRss(channel: string, lang?: string): string;
  /** A channel's JSON Feed, optionally of one language. */
  channelJsonFeed(channel: string, lang?: string): string;
  /** The public channel list. */
  channelsJson(lang?: string): string;
  /** The public search endpoint (without a query). */
  search(): string;
  /** A stored media file, by its path under the media folder. */
  media(fileName: string): string;
  /** The dashboard page where an article is edited. */
  editUrl(channel: string, articleId: number): string;
}

const seg = encodeURIComponent;

/**
 * Creates the URL builder for one deployment.
 * @param publicUrl base of every public URL, no trailing slash.
 * @param dashboardUrl base of dashboard URLs, no trailing slash.
 * @example createPublicUrls('https://news.example', 'https://news.example/dashboard').articleHtml('tech', 'hello', 'fr')
 * // 'https://news.example/tech/fr/hello'
 */
export function createPublicUrls(publicUrl: string, dashboardUrl: string): PublicUrls {
  const base = publicUrl.replace(/\/+$/, '');
  const dash = dashboardUrl.replace(/\/+$/, '');
  const langQuery = (lang?: string) => (lang ? `?lang=${seg(lang)}` : '');
  const api = `${base}${PUBLIC_API_PREFIX}`;
  return Object.freeze({
    home: () => `${base}/`,
    channelHtml: (channel, lang) => `${base}/${seg(channel)}/${lang ? `${seg(lang)}/` : ''}`,
    articleUrl: (channel, article, lang) => `${base}/${seg(channel)}/${seg(article)}${langQuery(lang)}`,
    articleHtml: (channel, article, lang) => `${base}/${seg(channel)}/${seg(lang)}/${seg(article)}`,
    articleJson: (channel, article, lang) => `${api}/channels/${seg(channel)}/articles/${seg(article)}${langQuery(lang)}`,
    articleMarkdown: (channel, article, lang) =>
      `${api}/channels/${seg(channel)}/articles/${seg(article)}.md${langQuery(lang)}`,
    channelJson: (channel, lang) => `${api}/channels/${seg(channel)}${langQuery(lang)}`,
    channelArticlesJson: (channel, lang) => `${api}/channels/${seg(channel)}/articles${langQuery(lang)}`,
    channelRss: (channel, lang) => `${base}/${seg(channel)}/${lang ? `${seg(lang)}/` : ''}rss.xml`,
    channelJsonFeed: (channel, lang) => `${base}/${seg(channel)}/${lang ? `${seg(lang)}/` : ''}feed.json`,
    channelsJson: (lang) => `${api}/channels${langQuery(lang)}`,
    search: () => `${api}/search`,
    media: (fileName) => `${base}/media/${fileName.split('/').map(seg).join('/')}`,
    editUrl: (channel, articleId) => `${dash}/channels/${seg(channel)}/pages/${articleId}`,
  } satisfies PublicUrls);
}
