/**
 * An administrator's homepage exclusion of a channel or one article: no
 * publisher setting overrides it. Tells the builder, since the homepage changes.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Executor } from '../../store/database.ts';
import { findArticleBySlug, updateArticle } from '../../store/article.repository.ts';
import { findChannelBySlug, updateChannel } from '../../store/channel.repository.ts';
import { announcePublicChange } from '../public-change.ts';
import { PressroomError } from '../errors.ts';

/**
 * Excludes (or re-includes) a channel, or one article of it, from the homepage.
 * @throws PressroomError CHANNEL_NOT_FOUND / ARTICLE_NOT_FOUND.
 */
export async function setHomepageExclusion(
  trx: Executor,
  clock: Clock,
  target: { channel: string; article?: string },
  excluded: boolean,
): Promise<{ changed: boolean }> {
  const now = isoNow(clock);
  const channel = await findChannelBySlug(trx, target.channel);
  if (!channel) throw new PressroomError('CHANNEL_NOT_FOUND', `No channel "${target.channel}" exists. See "npm run admin -- channel list".`);
  const flag = excluded ? 1 : 0;
  if (target.article === undefined) {
    if (channel.homepage_excluded === flag) return { changed: false };
    await updateChannel(trx, channel.id, { homepage_excluded: flag, updated_at: now });
    await announcePublicChange(trx, { kind: 'channel', channelId: channel.id }, now);
    return { changed: true };
  }
  const article = await findArticleBySlug(trx, channel.id, target.article);
  if (!article) throw new PressroomError('ARTICLE_NOT_FOUND', `No article "${target.article}" exists in the channel "${target.channel}".`);
  if (article.homepage_excluded === flag) return { changed: false };
  await updateArticle(trx, article.id, { homepage_excluded: flag, updated_at: now });
  await announcePublicChange(trx, { kind: 'article_homepage', channelId: channel.id, articleId: article.id }, now);
  return { changed: true };
}
