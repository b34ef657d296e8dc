/**
 * A state delta (`state-delta.ts`) as text, for the database's state feed
 * (`store/state-feed.repository.ts`): web instances that do not build
 * apply the builder's deltas as the request thread does. JSON, with two
 * differences from a thread's structured copy:
 * - an article whose `channel` is one of the delta's channels is written as
 *   that channel's place in the list, so the mirror links it to its own
 *   object for that channel;
 * - the channels are written only when they changed (or the delta is
 *   whole): otherwise the places name the list the reader already holds,
 *   which is the same list (a thread's delta carries it to link the
 *   articles, and that would be every channel at every publish).
 * @module
 */
import type { StateDelta } from './state-delta.ts';
import type { PublicArticleSummary, PublicChannel } from './view-models.ts';

/** How an article's channel is written when it is one of the delta's. */
interface ChannelRef {
  readonly $channel: number;
}

/** The delta as text. */
export function encodeDelta(delta: StateDelta): string {
  const places = new Map<PublicChannel, number>();
  delta.channels?.forEach((channel, i) => places.set(channel, i));
  const articles = delta.articles.map((article) => {
    const place = places.get(article.channel);
    return place === undefined ? article : { ...article, channel: { $channel: place } satisfies ChannelRef };
  });
  const { channels, ...rest } = delta;
  return JSON.stringify({ ...rest, ...(delta.whole || delta.channelsChanged ? { channels } : {}), articles });
}

/**
 * The delta `encodeDelta` wrote. `held`: the channels the reader holds (its mirror's), which an article's
 * place names when the delta carries no channels. @throws Error when a place names no channel.
 */
export function decodeDelta(text: string, held: readonly PublicChannel[] | null): StateDelta {
  const delta = JSON.parse(text) as StateDelta;
  const channels = delta.channels ?? held;
  const articles = delta.articles.map((article) => {
    const ref = article.channel as unknown as Partial<ChannelRef>;
    if (typeof ref.$channel !== 'number') return article;
    const channel = channels?.[ref.$channel];
    if (!channel) throw new Error(`A state feed delta names channel ${ref.$channel} of ${channels?.length ?? 0}.`);
    return { ...article, channel } satisfies PublicArticleSummary;
  });
  return { ...delta, articles };
}
