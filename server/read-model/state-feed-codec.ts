/**
 * A state delta (`state-delta.ts`) as text, for the database's state feed
 * (`store/state-feed.repository.ts`): web instances that do not build
 * apply the builder's deltas as the request thread does. JSON, with one
 * difference from a thread's structured copy kept: an article whose
 * `channel` is one of the delta's channels is written as that channel's
 * place in the list, so the mirror links it to the same object.
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
  return JSON.stringify({ ...delta, articles });
}

/** The delta `encodeDelta` wrote. */
export function decodeDelta(text: string): StateDelta {
  const delta = JSON.parse(text) as StateDelta;
  const channels = delta.channels;
  const articles = delta.articles.map((article) => {
    const ref = article.channel as unknown as Partial<ChannelRef>;
    if (typeof ref.$channel !== 'number') return article;
    const channel = channels?.[ref.$channel];
    if (!channel) throw new Error(`A state feed delta names channel ${ref.$channel} of ${channels?.length ?? 0}.`);
    return { ...article, channel } satisfies PublicArticleSummary;
  });
  return { ...delta, articles };
}
