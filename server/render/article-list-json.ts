/**
 * The ArticleCollection of a channel (`listPublicArticles`). Which articles
 * a list shows and in what order is the read model's (`listArticlesFor`,
 * `read-model/selection.ts`).
 * @module
 */
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import type { PageInfo } from '../read-model/list-pages.ts';
import { channelVersion, listArticlesFor, listedTranslation } from '../read-model/selection.ts';
import type { AnyPublicArticle, PublicChannel, PublicTranslationHead } from '../read-model/view-models.ts';

/** One ArticleSummary item, in spec field order. */
export function articleSummary(article: AnyPublicArticle, translation: PublicTranslationHead): Record<string, unknown> {
  return {
    id: article.id,
    slug: article.slug,
    title: translation.title,
    excerpt: translation.excerpt,
    language: translation.language,
    default_language: article.defaultLanguage,
    html_url: translation.htmlUrl,
    markdown_url: translation.markdownUrl,
    json_url: translation.jsonUrl,
  };
}

/**
 * Renders one page of a channel's ArticleCollection: `schema_version`,
 * `articles`, `pagination`, `_links` {self, next, channel}. `articles` are the
 * channel's public articles (the whole list or from the page's start): they
 * are filtered and ordered by `listArticlesFor` and the first `page.limit`
 * shown.
 */
export function renderArticleList(
  channel: PublicChannel,
  articles: readonly AnyPublicArticle[],
  language: string | null,
  page: PageInfo,
): string {
  const body = {
    // Not in the spec's Collections table, but "every JSON payload carries schema_version" (Versioning).
    schema_version: SCHEMA_VERSION,
    articles: listArticlesFor(articles, language)
      .slice(0, page.limit)
      .map((a) => articleSummary(a, listedTranslation(a, language))),
    pagination: { limit: page.limit, next_cursor: page.nextCursor, has_more: page.nextCursor !== null },
    _links: {
      self: page.selfUrl,
      next: page.nextUrl,
      // The channel document in the list's language (the default one when the channel lacks it or no language is asked).
      channel: channelVersion(channel, language).jsonUrl,
    },
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
