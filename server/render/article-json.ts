/**
 * The Article resource of the public API (`getPublicArticle`): one exact
 * language of one article, with its full Markdown text, every published
 * sibling translation and navigation links. Pure: the same models give the
 * same bytes, so the static file and the API answer are interchangeable.
 *
 * Field order follows the spec's Article table. Choices where the spec is
 * silent (documented in docs/OUTPUTS.md):
 * - `author` is omitted when the article has none: the spec types it as an
 *   object (not nullable) and optional, unlike `image`, which is "object or null";
 * - `published_at`/`updated_at` are those of this translation, the version
 *   being cited;
 * - `available_translations` lists every published translation including this
 *   one, primary first, so every sibling carries the same list;
 * - `_links`: self, html, markdown, channel, articles, rss;
 * - `content_markdown` is the stored body made safe (`publicMarkdown`, via `publicBodyOf`), and
 *   `content_html` the rendered body; in both, relative link targets are made absolute against the
 *   translation's page (`absolute-links.ts`), so they mean the same at every address the JSON is served from.
 * @module
 */
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import { channelVersion, requireTranslation } from '../read-model/selection.ts';
import { publicBodyOf, publicHtmlOf } from './public-body.ts';
import type { AnyPublicArticle, PublicArticle, PublicTranslation, PublicTranslationHead } from '../read-model/view-models.ts';

/** How the Article JSON is rendered. */
export interface ArticleJsonOptions {
  /** Adds `content_html` (the API's `include=html`); the static file leaves it out. */
  readonly includeHtml?: boolean;
}

/** A TranslationLink of the spec: where one published translation lives in each form. */
export interface TranslationLink {
  readonly language: string;
  readonly title: string;
  readonly html_url: string;
  readonly markdown_url: string;
  readonly json_url: string;
  readonly api_url: string;
}

/**
 * Builds the TranslationLink of one translation. `api_url` equals `json_url`
 * because the JSON document is the API resource; both are kept so clients of
 * either name work.
 */
export function translationLink(translation: PublicTranslationHead): TranslationLink {
  return {
    language: translation.language,
    title: translation.title,
    html_url: translation.htmlUrl,
    markdown_url: translation.markdownUrl,
    json_url: translation.jsonUrl,
    api_url: translation.jsonUrl,
  };
}

/**
 * Renders the Article JSON of `article` in exactly `language`.
 * @throws RangeError when that translation is not published (the caller answers 404, rule 1).
 */
export function renderArticleJson(article: PublicArticle, language: string, options: ArticleJsonOptions = {}): string {
  return renderArticleJsonOf(article, requireTranslation(article, language), options);
}

/**
 * The same document from an article's heads and the one translation shown, with its body: what the read API
 * renders for `include=html` from the body it reads alone (the other translations are only linked).
 */
export function renderArticleJsonOf(article: AnyPublicArticle, translation: PublicTranslation, options: ArticleJsonOptions = {}): string {
  const language = translation.language;
  const channel = channelVersion(article.channel, language);
  const body = {
    schema_version: SCHEMA_VERSION,
    id: article.id,
    slug: article.slug,
    title: translation.title,
    excerpt: translation.excerpt,
    language: translation.language,
    default_language: article.defaultLanguage,
    canonical_url: translation.htmlUrl,
    image: translation.image ? { url: translation.image.url, alt: translation.image.alt } : null,
    publisher: { id: article.channel.id, slug: article.channel.slug, name: channel.title, url: channel.htmlUrl },
    // Spread so the key is absent, not null, when there is no author (see module doc).
    ...(article.author ? { author: { name: article.author.name } } : {}),
    published_at: translation.publishedAt,
    updated_at: translation.updatedAt,
    // Made safe as the HTML is: bodies stored before the rule may hold unsafe HTML or links.
    content_markdown: publicBodyOf(translation),
    ...(options.includeHtml ? { content_html: publicHtmlOf(translation) } : {}),
    available_translations: article.translations.map(translationLink),
    _links: {
      self: translation.jsonUrl,
      html: translation.htmlUrl,
      markdown: translation.markdownUrl,
      channel: channel.jsonUrl,
      articles: channel.articlesJsonUrl,
      rss: channel.rssUrl,
    },
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
