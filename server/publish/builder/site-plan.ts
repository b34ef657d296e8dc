/**
 * The plan of the static output: for each owner (an article, a channel, the
 * site), the exact files it produces and how to render each. The full build
 * and the incremental build both run these plans, so they cannot drift.
 * @module
 */
import type { CursorCodec } from '../../domain/cursor.ts';
import type { AnyPublicArticle, ArticlesByChannel, PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../../read-model/view-models.ts';
import { FEED_MAX_ITEMS } from '../../render/feeds.ts';
import { LLMS_CHANNEL_ARTICLES } from '../../render/llms-txt.ts';
import { ARTICLE_LIST_ORDER, articleListScope, CHANNEL_LIST_ORDER, channelListScope, channelPosition, DEFAULT_LIST_LIMIT, listUrl, pageAfter, type ListOrder, type ListPosition, type PageInfo } from '../../read-model/list-pages.ts';
import type { Renderers } from '../../render/renderers.ts';
import { articleParts, channelLanguages, channelTranslationIn, channelVersion, cursorPosition, newestInLanguage } from '../../read-model/selection.ts';
import { staticFiles } from '../../serving/static-files.ts';

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


/** Owner key of an article's files in the manifest. */
export const articleOwner = (id: number) => `article:${id}`;
/** Owner key of a channel's files in the manifest. */
export const channelOwner = (id: number) => `channel:${id}`;
/** Owner key of a channel's cursor pages (`read-model/list-pages.ts`), planned apart from its other files so a publish plans only those around it. */
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
    // A preview card where the translation has no image of its own (its pages name the image otherwise).
    if (site.socialCards && !t.image) {
      const kicker = channelVersion(article.channel, lang).title;
      files.push({ path: staticFiles.articleCard(c, article.slug, lang), render: () => renderers.card({ title: t.title, kicker, site: site.name, lang, dir: t.dir }) });
    }
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
  const pageFile = (path: string, language: string, render: () => Promise<Uint8Array>): PlannedFile => ({
    path,
    inputs: [channel, language, languagesKey, ...shown(language)],
    render,
  });
  // The default page and the default language's page show the same list: sorted and rendered once.
  const shownBy = new Map<string, PublicArticleSummary[]>();
  const shown = (language: string) => {
    let list = shownBy.get(language);
    if (!list) shownBy.set(language, (list = newestInLanguage(articles, language, PAGE_MAX_ARTICLES)));
    return list;
  };
  const pageOf = (language: string) => () => renderers.channelHtml(channel, language, languages, shown(language), site);
  const defaultPage = once(pageOf(channel.defaultLanguage));
  files.push(pageFile(staticFiles.channelHtml(c), channel.defaultLanguage, defaultPage));
  files.push(channelJson(null), ...listFiles(null));
  // The preview cards of its pages: the default page's, and each other language's (named in it, or in the default).
  const card = (language: string, path: string): PlannedFile => {
    const text = channelVersion(channel, language);
    return { path, inputs: [channel, language], render: () => renderers.card({ title: text.title, kicker: '', site: site.name, lang: text.language, dir: text.dir }) };
  };
  if (site.socialCards) {
    files.push(card(channel.defaultLanguage, staticFiles.channelCard(c)));
    for (const lang of languages) if (lang !== channel.defaultLanguage) files.push(card(lang, staticFiles.channelCard(c, lang)));
  }
  // The 404 pages of the addresses under the channel (server/serving/not-found-page.ts): by default and per language.
  files.push({ path: staticFiles.channelNotFound(c), inputs: [channel, null], render: () => renderers.notFoundHtml(site, null, channel) });
  for (const lang of languages) {
    files.push(pageFile(staticFiles.channelHtml(c, lang), lang, lang === channel.defaultLanguage ? defaultPage : pageOf(lang)));
    files.push({ path: staticFiles.channelNotFound(c, lang), inputs: [channel, lang], render: () => renderers.notFoundHtml(site, lang, channel) });
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


/**
 * The anchors of a list (`read-model/list-pages.ts`), given its items now: the
 * builder records the new ones. Returns null to plan no cursor pages.
 */
export type ListAnchors = (scope: string, items: readonly ListPosition[], order: ListOrder) => readonly ListPosition[] | null;

/**
 * The cursor pages of a channel's article list in `language`
 * (`read-model/list-pages.ts`): the page after each anchor at `indexes` (all
 * of them when absent). They are always rendered (see below); a page whose
 * bytes did not change is not written.
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
    // No `inputs`: a channel of 5,000 articles has some 15,000 cursor pages, and remembering each one's inputs
    // held memory that grows with the site (docs/PERFORMANCE.md, "What bounds them"), for renders a memo rarely
    // saves (a publish plans only the pages that show the changed article; a full build's articles are new
    // objects). The writer still leaves unchanged bytes alone.
    files.push({
      path: staticFiles.channelArticlesPage(channel.slug, token, language ?? undefined),
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

// A channel's languages read every article of its group; the site is planned at every publish, so they are
// remembered per group (the read model keeps a group's array while it is unchanged) and channel.
const languagesByGroup = new WeakMap<readonly AnyPublicArticle[], { channel: PublicChannel; languages: readonly string[] }>();
const NO_ARTICLES: readonly AnyPublicArticle[] = [];

/** Every language some channel has (`channelLanguages`), sorted. */
function siteLanguages(channels: readonly PublicChannel[], articles: ArticlesByChannel): string[] {
  const all = new Set<string>();
  for (const channel of channels) {
    const group = articles.get(channel.id) ?? NO_ARTICLES;
    let known = languagesByGroup.get(group);
    if (known?.channel !== channel) languagesByGroup.set(group, (known = { channel, languages: channelLanguages(channel, group) }));
    for (const lang of known.languages) all.add(lang);
  }
  return [...all].sort();
}

/**
 * Site-wide files: homepage, channel list, sitemap index and the homepage's
 * sitemap, robots.txt, llms.txt, favicon.svg, the 404 pages, the search pages, and the site's client assets (`_astro/`).
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
  const languages = siteLanguages(channels, articles);
  return [
    { path: staticFiles.home(), inputs: [channels.length, ...channels, ...home], render: () => renderers.homeHtml(channels, home, site) },
    ...channelListFiles(channels, renderers, cursors, channelsUrl, anchors),
    { path: staticFiles.sitemap(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.sitemapIndex(channels, articles, site) },
    { path: staticFiles.homeSitemap(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.homeSitemap(channels, articles, site) },
    { path: staticFiles.robots(), inputs: [], render: () => renderers.robots(site) },
    { path: staticFiles.favicon(), inputs: [], render: () => renderers.favicon() },
    { path: staticFiles.logo(), inputs: [], render: () => renderers.logo() },
    ...(site.socialCards ? [{ path: staticFiles.siteCard(), inputs: [], render: () => renderers.card({ title: site.name, kicker: '', site: '', lang: 'und', dir: 'ltr' as const }) }] : []),
    { path: staticFiles.notFound(), inputs: [], render: () => renderers.notFoundHtml(site, null, null) },
    // `/{x}/{lang}/…` where no channel x exists: the 404 page in each language a channel has.
    ...languages.map((lang) => ({ path: staticFiles.languageNotFound(lang), inputs: [lang], render: () => renderers.notFoundHtml(site, lang, null) })),
    // The search pages: every language's, and each language's (their results name the channels and languages).
    ...[null, ...languages].map((lang) => ({
      path: staticFiles.searchPage(lang ?? undefined),
      inputs: [lang, channels.length, ...channels, languages.join(' ')],
      render: () => renderers.searchHtml(site, lang, channels, languages),
    })),
    { path: staticFiles.llms(), inputs: [channels.length, ...channels, ...groups], render: () => renderers.llms(channels, articles, site) },
    ...assets,
  ];
}
