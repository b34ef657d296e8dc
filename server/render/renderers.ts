/**
 * Binds one renderer per output kind into the planner's `Renderers`: the HTML
 * renderer (Astro) plus the pure JSON, Markdown, feed, sitemap, robots and
 * llms.txt renderers. The full build, the incremental build and the bundled
 * server all use this one set.
 * @module
 */
import type { PageInfo } from '../read-model/list-pages.ts';
import { listArticlesFor } from '../read-model/selection.ts';
import type { AnyPublicArticle, ArticlesByChannel, PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../read-model/view-models.ts';
import { renderArticleJson } from './article-json.ts';
import { renderArticleList } from './article-list-json.ts';
import { renderArticleMarkdown } from './article-markdown.ts';
import type { HtmlRenderer } from './astro-renderer.ts';
import { renderChannelJson, renderChannelList } from './channel-json.ts';
import { renderJsonFeed, renderRss } from './feeds.ts';
import { renderChannelLlmsPart, renderChannelLlmsTxt, renderLlmsTxt } from './llms-txt.ts';
import { renderFavicon } from './favicon.ts';
import { renderRobots } from './robots.ts';
import type { CardRenderer, SocialCard } from './social-card.ts';
import { renderChannelSitemap, renderChannelSitemapPart, renderHomeSitemap, renderSitemapIndex } from './sitemap.ts';

/** The renderers, one per output kind (bound by `createRenderers`). Lists take articles without bodies. */
export interface Renderers {
  /** HTML renderers answer UTF-8 bytes (`HtmlRenderer`). */
  articleHtml(article: PublicArticle, language: string, site: SiteInfo): Promise<Uint8Array>;
  /** A channel page in `language`, one of `languages` (the channel's languages, `channelLanguages`). */
  channelHtml(channel: PublicChannel, language: string, languages: readonly string[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<Uint8Array>;
  homeHtml(channels: readonly PublicChannel[], articles: readonly PublicArticleSummary[], site: SiteInfo): Promise<Uint8Array>;
  /** A 404 page (`server/serving/not-found-page.ts`): the site's (`language` null), in a language, or a channel's. */
  notFoundHtml(site: SiteInfo, language: string | null, channel: PublicChannel | null): Promise<Uint8Array>;
  /** The search page of one language, or of every language (`language` null). */
  searchHtml(site: SiteInfo, language: string | null, channels: readonly PublicChannel[], languages: readonly string[]): Promise<Uint8Array>;
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
  /** A page's link-preview card, PNG (`social-card.ts`). */
  card(card: SocialCard): Promise<Uint8Array>;
  /** The site's logo, PNG, drawn from the favicon. */
  logo(): Promise<Uint8Array>;
  llms(channels: readonly PublicChannel[], articles: ArticlesByChannel, site: SiteInfo): string;
  channelLlms(channel: PublicChannel, articles: readonly PublicArticleSummary[], site: SiteInfo): string;
  /** `/{channel}/llms-{n}.txt`: the articles of part `n` (`articleParts`). */
  channelLlmsPart(channel: PublicChannel, part: readonly PublicArticleSummary[], n: number, site: SiteInfo): string;
  /** Orders and filters a channel's articles for a list in `language` (null: one version per article). */
  listArticles<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): readonly A[];
}


/** The renderer set over an HTML renderer and a card renderer. */
export function createRenderers(html: HtmlRenderer, cards: CardRenderer): Renderers {
  return Object.freeze({
    card: (card) => cards.card(card),
    logo: () => cards.logo(renderFavicon()),
    articleHtml: (article, language, site) => html.article(article, language, site),
    channelHtml: (channel, language, languages, articles, site) => html.channel(channel, language, languages, articles, site),
    homeHtml: (channels, articles, site) => html.home(channels, articles, site),
    notFoundHtml: (site, language, channel) => html.notFound(site, language, channel),
    searchHtml: (site, language, channels, languages) => html.search(site, language, channels, languages),
    articleJson: (article, language) => renderArticleJson(article, language),
    articleMarkdown: renderArticleMarkdown,
    channelJson: renderChannelJson,
    channelList: renderChannelList,
    articleList: renderArticleList,
    rss: renderRss,
    jsonFeed: renderJsonFeed,
    sitemapIndex: renderSitemapIndex,
    homeSitemap: renderHomeSitemap,
    channelSitemap: renderChannelSitemap,
    channelSitemapPart: renderChannelSitemapPart,
    robots: renderRobots,
    favicon: renderFavicon,
    llms: renderLlmsTxt,
    channelLlms: renderChannelLlmsTxt,
    channelLlmsPart: renderChannelLlmsPart,
    listArticles: listArticlesFor,
  } satisfies Renderers);
}
