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

/** What identifies the version of one translation's document: the same id, language, address and date, the same bytes. */
export interface ArticleJsonVersion {
  readonly id: number;
  readonly language: string;
  readonly htmlUrl: string;
  readonly updatedAt: string;
}

// `JSON.stringify(…, null, 2)` escapes every line break inside a string, so a raw line break followed by two
// spaces and a quote starts a member of the top-level object and nothing else.
const member = (name: string, value: unknown) => `\n  ${JSON.stringify(name)}: ${JSON.stringify(value)},\n`;
const AFTER_MARKDOWN = ',\n  "available_translations": ';
const MARKDOWN_MEMBER = '\n  "content_markdown": ';

/**
 * The Article JSON with `content_html`, from the document without it (the static file of the same
 * translation): `contentHtml` is inserted where `renderArticleJsonOf` puts it, after `content_markdown`, so the
 * bytes are those of rendering it whole with `includeHtml`, without serialising the body again. Null when
 * `document` is not of `version` (another article, language, address or date: a build came in between) or not
 * in that form; the caller then renders the document whole.
 */
export function withContentHtml(document: string, version: ArticleJsonVersion, contentHtml: string): string | null {
  // Every member that names the version comes before the body: only that head is searched.
  const bodyAt = document.indexOf(MARKDOWN_MEMBER);
  if (bodyAt < 0) return null;
  const head = document.slice(0, bodyAt + 1);
  const matches =
    head.includes(member('id', version.id)) &&
    head.includes(member('language', version.language)) &&
    head.includes(member('canonical_url', version.htmlUrl)) &&
    head.includes(member('updated_at', version.updatedAt));
  const at = matches ? document.indexOf(AFTER_MARKDOWN, bodyAt) : -1;
  // The member after the Markdown is the translations' list (no `content_html` in between).
  if (at < 0 || document.indexOf('\n  "', bodyAt + MARKDOWN_MEMBER.length) !== at + 1) return null;
  return `${document.slice(0, at)},\n  "content_html": ${JSON.stringify(contentHtml)}${document.slice(at)}`;
}
