/**
 * The ArticleCollection of a channel (`listPublicArticles`) and the one
 * definition of which articles a list or feed shows and in what order.
 *
 * Selection (public API rule 7, used for lists as well as feeds):
 * - no language: every article once, in its primary translation;
 * - a language: only articles with a published translation in exactly that
 *   language, shown in it; never a substitute language.
 * Order: newest first by the article's first publication (`publishedAt`),
 * then by id, descending. The article's date rather than the translation's
 * keeps every language's list in the same order and is the keyset position
 * `{p, id}` the cursors carry.
 * @module
 */
import { SCHEMA_VERSION } from '../http/error-body.ts';
import { channelVersion, compareText, primaryTranslation, translationIn } from './public-select.ts';
import type { AnyPublicArticle, PublicChannel, PublicTranslationHead } from './view-models.ts';

/** Pagination of one rendered page, worked out by the caller with `listArticlesFor` and the cursor codec. */
export interface PageInfo {
  readonly limit: number;
  /** Opaque cursor of the next page, or null on the last page. */
  readonly nextCursor: string | null;
  /** Address of this page. */
  readonly selfUrl: string;
  /** Address of the next page, or null on the last page. */
  readonly nextUrl: string | null;
}

/**
 * The articles a list or feed in `language` shows, in list order (see module
 * doc). The paginator slices this and encodes `cursorPosition` of a page's
 * last item, so pages and cursors use exactly this order.
 */
export function listArticlesFor<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): readonly A[] {
  // One build renders a channel's lists, feeds and pages from the same array: each language is
  // filtered and sorted once per array (arrays given to renderers are never changed afterwards).
  let byLanguage = listed.get(articles);
  if (!byLanguage) listed.set(articles, (byLanguage = new Map()));
  const key = language ?? '';
  let result = byLanguage.get(key) as readonly A[] | undefined;
  if (!result) {
    result = Object.freeze(
      articles
        .filter((a) => language === null || translationIn(a, language) !== undefined)
        .sort((a, b) => compareText(b.publishedAt, a.publishedAt) || b.id - a.id),
    );
    byLanguage.set(key, result);
  }
  return result;
}

const listed = new WeakMap<readonly AnyPublicArticle[], Map<string, readonly AnyPublicArticle[]>>();

/** The version of `article` a list or feed in `language` shows: the exact translation, or the primary without a language. */
export function listedTranslation<A extends AnyPublicArticle>(article: A, language: string | null): A['translations'][number] {
  const translation = language === null ? primaryTranslation(article) : translationIn(article, language);
  if (!translation) throw new RangeError(`Article ${article.id} has no published "${language}" translation.`);
  return translation;
}

/**
 * The keyset position of an article in a list: `p` its first publication
 * (ISO string, compared as text like the sort), `id` the tie-breaker. The
 * next page holds the items strictly after it in `listArticlesFor` order.
 */
export function cursorPosition(article: AnyPublicArticle): { p: string; id: number } {
  return { p: article.publishedAt, id: article.id };
}

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
