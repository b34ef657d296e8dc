/**
 * The plan of the static output: for each owner (an article, a channel, the
 * site), the exact files it produces and how to render each. The full build
 * and the incremental build both run these plans, so they cannot drift.
 * @module
 */
import type { CursorCodec } from '../domain/cursor.ts';
import type { AnyPublicArticle, PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../render/view-models.ts';
import { staticFiles } from '../urls/static-files.ts';

/** The renderers, one per output kind (bound in `renderers.ts`). Lists take articles without bodies. */
export interface Renderers {
  articleHtml(article: PublicArticle, language: string, site: SiteInfo): Promise<string>;
  channelHtml(channel: PublicChannel, language: string, articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<string>;
  homeHtml(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<string>;
  articleJson(article: PublicArticle, language: string): string;
  articleMarkdown(article: PublicArticle, language: string): string;
  channelJson(channel: PublicChannel, language: string): string;
  channelList(channels: readonly PublicChannel[], page: PageInfo): string;
  articleList(channel: PublicChannel, articles: readonly AnyPublicArticle[], language: string | null, page: PageInfo): string;
  rss(channel: PublicChannel, articles: readonly PublicArticleSummary[], language: string | null, site: SiteInfo): string;
  jsonFeed(channel: PublicChannel, articles: readonly PublicArticleSummary[], language: string | null, site: SiteInfo): string;
  /** `sitemap.xml`: the index of the homepage's and every channel's sitemap. */
  sitemapIndex(channels: readonly PublicChannel[], articles: readonly AnyPublicArticle[], site: SiteInfo): string;
  homeSitemap(channels: readonly PublicChannel[], articles: readonly AnyPublicArticle[], site: SiteInfo): string;
  channelSitemap(channel: PublicChannel, articles: readonly AnyPublicArticle[]): string;
  robots(site: SiteInfo): string;
  llms(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo): string;
  channelLlms(channel: PublicChannel, articles: readonly PublicArticleSummary[], site: SiteInfo): string;
  /** Orders and filters a channel's articles for a list in `language` (null: one version per article). */
  listArticles<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): readonly A[];
  /** The keyset position of an article in a list, for cursors. */
  cursorPosition(article: AnyPublicArticle): Record<string, string | number>;
}

/** Pagination of the first page of a list. */
export interface PageInfo {
  readonly limit: number;
  readonly nextCursor: string | null;
  readonly selfUrl: string;
  readonly nextUrl: string | null;
}

/** One file to produce. */
export interface PlannedFile {
  readonly path: string;
  readonly render: () => Promise<string | Uint8Array> | string | Uint8Array;
}

/**
 * Most articles a channel page or the homepage lists: the newest. Listing
 * every article would make each page's size, and each publish's cost, grow
 * with the site; older articles stay reachable through the sitemap, the
 * channel's llms.txt, the JSON list's cursors and search.
 */
export const PAGE_MAX_ARTICLES = 50;

/** Default page size of public lists (public API rule 2). */
export const DEFAULT_LIST_LIMIT = 20;

/** Cursor scope of a public article list; the public API decodes with the same scope. */
export function articleListScope(channelId: number, language: string | null): string {
  return `public-articles:${channelId}:${language ?? ''}`;
}

/** Cursor scope of the public channel list. */
export const CHANNEL_LIST_SCOPE = 'public-channels';

/** Owner key of an article's files in the manifest. */
export const articleOwner = (id: number) => `article:${id}`;
/** Owner key of a channel's files in the manifest. */
export const channelOwner = (id: number) => `channel:${id}`;
/** Owner key of site-wide files. */
export const SITE_OWNER = 'site';

/** A render function that runs at most once and then answers from memory. */
function once<T>(render: () => T): () => T {
  let done: { value: T } | null = null;
  return () => (done ??= { value: render() }).value;
}

/** Everything an article produces: per published translation, its page, JSON and Markdown; the default-language copies. */
export function planArticle(article: PublicArticle, renderers: Renderers, site: SiteInfo): PlannedFile[] {
  const c = article.channel.slug;
  const files: PlannedFile[] = [];
  for (const t of article.translations) {
    const lang = t.language;
    // The default-language copies share these, so each is rendered once.
    const html = once(() => renderers.articleHtml(article, lang, site));
    const json = once(() => renderers.articleJson(article, lang));
    const md = once(() => renderers.articleMarkdown(article, lang));
    files.push({ path: staticFiles.articleHtml(c, article.slug, lang), render: html });
    files.push({ path: staticFiles.articleJson(c, article.slug, lang), render: json });
    files.push({ path: staticFiles.articleMarkdown(c, article.slug, lang), render: md });
    if (lang === article.defaultLanguage) {
      files.push({ path: staticFiles.articleDefaultHtml(c, article.slug), render: html });
      files.push({ path: staticFiles.articleJson(c, article.slug), render: json });
      files.push({ path: staticFiles.articleMarkdown(c, article.slug), render: md });
    }
  }
  return files;
}

/** Everything a channel produces: pages, JSON, first list pages and feeds, in each of its languages and by default. */
export function planChannel(
  channel: PublicChannel,
  articles: readonly PublicArticleSummary[],
  renderers: Renderers,
  cursors: CursorCodec,
  site: SiteInfo,
): PlannedFile[] {
  const c = channel.slug;
  const files: PlannedFile[] = [];
  const page = (language: string | null): PageInfo => {
    const listed = renderers.listArticles(articles, language);
    const more = listed.length > DEFAULT_LIST_LIMIT;
    const cursor = more ? cursors.encode(articleListScope(channel.id, language), renderers.cursorPosition(listed[DEFAULT_LIST_LIMIT - 1]!)) : null;
    const selfUrl = language ? `${channel.articlesJsonUrl}?lang=${encodeURIComponent(language)}` : channel.articlesJsonUrl;
    const nextUrl = cursor ? `${selfUrl}${language ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : null;
    return { limit: DEFAULT_LIST_LIMIT, nextCursor: cursor, selfUrl, nextUrl };
  };
  // The default page and the default language's page show the same list: sorted once.
  const shownBy = new Map<string, PublicArticleSummary[]>();
  const shown = (language: string) => {
    let list = shownBy.get(language);
    if (!list) shownBy.set(language, (list = newestIn(articles, language)));
    return list;
  };
  files.push({ path: staticFiles.channelHtml(c), render: () => renderers.channelHtml(channel, channel.defaultLanguage, shown(channel.defaultLanguage), site) });
  files.push({ path: staticFiles.channelJson(c), render: () => renderers.channelJson(channel, channel.defaultLanguage) });
  files.push({ path: staticFiles.channelArticlesJson(c), render: () => renderers.articleList(channel, articles, null, page(null)) });
  files.push({ path: staticFiles.rss(c), render: () => renderers.rss(channel, articles, null, site) });
  files.push({ path: staticFiles.jsonFeed(c), render: () => renderers.jsonFeed(channel, articles, null, site) });
  for (const t of channel.translations) {
    const lang = t.language;
    files.push({ path: staticFiles.channelHtml(c, lang), render: () => renderers.channelHtml(channel, lang, shown(lang), site) });
    files.push({ path: staticFiles.channelJson(c, lang), render: () => renderers.channelJson(channel, lang) });
    files.push({ path: staticFiles.channelArticlesJson(c, lang), render: () => renderers.articleList(channel, articles, lang, page(lang)) });
    files.push({ path: staticFiles.rss(c, lang), render: () => renderers.rss(channel, articles, lang, site) });
    files.push({ path: staticFiles.jsonFeed(c, lang), render: () => renderers.jsonFeed(channel, articles, lang, site) });
  }
  files.push({ path: staticFiles.channelSitemap(c), render: () => renderers.channelSitemap(channel, articles) });
  files.push({ path: staticFiles.channelLlms(c), render: () => renderers.channelLlms(channel, articles, site) });
  return files;
}

/**
 * The `PAGE_MAX_ARTICLES` newest of `articles` with a translation in
 * `language`, newest first by that translation's publication (the order the
 * channel page shows), then id.
 */
function newestIn(articles: readonly PublicArticleSummary[], language: string): PublicArticleSummary[] {
  const dated = articles.flatMap((a) => {
    const t = a.translations.find((x) => x.language === language);
    return t ? [{ a, at: t.publishedAt }] : [];
  });
  dated.sort((x, y) => (x.at === y.at ? y.a.id - x.a.id : x.at < y.at ? 1 : -1));
  return dated.slice(0, PAGE_MAX_ARTICLES).map((x) => x.a);
}

/**
 * Site-wide files: homepage, channel list, sitemap index and the homepage's
 * sitemap, robots.txt, llms.txt, and the site's client assets (`_astro/`).
 * Each is small whatever the site's size (the newest articles, one line per
 * channel), so re-planning them at every publish stays cheap.
 */
export function planSite(
  channels: readonly PublicChannel[],
  articles: readonly PublicArticleSummary[],
  renderers: Renderers,
  cursors: CursorCodec,
  site: SiteInfo,
  channelsUrl: string,
  assets: readonly PlannedFile[] = [],
): PlannedFile[] {
  const more = channels.length > DEFAULT_LIST_LIMIT;
  const cursor = more ? cursors.encode(CHANNEL_LIST_SCOPE, { id: channels[DEFAULT_LIST_LIMIT - 1]!.id }) : null;
  const channelPage: PageInfo = {
    limit: DEFAULT_LIST_LIMIT,
    nextCursor: cursor,
    selfUrl: channelsUrl,
    nextUrl: cursor ? `${channelsUrl}?cursor=${encodeURIComponent(cursor)}` : null,
  };
  return [
    {
      path: staticFiles.home(),
      render: () => renderers.homeHtml(channels, renderers.listArticles(articles.filter((a) => a.onHomepage), null).slice(0, PAGE_MAX_ARTICLES), site),
    },
    { path: staticFiles.channelsJson(), render: () => renderers.channelList(channels.slice(0, DEFAULT_LIST_LIMIT), channelPage) },
    { path: staticFiles.sitemap(), render: () => renderers.sitemapIndex(channels, articles, site) },
    { path: staticFiles.homeSitemap(), render: () => renderers.homeSitemap(channels, articles, site) },
    { path: staticFiles.robots(), render: () => renderers.robots(site) },
    { path: staticFiles.llms(), render: () => renderers.llms(channels, articles, site) },
    ...assets,
  ];
}
