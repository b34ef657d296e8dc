/**
 * A builder-like public state for the tests of what follows it (the request
 * thread's mirror, `read-model/state-delta.test.ts`; the database's state
 * feed, `public-api/state-follower.test.ts`): minimal channels and
 * articles, the index changed in place, anchors replaced when they change.
 */
import { createArticleIndex } from '../../server/read-model/article-index.ts';
import type { ListPosition } from '../../server/read-model/list-pages.ts';
import type { PublicState } from '../../server/read-model/public-state.ts';
import type { PublicArticleSummary, PublicChannel } from '../../server/read-model/view-models.ts';

/** A channel with only what the state code reads. */
export const channel = (id: number, title = `c${id}`): PublicChannel => ({ id, slug: `c${id}`, title }) as unknown as PublicChannel;

/** An article of `ch` with one English translation titled `title`. */
export const article = (id: number, ch: PublicChannel, title = `a${id}`): PublicArticleSummary =>
  ({ id, slug: `a${id}`, channel: ch, publishedAt: `2026-01-${String(id).padStart(2, '0')}T00:00:00.000Z`, title, translations: [{ language: 'en', title }] }) as unknown as PublicArticleSummary;

/** A builder-like state: `index.set` changes it in place, `channels`, `anchors` and `through` are set by the test. */
export function builderLikeState(channels: PublicChannel[], articles: PublicArticleSummary[]) {
  const index = createArticleIndex(articles);
  const anchors = new Map<string, readonly ListPosition[]>();
  const self = {
    channels: channels as readonly PublicChannel[],
    index,
    anchors,
    through: 0,
    state: (): PublicState => ({ channels: self.channels, articles: index.articles, byChannel: index.groups(), anchors, through: self.through }),
  };
  return self;
}
