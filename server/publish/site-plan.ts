/**
 * The plan of the static output: for each owner (an article, a channel, the
 * site), the exact files it produces and how to render each. The full build
 * and the incremental build both run these plans, so they cannot drift.
 * @module
 */
import type { CursorCodec } from '../domain/cursor.ts';
import type { AnyPublicArticle, ArticlesByChannel, PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../render/view-models.ts';
import { FEED_MAX_ITEMS } from '../render/feeds.ts';
import { LLMS_CHANNEL_ARTICLES } from '../render/llms-txt.ts';
import { cursorPosition } from '../render/article-list-json.ts';
import { ARTICLE_LIST_ORDER, CHANNEL_LIST_ORDER, pageAfter, type ListOrder, type ListPosition } from '../render/list-pages.ts';
import { articleParts, channelLanguages, channelTranslationIn } from '../render/public-select.ts';
import { staticFiles } from '../urls/static-files.ts';

/** The renderers, one per output kind (bound in `renderers.ts`). Lists take articles without bodies. */
export interface Renderers {
  articleHtml(article: PublicArticle, language: string, site: SiteInfo): Promise<string>;
  /** A channel page in `language`, one of `languages` (the channel's languages, `channelLanguages`). */
  channelHtml(channel: PublicChannel, language: string, languages: readonly string[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<string>;
  homeHtml(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<string>;
  notFoundHtml(site: SiteInfo): Promise<string>;
  articleJson(article: PublicArticle, language: string): string;
  articleMarkdown(article: PublicArticle, language: string): string;
  channelJson(channel: PublicChannel, language: string): string;
  /** A page of the channel list: each channel in `language` (null: its default language). */
  channelList(channels: readonly PublicChannel[], page: PageInfo, language: string | null): string;
  articleList(channel: PublicChannel, articles: readonly AnyPublicArticle[], language: string | null, page: PageInfo): string;
  rss(channel: PublicChannel, articles: readonly PublicArticleSummary[], language: string | null, site: SiteInfo): string;
  jsonFeed(channel: PublicChannel, articles: readonly PublicArticleSummary[], language: string | null, site: SiteInfo): string;
  /** `sitemap.xml`: the index of the homepage's and every channel's sitemap. */
  sitemapIndex(channels: readonly PublicChannel[], articles: ArticlesByChannel<AnyPublicArticle>, site: SiteInfo): string;
  homeSitemap(channels: readonly PublicChannel[], articles: ArticlesByChannel<AnyPublicArticle>, site: SiteInfo): string;
  /** `/{channel}/sitemap.xml`: the channel's pages. */
  channelSitemap(channel: PublicChannel, articles: readonly AnyPublicArticle[]): string;
  /** `/{channel}/sitemap-{n}.xml`: the articles of one part (`articleParts`). */
  channelSitemapPart(channel: PublicChannel, part: readonly AnyPublicArticle[]): string;
  robots(site: SiteInfo): string;
  favicon(): string;
  llms(channels: readonly PublicChannel[], articles: ArticlesByChannel, site: SiteInfo): string;
  channelLlms(channel: PublicChannel, articles: readonly PublicArticleSummary[], site: SiteInfo): string;
  /** `/{channel}/llms-{n}.txt`: the articles of part `n` (`articleParts`). */
  channelLlmsPart(channel: PublicChannel, part: readonly PublicArticleSummary[], n: number, site: SiteInfo): string;
  /** Orders and filters a channel's articles for a list in `language` (null: one version per article). */
  listArticles<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): readonly A[];
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
  /**
   * Everything `render` reads, when the plan can name it: built models are
   * never changed (a change makes new objects), so when every value is
   * identical (`Object.is`) to the last render of this path and the file is
   * still as then written, the builder skips the render. Without it, the
   * file is always rendered.
   */
  readonly inputs?: readonly unknown[];
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

/** Cursor scope of the public channel list, in one language or in all (null); the public API decodes with the same scope. */
export function channelListScope(language: string | null): string {
  return language ? `public-channels:${language}` : 'public-channels';
}

/** Owner key of an article's files in the manifest. */
export const articleOwner = (id: number) => `article:${id}`;
/** Owner key of a channel's files in the manifest. */
export const channelOwner = (id: number) => `channel:${id}`;
/** Owner key of a channel's cursor pages (`render/list-pages.ts`), planned apart from its other files so a publish plans only those around it. */
export const pagesOwner = (id: number) => `pages:${id}`;
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

/**
 * Everything a channel produces: pages, JSON, first list pages and feeds, in
 * each of its languages (`channelLanguages`: its own translations' and its
 * public articles') and by default. Each list file is given only the
 * articles it shows, which are also its inputs, so a publish that leaves a
 * list's items as they were does not render it again.
 */
export function planChannel(
  channel: PublicChannel,
  articles: readonly PublicArticleSummary[],
  renderers: Renderers,
  cursors: CursorCodec,
  site: SiteInfo,
): PlannedFile[] {
  const c = channel.slug;
  const files: PlannedFile[] = [];
  const lists = (language: string | null) => {
    const listed = renderers.listArticles(articles, language);
    const more = listed.length > DEFAULT_LIST_LIMIT;
    const cursor = more ? cursors.token(articleListScope(channel.id, language), cursorPosition(listed[DEFAULT_LIST_LIMIT - 1]!)) : null;
    const selfUrl = listUrl(channel.articlesJsonUrl, language, null);
    const nextUrl = cursor ? listUrl(channel.articlesJsonUrl, language, cursor) : null;
    const page: PageInfo = { limit: DEFAULT_LIST_LIMIT, nextCursor: cursor, selfUrl, nextUrl };
    return { page, firstPage: listed.slice(0, DEFAULT_LIST_LIMIT), inFeed: listed.slice(0, FEED_MAX_ITEMS) };
  };
  const listFiles = (language: string | null): PlannedFile[] => {
    const { page, firstPage, inFeed } = lists(language);
    const lang = language ?? undefined;
    return [
      { path: staticFiles.channelArticlesJson(c, lang), inputs: [channel, language, page.nextCursor, ...firstPage], render: () => renderers.articleList(channel, firstPage, language, page) },
      { path: staticFiles.rss(c, lang), inputs: [channel, language, ...inFeed], render: () => renderers.rss(channel, inFeed, language, site) },
      { path: staticFiles.jsonFeed(c, lang), inputs: [channel, language, ...inFeed], render: () => renderers.jsonFeed(channel, inFeed, language, site) },
    ];
  };
  // Every language of the channel (its own and its articles') has a page, a list and feeds; the channel
  // document exists in its own languages only (no substitution of the channel's fields, rule 1).
  const languages = channelLanguages(channel, articles);
  const languagesKey = languages.join(' ');
  const channelJson = (language: string | null): PlannedFile => ({
    path: staticFiles.channelJson(c, language ?? undefined),
    inputs: [channel, language],
    render: () => renderers.channelJson(channel, language ?? channel.defaultLanguage),
  });
  const pageFile = (path: string, language: string, render: () => Promise<string>): PlannedFile => ({
    path,
    inputs: [channel, language, languagesKey, ...shown(language)],
    render,
  });
  // The default page and the default language's page show the same list: sorted and rendered once.
  const shownBy = new Map<string, PublicArticleSummary[]>();
  const shown = (language: string) => {
    let list = shownBy.get(language);
    if (!list) shownBy.set(language, (list = newestIn(articles, language)));
    return list;
  };
  const pageOf = (language: string) => () => renderers.channelHtml(channel, language, languages, shown(language), site);
  const defaultPage = once(pageOf(channel.defaultLanguage));
  files.push(pageFile(staticFiles.channelHtml(c), channel.defaultLanguage, defaultPage));
  files.push(channelJson(null), ...listFiles(null));
  for (const lang of languages) {
    files.push(pageFile(staticFiles.channelHtml(c, lang), lang, lang === channel.defaultLanguage ? defaultPage : pageOf(lang)));
    if (channelTranslationIn(channel, lang)) files.push(channelJson(lang));
    files.push(...listFiles(lang));
  }
  // The complete lists come in parts (one publish re-renders its article's part); the channel's own files
  // hold its pages and newest articles, and the number of parts.
  const parts = articleParts(articles);
  const newest = renderers.listArticles(articles, null).slice(0, LLMS_CHANNEL_ARTICLES);
  files.push({ path: staticFiles.channelSitemap(c), inputs: [channel, articles], render: () => renderers.channelSitemap(channel, articles) });
  files.push({ path: staticFiles.channelLlms(c), inputs: [channel, parts.length, ...newest], render: () => renderers.channelLlms(channel, articles, site) });
  parts.forEach((part, i) => {
    files.push({ path: staticFiles.channelSitemapPart(c, i + 1), inputs: [channel, ...part], render: () => renderers.channelSitemapPart(channel, part) });
    files.push({ path: staticFiles.channelLlmsPart(c, i + 1), inputs: [channel, ...part], render: () => renderers.channelLlmsPart(channel, part, i + 1, site) });
  });
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
 * The channel list, in every language and in each language some channel has
 * (`?lang=`: only the channels with that language, shown in it): the first
 * page and the page after each anchor, so a static host answers every page
 * without the bundled server.
 */
function channelListFiles(channels: readonly PublicChannel[], renderers: Renderers, cursors: CursorCodec, channelsUrl: string, anchors: ListAnchors): PlannedFile[] {
  const byId = [...channels].sort((a, b) => a.id - b.id);
  const languages = [...new Set(byId.flatMap((c) => c.translations.map((t) => t.language)))].sort();
  return [null, ...languages].flatMap((language) => {
    const listed = language ? byId.filter((c) => c.translations.some((t) => t.language === language)) : byId;
    const shown = listed.slice(0, DEFAULT_LIST_LIMIT);
    const scope = channelListScope(language);
    const cursor = listed.length > DEFAULT_LIST_LIMIT ? cursors.token(scope, channelPosition(shown[shown.length - 1]!)) : null;
    const page: PageInfo = {
      limit: DEFAULT_LIST_LIMIT,
      nextCursor: cursor,
      selfUrl: listUrl(channelsUrl, language, null),
      nextUrl: cursor ? listUrl(channelsUrl, language, cursor) : null,
    };
    const first: PlannedFile = { path: staticFiles.channelsJson(language ?? undefined), inputs: [language, cursor, ...shown], render: () => renderers.channelList(shown, page, language) };
    const pages = (anchors(scope, listed.map(channelPosition), CHANNEL_LIST_ORDER) ?? []).map((anchor): PlannedFile => {
      const token = cursors.token(scope, anchor);
      const { shown: items, last, more } = pageAfter(listed, channelPosition, anchor, DEFAULT_LIST_LIMIT, CHANNEL_LIST_ORDER);
      const next = more ? cursors.token(scope, channelPosition(last!)) : null;
      const info: PageInfo = { limit: DEFAULT_LIST_LIMIT, nextCursor: next, selfUrl: listUrl(channelsUrl, language, token), nextUrl: next ? listUrl(channelsUrl, language, next) : null };
      return { path: staticFiles.channelsPage(token, language ?? undefined), inputs: [language, next, ...items], render: () => renderers.channelList(items, info, language) };
    });
    return [first, ...pages];
  });
}

/** A channel's position in the channel list. */
export const channelPosition = (channel: PublicChannel): ListPosition => ({ p: '', id: channel.id });

/** The address of a list page: `base` with `lang` and `cursor`, in the order the read API writes them (`pageUrl`). */
export function listUrl(base: string, language: string | null, cursor: string | null): string {
  const params = [language ? `lang=${encodeURIComponent(language)}` : '', cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean);
  return params.length ? `${base}?${params.join('&')}` : base;
}

/**
 * The anchors of a list (`render/list-pages.ts`), given its items now: the
 * builder records the new ones. Returns null to plan no cursor pages.
 */
export type ListAnchors = (scope: string, items: readonly ListPosition[], order: ListOrder) => readonly ListPosition[] | null;

/**
 * The cursor pages of a channel's article list in `language`
 * (`render/list-pages.ts`): the page after each anchor at `indexes` (all
 * of them when absent). Each names the items it shows as its inputs.
 */
export function planArticlePages(
  channel: PublicChannel,
  language: string | null,
  listed: readonly AnyPublicArticle[],
  anchors: readonly ListPosition[],
  renderers: Pick<Renderers, 'articleList'>,
  cursors: CursorCodec,
  indexes?: Iterable<number>,
): PlannedFile[] {
  const scope = articleListScope(channel.id, language);
  const base = channel.articlesJsonUrl;
  const files: PlannedFile[] = [];
  const plan = (anchor: ListPosition) => {
    const token = cursors.token(scope, anchor);
    const { shown, last, more } = pageAfter(listed, cursorPosition, anchor, DEFAULT_LIST_LIMIT, ARTICLE_LIST_ORDER);
    const next = more ? cursors.token(scope, cursorPosition(last!)) : null;
    const page: PageInfo = { limit: DEFAULT_LIST_LIMIT, nextCursor: next, selfUrl: listUrl(base, language, token), nextUrl: next ? listUrl(base, language, next) : null };
    files.push({
      path: staticFiles.channelArticlesPage(channel.slug, token, language ?? undefined),
      inputs: [channel, language, more, ...shown],
      render: () => renderers.articleList(channel, shown, language, page),
    });
  };
  if (indexes) for (const i of indexes) plan(anchors[i]!);
  else for (const anchor of anchors) plan(anchor);
  return files;
}

/**
 * The homepage's articles: the `PAGE_MAX_ARTICLES` newest listed on it, in
 * list order. Taken from each channel's own newest (its list is sorted once
 * per group), so a publish does not sort the whole site.
 */
export function homeArticles(articles: ArticlesByChannel, renderers: Pick<Renderers, 'listArticles'>): readonly PublicArticleSummary[] {
  const candidates: PublicArticleSummary[] = [];
  for (const group of articles.values()) {
    let taken = 0;
    for (const a of renderers.listArticles(group, null)) {
      if (!a.onHomepage) continue;
      candidates.push(a);
      if (++taken === PAGE_MAX_ARTICLES) break;
    }
  }
  return renderers.listArticles(candidates, null).slice(0, PAGE_MAX_ARTICLES);
}

/**
 * Site-wide files: homepage, channel list, sitemap index and the homepage's
 * sitemap, robots.txt, llms.txt, favicon.svg, the 404 page, and the site's client assets (`_astro/`).
 * Each is small whatever the site's size (the newest articles, one line per
 * channel), and is rendered from the channels' groups (`articles`), whose
 * per-group work is remembered while a group is unchanged, so re-planning
 * them at every publish stays cheap.
 */
export function planSite(
  channels: readonly PublicChannel[],
  articles: ArticlesByChannel,
  renderers: Renderers,
  cursors: CursorCodec,
  site: SiteInfo,
  channelsUrl: string,
  assets: readonly PlannedFile[] = [],
  anchors: ListAnchors = () => null,
): PlannedFile[] {
  const home = homeArticles(articles, renderers);
  const groups = [...articles.values()];
  return [
    { path: staticFiles.home(), inputs: [channels.length, ...channels, ...home], render: () => renderers.homeHtml(channels, home, site) },
    ...channelListFiles(channels, renderers, cursors, channelsUrl, anchors),
    { path: staticFiles.sitemap(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.sitemapIndex(channels, articles, site) },
    { path: staticFiles.homeSitemap(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.homeSitemap(channels, articles, site) },
    { path: staticFiles.robots(), inputs: [], render: () => renderers.robots(site) },
    { path: staticFiles.favicon(), inputs: [], render: () => renderers.favicon() },
    { path: staticFiles.notFound(), inputs: [], render: () => renderers.notFoundHtml(site) },
    { path: staticFiles.llms(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.llms(channels, articles, site) },
    ...assets,
  ];
}
