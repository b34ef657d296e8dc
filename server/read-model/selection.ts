/**
 * Every selection rule of the read side, in one home: which version of an
 * article or channel a representation shows, which articles a list or feed
 * holds and in what order, and the summary text lists show. The renderers,
 * the builder, the read API and the Astro pages (`src/lib`) all ask here, so
 * "newest first", "the primary translation", "the exact language" and "the
 * channel's address in this language" mean the same thing everywhere.
 *
 * Lists (public API rule 7, for lists as well as feeds):
 * - no language: every article once, in its primary translation;
 * - a language: only articles with a published translation in exactly that
 *   language, shown in it; never a substitute language.
 *
 * Order: newest first (`newestFirst`) by the article's first publication,
 * then by id, descending. The article's date rather than the translation's
 * keeps every language's list in the same order and is the keyset position
 * `{p, id}` the cursors carry (`cursorPosition`).
 * @module
 */
import { memoByIdentity } from './identity-memo.ts';
import type { AnyPublicArticle, PublicArticleOf, PublicChannel, PublicChannelTranslation, PublicTranslationHead, PublicTranslationSummary } from './view-models.ts';

/** Where a sentence ends: its closing mark (Latin, Arabic, CJK), any closing quotes or brackets, then a space. */
const SENTENCE_END = /[.!?…؟。！？](?:["'”’»)\]]*)(?= )/gu;

/**
 * The one rule that cuts a summary: `text` with its whitespace collapsed,
 * at most `max` code points. When it is longer it is cut at the last
 * sentence end in the last two fifths of the limit, else at the last word
 * boundary past its middle, else (a very long word, text without spaces)
 * at the limit; a cut is marked with an ellipsis, which counts in `max`.
 * Counted in code points so a cut never splits a surrogate pair (invalid
 * in XML). Every description, list excerpt, feed summary and llms.txt line
 * made from a body's prose, or from a long excerpt, is cut here.
 */
export function truncateText(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max && Array.from(clean).length <= max) return clean;
  const cut = Array.from(clean).slice(0, max - 1).join('');
  let sentence = -1;
  for (const end of cut.matchAll(SENTENCE_END)) sentence = end.index + end[0].length;
  if (sentence > cut.length * 0.6) return `${cut.slice(0, sentence)} …`;
  const space = cut.lastIndexOf(' ');
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?،؛]+$/u, '')}…`;
}

/** Most characters of a page's description or a list item's excerpt on the HTML pages. */
export const PAGE_SUMMARY_MAX_CHARS = 200;

/**
 * The excerpt an HTML list item shows: the excerpt, else the SEO
 * description, else the start of the body's prose cut by `truncateText`
 * (null: nothing to show). Machine-readable lists use `summaryOf`.
 */
export function pageExcerptOf(translation: Pick<PublicTranslationSummary, 'excerpt' | 'seoDescription' | 'textStart'>): string | null {
  const t = translation;
  return t.excerpt?.trim() || t.seoDescription?.trim() || (t.textStart ? truncateText(t.textStart, PAGE_SUMMARY_MAX_CHARS) : '') || null;
}

/** Code-unit comparison, the same in every locale, for sorting keys. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Newest first: the later ISO date first (compared as text: every date the
 * model holds has one format), then the higher id. The one order of every
 * list, feed, page and cursor.
 */
export function newestFirst(aDate: string, aId: number, bDate: string, bId: number): number {
  return compareText(bDate, aDate) || bId - aId;
}

/** `newestFirst` by the articles' first publication: a channel's group, its lists and feeds. */
export function byPublication(a: AnyPublicArticle, b: AnyPublicArticle): number {
  return newestFirst(a.publishedAt, a.id, b.publishedAt, b.id);
}

/**
 * The articles a list or feed in `language` shows, in list order (see the
 * module doc). A paginator slices this and encodes `cursorPosition` of a
 * page's last item, so pages and cursors use exactly this order. Filtered
 * and sorted once per array and language (the identity rule).
 */
export function listArticlesFor<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): readonly A[] {
  const byLanguage = listsOf(articles);
  const key = language ?? '';
  let result = byLanguage.get(key) as readonly A[] | undefined;
  if (!result) {
    result = Object.freeze(listArticlesNow(articles, language));
    byLanguage.set(key, result);
  }
  return result;
}

/** `listArticlesFor` without remembering the result: for a few items (a cursor page's), where the memo costs more than the sort. */
export function listArticlesNow<A extends AnyPublicArticle>(articles: readonly A[], language: string | null): A[] {
  return articles.filter((a) => language === null || translationIn(a, language) !== undefined).sort(byPublication);
}

const listsOf = memoByIdentity((_articles: readonly AnyPublicArticle[]) => new Map<string, readonly AnyPublicArticle[]>());

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

/**
 * The `limit` newest of `articles` with a translation in `language`, newest
 * first by that translation's own publication (what a channel page in that
 * language shows), then by id.
 */
export function newestInLanguage<A extends AnyPublicArticle>(articles: readonly A[], language: string, limit: number): A[] {
  // The `limit` best kept in order while the rest are passed over with one comparison each: a publish in a
  // channel of 5,000 articles picks the 50 newest without sorting all 5,000.
  if (limit <= 0) return [];
  const best: Array<{ a: A; at: string }> = [];
  for (const a of articles) {
    const t = translationIn(a, language);
    if (!t) continue;
    const worst = best[best.length - 1];
    if (best.length === limit && newestFirst(t.publishedAt, a.id, worst!.at, worst!.a.id) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst(best[mid]!.at, best[mid]!.a.id, t.publishedAt, a.id) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, { a, at: t.publishedAt });
    if (best.length > limit) best.pop();
  }
  return best.map((x) => x.a);
}

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
const articleLanguages = memoByIdentity((articles: readonly AnyPublicArticle[]): readonly string[] => {
  const found = new Set<string>();
  for (const a of articles) for (const t of a.translations) found.add(t.language);
  return [...found];
});

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
  // Its own code-point cut (as `firstCodePoints` in domain/body/prose.ts): the site in src/ imports this module,
  // and must not pull the body pipeline into its build.
  if (text.length <= TEXT_START_CHARS) return text;
  return Array.from(text.slice(0, TEXT_START_CHARS * 2)).slice(0, TEXT_START_CHARS).join('');
}

/**
 * A one-paragraph description: the excerpt, else the start of the body's
 * prose (its paragraphs only) cut by `truncateText`. Whitespace is
 * collapsed so the value fits one line (llms.txt items, feed summaries).
 * Only the first `SUMMARY_MAX_CHARS` code points of the prose matter, so
 * `textStart` serves.
 */
export function summaryOf(translation: Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>): string {
  // Feeds, JSON feeds and llms.txt each ask for the same translations' summaries at every build.
  return summaries(translation);
}

const summaries = memoByIdentity((translation: Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>) => summarize(translation));

function summarize(translation: Pick<PublicTranslationSummary, 'excerpt' | 'textStart'>): string {
  // The publisher's excerpt is theirs, whole; only the body's prose is cut (`truncateText`).
  if (translation.excerpt !== null) return translation.excerpt.replace(/\s+/g, ' ').trim();
  return truncateText(translation.textStart, SUMMARY_MAX_CHARS);
}

/**
 * The articles of `channel` among `articles`: the array itself when every
 * article is of the channel (a builder's group), so per-array memos hold.
 */
export function ofChannel<A extends AnyPublicArticle>(channelId: number, articles: readonly A[]): readonly A[] {
  return articles.length === 0 || onlyChannelOf(articles) === channelId ? articles : articles.filter((a) => a.channel.id === channelId);
}

// The one channel an array's articles all belong to (null: none or several); a builder passes an unchanged group again.
const onlyChannelOf = memoByIdentity((articles: readonly AnyPublicArticle[]): number | null => {
  const first = articles[0]?.channel.id;
  return first !== undefined && articles.every((a) => a.channel.id === first) ? first : null;
});

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
  return partsOf(articles) as ReadonlyArray<readonly A[]>;
}

const partsOf = memoByIdentity((articles: readonly AnyPublicArticle[]): ReadonlyArray<readonly AnyPublicArticle[]> => {
  const byId = [...articles].sort((a, b) => a.id - b.id);
  const cut: AnyPublicArticle[][] = [];
  for (let i = 0; i < byId.length; i += ARTICLES_PER_PART) cut.push(byId.slice(i, i + ARTICLES_PER_PART));
  return cut;
});
