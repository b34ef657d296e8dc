/**
 * The search endpoint's answer (`searchPublicArticles`): matches from the
 * FTS5 index (`search-keeper.ts`), ordered and paged by `search-query.ts`,
 * shown as ArticleSummary items of the public state, so a translation that is
 * not public (any more) is never shown even for a moment.
 *
 * The matches are looked up through `SearchDeps.articles`: the public state
 * once the server holds it, and until then (the first seconds after a start,
 * while the build thread loads it) the store's public heads of the matched
 * articles alone, so search answers as soon as its index is in step.
 * @module
 */
import type { CursorCodec } from '../domain/cursor.ts';
import { PressroomError } from '../domain/errors.ts';
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import { articleSummary } from '../render/article-list-json.ts';
import { translationIn } from '../read-model/selection.ts';
import type { Db } from '../store/database.ts';
import { matchDocuments } from '../store/search-document.repository.ts';
import type { PublicQuery } from './public-query.ts';
import { LIMIT } from './public-query.ts';
import { pageUrl, type ReadAnswer } from './public-reader.ts';
import { searchPosition, searchScope, searchWords, type SearchPosition } from './search-query.ts';
import type { AnyPublicArticle } from '../read-model/view-models.ts';

/** The public articles among `ids`, by id (an id that is not public is absent). */
export type PublicArticleLookup = (ids: readonly number[]) => Promise<ReadonlyMap<number, AnyPublicArticle>>;

/** What a search needs. */
export interface SearchDeps {
  readonly db: Db;
  readonly cursors: CursorCodec;
  /** Address of the search endpoint, for `_links`. */
  readonly searchUrl: string;
  /** Whether the index may be queried. */
  readonly ready: () => boolean;
  /** The public articles the matches may show. */
  readonly articles: PublicArticleLookup;
}

/**
 * Runs one search and renders the SearchResults document.
 * @throws PressroomError SEARCH_UNAVAILABLE before the index's first build; VALIDATION_FAILED for a bad cursor.
 */
export async function searchArticles(query: PublicQuery<'searchPublicArticles'>, deps: SearchDeps): Promise<ReadAnswer> {
  if (!deps.ready()) {
    throw new PressroomError('SEARCH_UNAVAILABLE');
  }
  const limit = query.limit ?? LIMIT.default;
  const language = query.language ?? null;
  const channel = query.channel ?? null;
  const scope = searchScope(query.q, language, channel);
  const after = query.cursor ? (deps.cursors.decode(scope, query.cursor) as unknown as SearchPosition) : null;
  const words = searchWords(query.q);
  // A few rows beyond the page: a match whose translation left the public state since the last sync is skipped.
  const SLACK = 10;
  const matches = words
    ? await matchDocuments(deps.db, { words, language, channelSlug: channel, after, limit: limit + 1 + SLACK })
    : [];
  const publicArticles = matches.length > 0 ? await deps.articles([...new Set(matches.map((m) => m.articleId))]) : new Map<number, AnyPublicArticle>();
  const shown: Array<{ summary: Record<string, unknown>; position: SearchPosition }> = [];
  let more = false;
  for (const m of matches) {
    const article = publicArticles.get(m.articleId);
    const translation = article ? translationIn(article, m.language) : undefined;
    // The index can trail the public state by one sync: only what is public now is shown.
    if (!article || !translation) continue;
    if (shown.length === limit) {
      more = true;
      break;
    }
    shown.push({ summary: articleSummary(article, translation), position: searchPosition(m) });
  }
  const nextCursor = more ? deps.cursors.encode(scope, { ...shown[shown.length - 1]!.position }) : null;
  const extra: Record<string, string> = { q: query.q };
  if (language) extra['language'] = language;
  if (channel) extra['channel'] = channel;
  const body = {
    schema_version: SCHEMA_VERSION,
    query: query.q,
    returned_count: shown.length,
    results: shown.map((s) => s.summary),
    pagination: { limit, next_cursor: nextCursor, has_more: nextCursor !== null },
    _links: {
      self: pageUrl(deps.searchUrl, { limit, cursor: query.cursor, extra }),
      next: nextCursor ? pageUrl(deps.searchUrl, { limit, cursor: nextCursor, extra }) : null,
    },
  };
  return { body: `${JSON.stringify(body, null, 2)}\n`, lastModified: null };
}
