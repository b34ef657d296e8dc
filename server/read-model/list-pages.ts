/**
 * Pages of the public lists that static hosts can serve (issue 14).
 *
 * A list's `next` cursor names the position of the last item shown (its
 * anchor); the page it leads to holds the items strictly after that
 * position, in list order. Such a page is a file for every anchor the list
 * has ever had (`list_anchors`), including items unpublished since, so a
 * cursor a client holds keeps working while articles are published and
 * withdrawn, on every host: the walk visits each item that stays public
 * exactly once, in order. A publish changes only the pages whose next
 * `limit` items include it (`anchorsShowing`), a bounded number.
 *
 * The cursor is an opaque token (`CursorCodec.token`): a keyed hash of the
 * list and the position, so it reveals nothing of the item and cannot be
 * made up; the read API finds the position by looking the token up among
 * the list's anchors, exactly as a host finds the file.
 * @module
 */
import { newestFirst } from './selection.ts';
import type { PublicChannel } from './view-models.ts';

/** Default page size of public lists (public API rule 2). */
export const DEFAULT_LIST_LIMIT = 20;

/** Pagination of one page of a list, worked out by its caller with the cursor codec. */
export interface PageInfo {
  readonly limit: number;
  /** Opaque cursor of the next page, or null on the last page. */
  readonly nextCursor: string | null;
  /** Address of this page. */
  readonly selfUrl: string;
  /** Address of the next page, or null on the last page. */
  readonly nextUrl: string | null;
}

/** Cursor scope of a public article list; the builder signs and the read API resolves with the same scope. */
export function articleListScope(channelId: number, language: string | null): string {
  return `public-articles:${channelId}:${language ?? ''}`;
}

/** Cursor scope of the public channel list, in one language or in all (null). */
export function channelListScope(language: string | null): string {
  return language ? `public-channels:${language}` : 'public-channels';
}

/** The address of a list page: `base` with `lang` and `cursor`, in the order the read API writes them. */
export function listUrl(base: string, language: string | null, cursor: string | null): string {
  const params = [language ? `lang=${encodeURIComponent(language)}` : '', cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean);
  return params.length ? `${base}?${params.join('&')}` : base;
}

/** A position in a list: the item's sort date ('' where the list orders by id only) and its id. */
export interface ListPosition {
  readonly p: string;
  readonly id: number;
}

/** How a list is ordered: negative when `a` is shown before `b`. */
export type ListOrder = (a: ListPosition, b: ListPosition) => number;

/** Article lists: newest first by first publication, then by id, descending (`listArticlesFor`). */
export const ARTICLE_LIST_ORDER: ListOrder = (a, b) => newestFirst(a.p, a.id, b.p, b.id);
/** The channel list: by id, oldest first (`listChannelsFor`). */
export const CHANNEL_LIST_ORDER: ListOrder = (a, b) => a.id - b.id;

/** The order of the list a cursor scope (`articleListScope`, `channelListScope`) names. */
export function listOrderOf(scope: string): ListOrder {
  return scope.startsWith('public-channels') ? CHANNEL_LIST_ORDER : ARTICLE_LIST_ORDER;
}

/** A channel's position in the channel list. */
export const channelPosition = (channel: PublicChannel): ListPosition => ({ p: '', id: channel.id });

/**
 * Index of the first of the sorted `items` that is not shown before
 * `position` (`position` itself or after it), searched in `[lo, hi)`: the
 * caller may narrow the range when it knows the answer lies there.
 */
export function firstNotBefore<T>(items: readonly T[], positionOf: (item: T) => ListPosition, position: ListPosition, order: ListOrder, lo = 0, hi = items.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(positionOf(items[mid]!), position) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first of the sorted `items` shown strictly after `position`. */
export function firstAfter<T>(items: readonly T[], positionOf: (item: T) => ListPosition, position: ListPosition, order: ListOrder): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(positionOf(items[mid]!), position) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const same = (p: ListPosition) => p;

/**
 * The anchors of a list: those `recorded` and the position of every item
 * listed now, sorted in list order without repeats. Returns `anchors`
 * itself when it already holds every item's position (callers keep arrays
 * unchanged so a list's anchors keep their identity), and the positions
 * that were new.
 */
export function withItemAnchors<T>(
  anchors: readonly ListPosition[],
  items: readonly T[],
  positionOf: (item: T) => ListPosition,
  order: ListOrder,
): { anchors: readonly ListPosition[]; added: ListPosition[] } {
  const added: ListPosition[] = [];
  // Items usually come in list order, so each search starts where the last one ended and gallops forward:
  // a list of n items over m anchors costs O(n log(m / n)) comparisons instead of O(n log m) (a publish at
  // 100,000 articles checks lists of 5,000 and 100,000 items). An item out of order searches from the start.
  let at = 0;
  let previous: ListPosition | null = null;
  for (const item of items) {
    const position = positionOf(item);
    at = previous !== null && order(previous, position) > 0 ? firstNotBefore(anchors, same, position, order) : gallop(anchors, position, order, at);
    previous = position;
    const found = anchors[at];
    if (!found || order(found, position) !== 0) added.push({ p: position.p, id: position.id });
  }
  if (added.length === 0) return { anchors, added };
  return { anchors: sortedPositions([...anchors, ...added], order), added };
}

/** `firstNotBefore` among the anchors from `from` on, when none before `from` can be the answer: steps of 1, 2, 4… then a binary search. */
function gallop(anchors: readonly ListPosition[], position: ListPosition, order: ListOrder, from: number): number {
  let bound = 1;
  while (from + bound <= anchors.length && order(anchors[from + bound - 1]!, position) < 0) bound *= 2;
  return firstNotBefore(anchors, same, position, order, from + (bound >>> 1), Math.min(from + bound, anchors.length));
}

/** Positions sorted in list order, repeats dropped. */
export function sortedPositions(positions: readonly ListPosition[], order: ListOrder): ListPosition[] {
  const sorted = [...positions].sort(order);
  return sorted.filter((p, i) => i === 0 || order(sorted[i - 1]!, p) !== 0);
}

/**
 * The range `[from, to)` of `anchors` whose page (the `limit` items after
 * the anchor) shows an item at `position`, given the list's `items`: the
 * anchors before `position` with fewer than `limit` items between them and
 * it. Also whether the list's first page shows it.
 */
export function anchorsShowing<T>(
  anchors: readonly ListPosition[],
  items: readonly T[],
  positionOf: (item: T) => ListPosition,
  position: ListPosition,
  limit: number,
  order: ListOrder,
): { from: number; to: number; firstPage: boolean } {
  const before = firstNotBefore(items, positionOf, position, order);
  const to = firstNotBefore(anchors, same, position, order);
  if (before < limit) return { from: 0, to, firstPage: true };
  const from = firstNotBefore(anchors, same, positionOf(items[before - limit]!), order);
  return { from, to, firstPage: false };
}

/** One page after an anchor: where it starts in `items` and whether more follow. */
export function pageAfter<T>(
  items: readonly T[],
  positionOf: (item: T) => ListPosition,
  anchor: ListPosition,
  limit: number,
  order: ListOrder,
): { shown: readonly T[]; last: T | null; more: boolean } {
  const start = firstAfter(items, positionOf, anchor, order);
  const shown = items.slice(start, start + limit);
  return { shown, last: shown[shown.length - 1] ?? null, more: items.length > start + limit };
}
