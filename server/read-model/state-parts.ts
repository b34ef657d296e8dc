/**
 * A public state as parts with hashes, for the database's state feed
 * (issue 38): beside its rows the feed keeps the hash of each part of the
 * state its newest row leaves readers with (the channel list, each article,
 * each list's anchors; `store/state-feed.repository.ts`). A server that
 * starts loads its state from the store, which may already hold changes
 * made while no server built (writes through web instances go on); with
 * the parts it sends web instances only what differs from what they hold,
 * instead of the whole state again (some 200 MB at 100,000 × 2, read and
 * decoded by every web instance).
 *
 * A part's hash covers what a reader holds of it: its JSON, as the feed
 * writes it with the channel an article points at written out. `through`
 * is not a part: every row carries it.
 * @module
 */
import { createHash } from 'node:crypto';
import type { StateDelta } from './state-delta.ts';

/** A part's key and hash; a null hash: the part is gone (an article no longer public). */
export type PartChange = readonly [key: string, hash: string | null];

const CHANNELS = 'channels';
const ARTICLE = 'article:';
const articleKey = (id: number) => `${ARTICLE}${id}`;
const anchorsKey = (scope: string) => `anchors:${scope}`;
const hashOf = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 32);

/** The parts `delta` sets or removes (every part of the state when it is whole). */
export function partChanges(delta: StateDelta): PartChange[] {
  const changes: PartChange[] = [];
  if ((delta.whole || delta.channelsChanged) && delta.channels) changes.push([CHANNELS, hashOf(JSON.stringify(delta.channels))]);
  for (const id of delta.removed) changes.push([articleKey(id), null]);
  for (const article of delta.articles) changes.push([articleKey(article.id), hashOf(JSON.stringify(article))]);
  for (const [scope, positions] of delta.anchors) changes.push([anchorsKey(scope), hashOf(JSON.stringify(positions))]);
  return changes;
}

/**
 * What a reader holding the parts `held` needs to hold the state `whole` (a whole delta, with its parts
 * `wholeParts` from `partChanges`): the articles and anchors whose hash differs or that it lacks, the articles
 * it holds that are gone, and the channels when theirs differ. Null when it holds that state already.
 */
export function deltaFromParts(held: ReadonlyMap<string, string>, whole: StateDelta, wholeParts: readonly PartChange[]): StateDelta | null {
  const hashes = new Map(wholeParts);
  const channelsChanged = held.get(CHANNELS) !== hashes.get(CHANNELS);
  const articles = whole.articles.filter((a) => held.get(articleKey(a.id)) !== hashes.get(articleKey(a.id)));
  const anchors = whole.anchors.filter(([scope]) => held.get(anchorsKey(scope)) !== hashes.get(anchorsKey(scope)));
  const removed: number[] = [];
  for (const key of held.keys()) {
    if (key.startsWith(ARTICLE) && !hashes.has(key)) removed.push(Number(key.slice(ARTICLE.length)));
  }
  if (!channelsChanged && articles.length === 0 && anchors.length === 0 && removed.length === 0) return null;
  return { whole: false, channelsChanged, ...(channelsChanged || articles.length > 0 ? { channels: whole.channels } : {}), articles, removed, anchors, through: whole.through };
}
