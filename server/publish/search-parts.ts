/**
 * How a channel's search index in one language is cut into parts, so a
 * publish re-indexes a piece whose size does not grow with the channel
 * (`docs/SEARCH.md`, "Parts").
 *
 * An article starts a new part when a hash of its id alone says so (about
 * one in `size`). The cuts therefore stay where they are while articles come
 * and go: publishing or unpublishing an article changes only the part it
 * falls in, and only when the article is itself a cut do two parts merge or
 * one split. A part holds `size` articles on average (the sizes follow a
 * geometric distribution: 5 % of parts exceed three times the average).
 * Every language uses the same cuts, so a part means about the same
 * articles in each. Pure: the search keeper (`site-search.ts`) decides with
 * it which shards a change touches.
 * @module
 */

/** Articles per part of a channel's index in one language, on average. */
export const SEARCH_PART_SIZE = 1000;

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

/** Whether the article `id` starts a part (about one id in `size`; every id when `size` is 1). */
export function startsPart(id: number, size = SEARCH_PART_SIZE): boolean {
  return size <= 1 || mix(id) % size === 0;
}

/**
 * The part `id` falls in among `ids` (a channel's public articles in one
 * language): the largest part-starting id of `ids` at or below it, or 0 for
 * the first part. `id` need not be among `ids` (an article just withdrawn
 * falls in the part that held it).
 */
export function partOf(ids: readonly number[], id: number, size = SEARCH_PART_SIZE): number {
  let part = 0;
  for (const other of ids) if (other <= id && other > part && startsPart(other, size)) part = other;
  return part;
}

/** The parts of `ids`: part key (`partOf`) → its ids, ascending. */
export function partsOf(ids: readonly number[], size = SEARCH_PART_SIZE): Map<number, number[]> {
  const parts = new Map<number, number[]>();
  let part = 0;
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (startsPart(id, size)) part = id;
    const members = parts.get(part);
    if (members) members.push(id);
    else parts.set(part, [id]);
  }
  return parts;
}
