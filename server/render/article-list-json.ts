/**
 * The ArticleCollection of a channel (`listPublicArticles`). Which articles
 * a list shows and in what order is the read model's (`listArticlesFor`,
 * `read-model/selection.ts`).
 * @module
 */
import { memoForOneBuild } from '../read-model/identity-memo.ts';
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import type { PageInfo } from '../read-model/list-pages.ts';
import { channelVersion, listArticlesFor, listArticlesNow, listedTranslation } from '../read-model/selection.ts';
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

// Each article's item, as it is written inside `articles` (four spaces in), by language: an article is on
// twenty pages of each list it is in (the cursor pages), so its item is written once per build and pasted.
const itemsOf = memoForOneBuild((_article: AnyPublicArticle) => new Map<string, string>());
const ARTICLES_MARK = '\u0000articles\u0000';

function itemText(article: AnyPublicArticle, language: string | null): string {
  const items = itemsOf(article);
  const key = language ?? '';
  let text = items.get(key);
  if (text === undefined) {
    // Split on \n only: JSON.stringify leaves U+2028 and U+2029 in strings, and a regexp's ^ would start a line there.
    text = JSON.stringify(articleSummary(article, listedTranslation(article, language)), null, 2).split('\n').map((line) => `    ${line}`).join('\n');
    items.set(key, text);
  }
  return text;
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
  // A cursor page is given its few items (300,000 pages at 100,000 articles): sorted here, not remembered by listArticlesFor.
  const shown = articles.length <= page.limit ? listArticlesNow(articles, language) : listArticlesFor(articles, language).slice(0, page.limit);
  const body = {
    // Not in the spec's Collections table, but "every JSON payload carries schema_version" (Versioning).
    schema_version: SCHEMA_VERSION,
    // Written in below: the same bytes as JSON.stringify(body, null, 2) with the items in place.
    articles: ARTICLES_MARK,
    pagination: { limit: page.limit, next_cursor: page.nextCursor, has_more: page.nextCursor !== null },
    _links: {
      self: page.selfUrl,
      next: page.nextUrl,
      // The channel document in the list's language (the default one when the channel lacks it or no language is asked).
      channel: channelVersion(channel, language).jsonUrl,
    },
  };
  const items = shown.length === 0 ? '[]' : `[\n${shown.map((a) => itemText(a, language)).join(',\n')}\n  ]`;
  return `${JSON.stringify(body, null, 2).replace(JSON.stringify(ARTICLES_MARK), () => items)}\n`;
}
