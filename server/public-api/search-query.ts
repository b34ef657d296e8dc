/**
 * Turns a reader's search into the words the index matches (the store
 * writes them in its own query language: FTS5 on SQLite, `tsquery` on
 * Postgres), and defines the order of search results. Pure.
 *
 * Matching (documented in docs/SEARCH.md): every word must occur in the
 * title, excerpt or body of the translation; the last word also matches as a
 * prefix (as the site's Pagefind search does while one types); English words
 * are stemmed; case and diacritics are ignored; punctuation separates words.
 *
 * Ranking: translations whose title contains every word first, then the
 * rest; within each group, newest article first (then higher id, then
 * language code). The order is applied in SQLite (`matchDocuments` in
 * `server/store/search-document.repository.ts`); `searchPosition` gives a
 * result's place in it, which the cursor carries. The order depends only on the documents themselves, not on
 * corpus statistics, so it is a stable keyset: a search cursor walks the
 * results without duplicates or skips while other articles are published or
 * removed.
 * @module
 */
import { createHash } from 'node:crypto';
import type { SearchMatch } from '../store/search-document.repository.ts';

/** Most words of a query that are used; longer queries are cut (q is at most 160 characters anyway). */
export const MAX_QUERY_WORDS = 24;

/**
 * The words of `q` a search matches, every one required and the last also
 * as a prefix; null when `q` holds no word at all (only punctuation), which
 * matches nothing. Letters, digits and marks make words; anything else
 * separates them, so nothing a reader types is read as query syntax.
 * @example searchWords('static sites!') // ['static', 'sites']
 */
export function searchWords(q: string): string[] | null {
  const words = q.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu);
  return words ? words.slice(0, MAX_QUERY_WORDS) : null;
}

/** A result's keyset position: title tier, article date, id, language. */
export interface SearchPosition {
  readonly t: number;
  readonly p: string;
  readonly id: number;
  readonly l: string;
}

/** The position of a match in the result order. */
export function searchPosition(m: SearchMatch): SearchPosition {
  return { t: m.inTitle ? 0 : 1, p: m.publishedAt, id: m.articleId, l: m.language };
}

/**
 * Cursor scope of one search: the normalised query and its filters, hashed,
 * so a cursor only continues the search it came from.
 */
export function searchScope(q: string, language: string | null, channel: string | null): string {
  const key = JSON.stringify([q.normalize('NFKC').toLowerCase(), language, channel]);
  return `search:${createHash('sha256').update(key).digest('base64url').slice(0, 16)}`;
}
