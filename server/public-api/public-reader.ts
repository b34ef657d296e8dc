/**
 * The read API's answers that the static files cannot hold: other page
 * sizes, later pages, languages of the channel list, `include=html`. Pure
 * functions of the public state the output was built from, rendered by the
 * same renderers as the static files, so the default form of each answer is
 * byte for byte the file.
 *
 * Pagination is keyset-based (`read-model/list-pages.ts`): a cursor names the
 * position of the last item shown, one of its list's anchors, so items
 * published or removed between two pages never cause a duplicate or a skip.
 * It is resolved here exactly as a static host resolves it, by looking it up
 * among the list's anchors: a cursor that names none is a 422 here and an
 * error on every host, never the first page.
 * @module
 */
import { INVALID_LIST_CURSOR, type CursorCodec } from '../domain/cursor.ts';
import { PressroomError, validationError } from '../domain/errors.ts';
import { renderArticleList } from '../render/article-list-json.ts';
import { renderArticleJson } from '../render/article-json.ts';
import { listChannelsFor, renderChannelList } from '../render/channel-json.ts';
import { ARTICLE_LIST_ORDER, CHANNEL_LIST_ORDER, pageAfter, type ListOrder, type ListPosition, articleListScope, channelListScope, channelPosition, type PageInfo } from '../read-model/list-pages.ts';
import { channelLanguages, channelTranslationIn, translationIn, cursorPosition, listArticlesFor } from '../read-model/selection.ts';
import type { PublicArticle, PublicArticleSummary, PublicChannel } from '../read-model/view-models.ts';
import { LIMIT } from './public-query.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { memoByIdentity } from '../read-model/identity-memo.ts';

/** A rendered answer and, where known, when what it shows last changed. */
export interface ReadAnswer {
  readonly body: string;
  readonly lastModified: string | null;
}

/** Paging parameters of a list request. */
export interface ListQuery {
  readonly lang?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/**
 * The address of one page: `base` with `lang`, a non-default `limit` and
 * `cursor`, in that order (the order the static files' links use).
 */
export function pageUrl(base: string, query: { lang?: string; limit?: number; cursor?: string | null; extra?: Record<string, string> }): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query.extra ?? {})) params.set(name, value);
  if (query.lang) params.set('lang', query.lang);
  if (query.limit !== undefined && query.limit !== LIMIT.default) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const text = params.toString().replace(/\+/g, '%20');
  return text ? `${base}?${text}` : base;
}

// The channels by slug, made once per array (the builder replaces it when a channel changes).
const channelsBySlug = memoByIdentity((channels: readonly PublicChannel[]) => new Map(channels.map((c) => [c.slug, c])));

/** The public channel with this slug, or a 404 naming it. */
export function requireChannel(state: PublicState, slug: string): PublicChannel {
  const channel = channelsBySlug(state.channels).get(slug);
  if (!channel) {
    throw new PressroomError('CHANNEL_NOT_FOUND', `No published channel has the slug "${slug}". List the published channels with GET /api/public/v1/channels.`);
  }
  return channel;
}

const NO_ARTICLES: readonly PublicArticleSummary[] = Object.freeze([]);

/** The public articles of a channel, newest first (the builder's array: never a pass over the site). */
export function articlesOfChannel(state: PublicState, channelId: number): readonly PublicArticleSummary[] {
  return state.byChannel.get(channelId) ?? NO_ARTICLES;
}

// A channel's articles by slug, made once per array (the builder replaces it when one of them changes).
const bySlug = memoByIdentity((articles: readonly PublicArticleSummary[]) => new Map(articles.map((a) => [a.slug, a])));

/** The public article of a channel with this slug, or null. */
export function findArticle(state: PublicState, channelSlug: string, articleSlug: string): PublicArticleSummary | null {
  const channel = channelsBySlug(state.channels).get(channelSlug);
  return (channel && bySlug(articlesOfChannel(state, channel.id)).get(articleSlug)) ?? null;
}

/** The public article of a channel with this slug, or a 404 naming what is missing. */
export function requireArticle(state: PublicState, channelSlug: string, articleSlug: string): PublicArticleSummary {
  requireChannel(state, channelSlug);
  const article = findArticle(state, channelSlug, articleSlug);
  if (article) return article;
  throw new PressroomError(
    'ARTICLE_NOT_FOUND',
    `The channel "${channelSlug}" has no published article "${articleSlug}". It does not exist or is not published. List its articles with GET /api/public/v1/channels/${channelSlug}/articles.`,
  );
}

/** 404 for a language the article or channel is not published in (rule 1: no substitution). */
export function translationMissing(what: string, language: string, available: readonly string[], also?: string): PressroomError {
  const shown = language === '' ? 'an empty language' : `"${language}"`;
  return new PressroomError(
    'TRANSLATION_NOT_FOUND',
    `${what} has no published translation in ${shown}${also ? `, ${also}` : ''}, and no other language is substituted. Ask for one of: ${available.join(', ')}.`,
  );
}

function latest(values: readonly string[]): string | null {
  return values.length === 0 ? null : values.reduce((a, b) => (a > b ? a : b));
}

// Each list's cursors by token, made once per recorded anchors array (the identity rule: the builder replaces
// the array when anchors are added; `read-model/identity-memo.ts`).
const tokensByAnchors = memoByIdentity((_anchors: readonly ListPosition[]) => new Map<string, ListPosition>());

/** The position `cursor` names in the list `scope`, or a 422. */
function cursorTarget(state: PublicState, scope: string, cursor: string, items: () => readonly ListPosition[], cursors: CursorCodec): ListPosition {
  const recorded = state.anchors.get(scope);
  const anchors = recorded ?? items();
  const tokens = recorded ? tokensByAnchors(recorded) : new Map<string, ListPosition>();
  if (tokens.size === 0) for (const a of anchors) tokens.set(cursors.token(scope, a), a);
  const position = tokens.get(cursor);
  if (!position) throw validationError({ cursor: INVALID_LIST_CURSOR });
  return position;
}

/** One page of a list: the first `limit` items, or those after the cursor's position, and the cursor of the next page. */
function listPage<T>(
  state: PublicState,
  scope: string,
  order: ListOrder,
  listed: readonly T[],
  positionOf: (item: T) => ListPosition,
  query: ListQuery,
  limit: number,
  cursors: CursorCodec,
): { shown: readonly T[]; nextCursor: string | null } {
  const page = query.cursor
    ? pageAfter(listed, positionOf, cursorTarget(state, scope, query.cursor, () => listed.map(positionOf), cursors), limit, order)
    : { shown: listed.slice(0, limit), last: listed[Math.min(limit, listed.length) - 1] ?? null, more: listed.length > limit };
  return { shown: page.shown, nextCursor: page.more ? cursors.token(scope, positionOf(page.last!)) : null };
}

const NO_ANCHORS: readonly ListPosition[] = Object.freeze([]);

/**
 * What a page of the channel list is drawn from (`answer-cache.ts`): the
 * channels and the list's anchors, each an array the builder replaces when
 * it changes.
 */
export function channelListSources(state: PublicState, query: ListQuery): readonly object[] {
  return [state.channels, state.anchors.get(channelListScope(query.lang ?? null)) ?? NO_ANCHORS];
}

/** What a page of a channel's article list is drawn from: the channel, its articles and its list's anchors; null without the channel. */
export function articleListSources(state: PublicState, channelSlug: string, query: ListQuery): readonly object[] | null {
  const channel = channelsBySlug(state.channels).get(channelSlug);
  if (!channel) return null;
  return [channel, articlesOfChannel(state, channel.id), state.anchors.get(articleListScope(channel.id, query.lang ?? null)) ?? NO_ANCHORS];
}

/** One page of the ChannelCollection (`listPublicChannels`), in `lang` when given. */
export function channelListPage(state: PublicState, query: ListQuery, deps: { cursors: CursorCodec; channelsUrl: string }): ReadAnswer {
  const limit = query.limit ?? LIMIT.default;
  const scope = channelListScope(query.lang ?? null);
  const listed = listChannelsFor(state.channels).filter((c) => !query.lang || channelTranslationIn(c, query.lang));
  const { shown, nextCursor } = listPage(state, scope, CHANNEL_LIST_ORDER, listed, channelPosition, query, limit, deps.cursors);
  const page: PageInfo = {
    limit,
    nextCursor,
    selfUrl: pageUrl(deps.channelsUrl, { lang: query.lang, limit, cursor: query.cursor }),
    nextUrl: nextCursor ? pageUrl(deps.channelsUrl, { lang: query.lang, limit, cursor: nextCursor }) : null,
  };
  return { body: renderChannelList(shown, page, query.lang ?? null), lastModified: latest(shown.map((c) => c.updatedAt)) };
}

/** One page of a channel's ArticleCollection (`listPublicArticles`). */
export function articleListPage(state: PublicState, channelSlug: string, query: ListQuery, deps: { cursors: CursorCodec }): ReadAnswer {
  const channel = requireChannel(state, channelSlug);
  const own = articlesOfChannel(state, channel.id);
  // A list exists in every language of the channel (its own and its articles'), as its static files do.
  if (query.lang !== undefined) {
    const languages = channelLanguages(channel, own);
    if (!languages.includes(query.lang)) throw translationMissing(`The channel "${channel.slug}"`, query.lang, languages, 'nor has any of its articles');
  }
  const limit = query.limit ?? LIMIT.default;
  const language = query.lang ?? null;
  const scope = articleListScope(channel.id, language);
  const listed = listArticlesFor(own, language);
  const { shown, nextCursor } = listPage(state, scope, ARTICLE_LIST_ORDER, listed, cursorPosition, query, limit, deps.cursors);
  const base = channel.articlesJsonUrl;
  const page: PageInfo = {
    limit,
    nextCursor,
    selfUrl: pageUrl(base, { lang: query.lang, limit, cursor: query.cursor }),
    nextUrl: nextCursor ? pageUrl(base, { lang: query.lang, limit, cursor: nextCursor }) : null,
  };
  const shownTranslations = shown.map((a) => (language ? translationIn(a, language)! : a.translations[0]!));
  return { body: renderArticleList(channel, shown, language, page), lastModified: latest(shownTranslations.map((t) => t.updatedAt)) };
}

/**
 * The Article JSON of a fully loaded article (bodies included) in `lang` (its
 * default language when absent), with `content_html` when asked.
 */
export function articleDocument(article: PublicArticle, lang: string | undefined, includeHtml: boolean): ReadAnswer {
  const language = lang ?? article.defaultLanguage;
  const translation = translationIn(article, language);
  if (!translation) throw translationMissing(`The article "${article.slug}"`, language, article.translations.map((t) => t.language));
  return { body: renderArticleJson(article, language, { includeHtml }), lastModified: translation.updatedAt };
}
