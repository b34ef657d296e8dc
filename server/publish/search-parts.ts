/**
 * How a channel's search index in one language is cut into parts, so a
 * publish re-indexes a piece whose size does not grow with the channel
 * (`docs/SEARCH.md`, "Parts").
 *
 * An article starts a new part when a hash of its id alone says so (one in
 * `size`), or when the part before it already holds the most a part may
 * (`partMax`). The hashed cuts stay where they are while articles come
 * and go: publishing or unpublishing an article changes the part it falls
 * in, and only when the article is itself a cut, or parts ended by their
 * size follow it up to the next hashed cut, do others change (they then
 * start at another article, so under another name: `site-search.ts`
 * indexes every part whose name has no shard yet). Every language uses the
 * same rule, so a part means about the same articles in each.
 *
 * The newest articles of a channel's last part (the part a new article
 * joins) form a fresh part of their own, fewer than `freshSize` of them, so
 * a steady stream of publishes re-indexes that small part instead of the
 * whole last part each time; the fresh part joins the last one whenever
 * they fill a round number (`freshSize` articles). Pure: the
 * search keeper (`site-search.ts`) decides with it which shards a change
 * touches.
 * @module
 */

/**
 * One article id in this many starts a part by its hash (`startsPart`). The
 * parts between two hashed cuts end at `partMax` articles, so a part holds
 * ~560 articles on average and 750 at most.
 */
export const SEARCH_PART_SIZE = 1250;

/**
 * The most articles a part holds, for hashed cuts one id in `size`: 60 % of
 * it (750). Hashed cuts alone give parts of geometric sizes, and an article
 * is likelier to sit in a large one: with a cut one id in 1,000, the part a
 * publish re-indexed held ~2,000 articles on average and up to ~7,000, and
 * Pagefind's time grows with a part's records, so search freshness
 * depended on the draw. Now an article's part holds ~680 on average and 750
 * at most (~1,800 parts per million articles, against ~1,000), and a
 * withdrawal moves the parts after it up to the next hashed cut (~1,250 ids
 * away).
 */
export function partMax(size: number): number {
  return Math.max(1, Math.ceil(size * 0.6));
}

/**
 * How many articles at most the fresh part holds, less one (`partsOf`): the
 * square root of `partMax` (27 for the default size), which makes what a new
 * article costs least. A publish re-indexes the fresh part (under 27
 * articles), and one publish in 27 the last part it joins (up to 750); on
 * average ~27 records a publish at the default size, against half a full
 * part (~375) when every publish re-indexed the last part. 1 (part sizes
 * under 4): no fresh part.
 */
export function freshSize(size: number): number {
  return Math.max(1, Math.floor(Math.sqrt(partMax(size))));
}

/** A 32-bit mix of an id (murmur3's finaliser): cuts spread evenly whatever the ids. */
function mix(id: number): number {
  let h = id >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether the article `id` starts a part by its hash (about one id in `size`; every id when `size` is 1). */
export function startsPart(id: number, size = SEARCH_PART_SIZE): boolean {
  return size <= 1 || mix(id) % size === 0;
}

/**
 * The part `id` falls in, given a channel's parts in one language
 * (`partsOf`): the one with the largest key at or below it, or 0. `id` need
 * not be a member (an article just withdrawn falls in the part that held it).
 */
export function partOf(parts: ReadonlyMap<number, readonly number[]>, id: number): number {
  let part = 0;
  for (const key of parts.keys()) {
    if (key > id) break;
    part = key;
  }
  return part;
}

/**
 * The parts of `ids` (a channel's public articles in one language): part key
 * → its ids, ascending, keys ascending. A part's key is the id that starts
 * it, or 0 for the first part when no cut starts it. The last `n %
 * fresh` ids of the last part (when it holds more than `fresh`) are a part
 * of their own, keyed by the first of them.
 */
export function partsOf(ids: readonly number[], size = SEARCH_PART_SIZE, fresh = freshSize(size)): Map<number, number[]> {
  const max = partMax(size);
  const parts = new Map<number, number[]>();
  let part = 0;
  let members: number[] | undefined;
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (startsPart(id, size) || (members !== undefined && members.length >= max)) {
      part = id;
      members = undefined;
    }
    if (!members) {
      members = [];
      parts.set(part, members);
    }
    members.push(id);
  }
  const newest = members ? members.length % fresh : 0;
  if (members && newest > 0 && members.length > fresh) {
    const split = members.length - newest;
    parts.set(members[split]!, members.slice(split));
    parts.set(part, members.slice(0, split));
  }
  return parts;
}

/**
 * Which of a channel's parts in one language (`partsOf`) a change indexes
 * again: the part each changed article falls in, every part with no bundle
 * yet (`held` lists those with one), and every part whose bundle holds
 * another number of records than it has articles now (`pagesOf`: null when
 * unknown). A new part takes its articles from the part before it: a fresh
 * part split off a last part whose bundle already held them leaves that
 * bundle as it is, while one split off a last part indexed whole (an index
 * made before fresh parts), or a rebuild cut short between the two (a crash:
 * the keeper's work file brings it back), has that bundle indexed again, so
 * no article stays in two bundles. Keys ascending.
 */
export function partsToIndex(parts: ReadonlyMap<number, readonly number[]>, held: ReadonlySet<number>, changed: Iterable<number>, pagesOf: (part: number) => number | null): number[] {
  const chosen = new Set<number>();
  for (const id of changed) {
    const part = partOf(parts, id);
    if (parts.has(part)) chosen.add(part);
  }
  for (const [part, members] of parts) {
    if (!held.has(part) || (!chosen.has(part) && pagesOf(part) !== members.length)) chosen.add(part);
  }
  return [...parts.keys()].filter((key) => chosen.has(key));
}
