/**
 * Binds one renderer per output kind into the planner's `Renderers`: the HTML
 * renderer (Astro) plus the pure JSON, Markdown, feed, sitemap, robots and
 * llms.txt renderers. The full build, the incremental build and the bundled
 * server all use this one set.
 * @module
 */
import type { Renderers } from '../publish/site-plan.ts';
import { renderArticleJson } from './article-json.ts';
import { listArticlesFor, renderArticleList } from './article-list-json.ts';
import { renderArticleMarkdown } from './article-markdown.ts';
import type { HtmlRenderer } from './astro-renderer.ts';
import { renderChannelJson, renderChannelList } from './channel-json.ts';
import { renderJsonFeed, renderRss } from './feeds.ts';
import { renderChannelLlmsPart, renderChannelLlmsTxt, renderLlmsTxt } from './llms-txt.ts';
import { renderFavicon } from './favicon.ts';
import { renderRobots } from './robots.ts';
import { renderChannelSitemap, renderChannelSitemapPart, renderHomeSitemap, renderSitemapIndex } from './sitemap.ts';

/** The renderer set over an HTML renderer. */
export function createRenderers(html: HtmlRenderer): Renderers {
  return Object.freeze({
    articleHtml: (article, language, site) => html.article(article, language, site),
    channelHtml: (channel, language, languages, articles, site) => html.channel(channel, language, languages, articles, site),
    homeHtml: (channels, articles, site) => html.home(channels, articles, site),
    notFoundHtml: (site) => html.notFound(site),
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
