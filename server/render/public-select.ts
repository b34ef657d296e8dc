/**
 * Choosing which version of an article or channel a renderer shows. Every
 * machine-readable output (JSON, Markdown, lists, feeds, sitemap, llms.txt)
 * asks here, so "the primary translation", "the exact language" and "the
 * channel's address in this language" mean the same thing everywhere.
 * @module
 */
import { publicMarkdown } from '../domain/body/safe-markdown.ts';
import { absoluteHtmlLinks, absoluteMarkdownLinks } from './absolute-links.ts';
import type { AnyPublicArticle, PublicArticle, PublicArticleOf, PublicArticleSummary, PublicChannel, PublicChannelTranslation, PublicTranslationHead, PublicTranslationSummary } from './view-models.ts';

/**
 * The article's primary translation: the one in its default language. The
 * model guarantees it is published and first; the fallback to the first
 * translation only guards against a model built by hand.
 */
export function primaryTranslation<T extends PublicTranslationHead>(article: PublicArticleOf<T>): T {
  const primary = article.translations.find((t) => t.language === article.defaultLanguage) ?? article.translations[0];
  if (!primary) throw new RangeError(`Article ${article.id} has no published translation.`);
  return primary;
}

/** The published translation in exactly `language`, or undefined (public API rule 1: never another language). */
export function translationIn<T extends PublicTranslationHead>(article: PublicArticleOf<T>, language: string): T | undefined {
  return article.translations.find((t) => t.language === language);
}

/**
 * The exact translation a document is rendered for.
 * @throws RangeError when it is not published: the caller answers 404 and must not ask a renderer for it.
 */
export function requireTranslation<T extends PublicTranslationHead>(article: PublicArticleOf<T>, language: string): T {
  const translation = translationIn(article, language);
  if (!translation) throw new RangeError(`Article ${article.id} has no published "${language}" translation.`);
  return translation;
}

/** The channel's own translation in exactly `language`, or undefined. */
export function channelTranslationIn(channel: PublicChannel, language: string): PublicChannelTranslation | undefined {
  return channel.translations.find((t) => t.language === language);
}

/** The channel's default-language translation (its name when no better one exists). */
export function channelDefaultTranslation(channel: PublicChannel): PublicChannelTranslation {
  const translation = channelTranslationIn(channel, channel.defaultLanguage) ?? channel.translations[0];
  if (!translation) throw new RangeError(`Channel ${channel.id} has no translation.`);
  return translation;
}

/** A channel's title, description and addresses as one representation shows them. */
export interface ChannelVersion {
  /** Language of `title` and `description`: the asked language, or the default one when the channel lacks it. */
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly title: string;
  readonly description: string | null;
  /** The channel page that lists the asked language's articles (canonical address). */
  readonly htmlUrl: string;
  /** The channel document: in the asked language when the channel has it, else in its default language. */
  readonly jsonUrl: string;
  readonly articlesJsonUrl: string;
  readonly rssUrl: string;
  readonly jsonFeedUrl: string;
}

/**
 * The channel as seen from `language` (null: no language asked).
 * - Pages: the default language's canonical page is `/{channel}/` (the build
 *   writes `/{channel}/{default}/` with the same bytes); every other language
 *   has `/{channel}/{lang}/` (docs/URLS.md).
 * - Lists and feeds: a language maps to that exact language's list and feed
 *   (the default language included: its feed differs from the unfiltered
 *   one, rule 7); null maps to the unfiltered ones.
 * - A language the channel's own translations lack, but an article of it is
 *   published in, is still a language of the channel: it has its page, list
 *   and feeds. The channel's own fields are never substituted silently: the
 *   title and description are the default language's and `language` says so
 *   (pages mark them with `lang`), and `jsonUrl` is the default-language
 *   channel document, because the channel has no document in that language
 *   (rule 1).
 */
export function channelVersion(channel: PublicChannel, language: string | null): ChannelVersion {
  const own = language === null ? undefined : channelTranslationIn(channel, language);
  const named = own ?? channelDefaultTranslation(channel);
  if (language === null) {
    return {
      language: named.language,
      dir: named.dir,
      title: named.title,
      description: named.description,
      htmlUrl: channel.htmlUrl,
      jsonUrl: channel.jsonUrl,
      articlesJsonUrl: channel.articlesJsonUrl,
      rssUrl: channel.rssUrl,
      jsonFeedUrl: channel.jsonFeedUrl,
    };
  }
  const isDefault = language === channel.defaultLanguage;
  const folder = `${channel.htmlUrl}${encodeURIComponent(language)}/`;
  return {
    language: named.language,
    dir: named.dir,
    title: named.title,
    description: named.description,
    htmlUrl: isDefault ? channel.htmlUrl : folder,
    jsonUrl: own && !isDefault ? own.jsonUrl : channel.jsonUrl,
    articlesJsonUrl: withLanguage(channel.articlesJsonUrl, language),
    rssUrl: `${folder}rss.xml`,
    jsonFeedUrl: `${folder}feed.json`,
  };
}

/**
 * The languages of a channel (docs/URLS.md): its own translations' and every
 * language one of its public articles (among `articles`) is published in.
 * The default language first, then by code. Each has a channel page, a list
 * and feeds; only the channel's own have a channel document.
 */
export function channelLanguages(channel: PublicChannel, articles: readonly AnyPublicArticle[]): readonly string[] {
  const fromArticles = articleLanguages(ofChannel(channel.id, articles));
  const all = new Set<string>([...channel.translations.map((t) => t.language), ...fromArticles]);
  all.delete(channel.defaultLanguage);
  return [channel.defaultLanguage, ...[...all].sort(compareText)];
}

// Languages of an array of articles: a builder passes an unchanged channel's group again.
const languagesOfArray = new WeakMap<readonly AnyPublicArticle[], readonly string[]>();

function articleLanguages(articles: readonly AnyPublicArticle[]): readonly string[] {
  let languages = languagesOfArray.get(articles);
  if (!languages) {
    const found = new Set<string>();
    for (const a of articles) for (const t of a.translations) found.add(t.language);
    languages = [...found];
    languagesOfArray.set(articles, languages);
  }
  return languages;
}

/**
 * Adds `?lang=` to an API address that has no query yet, exactly as
 * `public-urls.ts` does. Needed because `PublicChannelTranslation` carries no
 * `articlesJsonUrl` of its own.
 */
export function withLanguage(url: string, language: string): string {
  return `${url}?lang=${encodeURIComponent(language)}`;
}

/** Longest description made from body text when a translation has no excerpt. */
export const SUMMARY_MAX_CHARS = 300;

/**
 * How much of a body's text lists keep (`PublicTranslationSummary.textStart`),
 * in code points: more than any summary cut from it needs (300 here, 200 on
 * list pages), with room for the one trailing space trimming may remove.
 */
export const TEXT_START_CHARS = 400;

/** The start of a body's plain text that lists keep (see `TEXT_START_CHARS`). */
export function textStartOf(text: string): string {
  if (text.length <= TEXT_START_CHARS) return text;
  // Counted in code points so the cut never splits a surrogate pair.
  return Array.from(text.slice(0, TEXT_START_CHARS * 2)).slice(0, TEXT_START_CHARS).join('');
}

/** The article as lists hold it: the same fields, bodies replaced by the start of their text. */
export function summarizeArticle(article: PublicArticle): PublicArticleSummary {
  return {
    ...article,
    translations: article.translations.map(({ markdown: _m, html: _h, text, ...head }) => ({ ...head, textStart: textStartOf(text) })),
  };
}

/**
 * A one-paragraph description: the excerpt, else the start of the plain text
 * cut at a word boundary with an ellipsis. Whitespace is collapsed so the
 * value fits one line (llms.txt items, feed summaries). Only the first
 * `SUMMARY_MAX_CHARS` + 1 code points of the text matter, so `textStart` serves.
 */
export function summaryOf(translation: Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>): string {
  // Feeds, JSON feeds and llms.txt each ask for the same translations' summaries at every build.
  let summary = summaries.get(translation);
  if (summary === undefined) summaries.set(translation, (summary = summarize(translation)));
  return summary;
}

const summaries = new WeakMap<Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>, string>();

function summarize(translation: Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>): string {
  const source = (translation.excerpt ?? translation.textStart).replace(/\s+/g, ' ').trim();
  // Counted in code points so a cut never splits a surrogate pair (invalid in XML).
  const chars = Array.from(source);
  if (translation.excerpt !== null || chars.length <= SUMMARY_MAX_CHARS) return source;
  const cut = chars.slice(0, SUMMARY_MAX_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  // A very long word (URL, CJK text without spaces) is cut mid-word rather than dropped.
  return `${(space > SUMMARY_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Code-unit comparison, the same in every locale, for sorting keys. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The articles of `channel` among `articles`: the array itself when every
 * article is of the channel (a builder's group), so per-array memos hold.
 */
export function ofChannel<A extends AnyPublicArticle>(channelId: number, articles: readonly A[]): readonly A[] {
  if (channelOfArray.get(articles) === channelId) return articles;
  if (!articles.every((a) => a.channel.id === channelId)) return articles.filter((a) => a.channel.id === channelId);
  channelOfArray.set(articles, channelId);
  return articles;
}

// Arrays found to hold one channel's articles only (a builder passes an unchanged group again).
const channelOfArray = new WeakMap<readonly AnyPublicArticle[], number>();

/**
 * Articles per part of a channel's complete lists (its sitemaps and llms
 * files beyond the first): a publish re-renders the part that holds the
 * article, never the whole channel.
 */
export const ARTICLES_PER_PART = 100;

/**
 * The parts of a channel's complete lists: its articles in id order (oldest
 * first), `ARTICLES_PER_PART` each, so an article stays in its part while
 * newer ones are added (only unpublishing one moves the later ones). Part 1
 * is `parts[0]`. Remembered per array (a builder's group).
 */
export function articleParts<A extends AnyPublicArticle>(articles: readonly A[]): ReadonlyArray<readonly A[]> {
  let parts = partsOfArray.get(articles) as ReadonlyArray<readonly A[]> | undefined;
  if (!parts) {
    const byId = [...articles].sort((a, b) => a.id - b.id);
    const cut: A[][] = [];
    for (let i = 0; i < byId.length; i += ARTICLES_PER_PART) cut.push(byId.slice(i, i + ARTICLES_PER_PART));
    parts = cut;
    partsOfArray.set(articles, parts);
  }
  return parts;
}

const partsOfArray = new WeakMap<readonly AnyPublicArticle[], ReadonlyArray<readonly AnyPublicArticle[]>>();

// The JSON and the Markdown document of a translation are rendered from the
// same model object in one build; built models are never changed.
const publicBodies = new WeakMap<object, string>();
const publicHtmlBodies = new WeakMap<object, string>();

/**
 * The body of a translation as the public Markdown outputs give it
 * (`publicMarkdown`: safe even when stored before the safe-Markdown rule),
 * with its relative link targets made absolute against the translation's
 * page (`absoluteMarkdownLinks`), made once per model object.
 */
export function publicBodyOf(translation: { readonly markdown: string; readonly htmlUrl: string }): string {
  let body = publicBodies.get(translation);
  if (body === undefined) publicBodies.set(translation, (body = absoluteMarkdownLinks(publicMarkdown(translation.markdown), translation.htmlUrl)));
  return body;
}

/** The rendered body for the JSON's `content_html`, its relative targets made absolute (`absoluteHtmlLinks`). */
export function publicHtmlOf(translation: { readonly html: string; readonly htmlUrl: string }): string {
  let html = publicHtmlBodies.get(translation);
  if (html === undefined) publicHtmlBodies.set(translation, (html = absoluteHtmlLinks(translation.html, translation.htmlUrl)));
  return html;
}
