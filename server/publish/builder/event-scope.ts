/**
 * What a batch of publication events asks an incremental build to re-plan,
 * and what it changed in each channel: pure functions of the events and the
 * article index, so the narrowing is tested apart from any file.
 * @module
 */
import type { PublicArticleSummary } from '../../read-model/view-models.ts';
import type { PublicationEvent } from '../../store/publication-event.repository.ts';
import { staleScope } from './owner-kinds.ts';

/** The articles and channels a batch of events names. */
export interface EventScope {
  readonly articleIds: Set<number>;
  readonly channelIds: Set<number>;
  /** Channels whose own public fields changed (`channel_changed`): every page of their articles shows them. */
  readonly changedChannels: Set<number>;
}

/**
 * The articles and channels named by `events`, as the dependency map
 * (`owner-kinds.ts`) says each event makes owners stale. The site owner,
 * stale after every event, is applied by every incremental build.
 */
export function eventScope(events: readonly PublicationEvent[]): EventScope {
  const scope: EventScope = { articleIds: new Set(), channelIds: new Set(), changedChannels: new Set() };
  for (const e of events) {
    for (const kind of ['article', 'channel', 'pages'] as const) {
      const stale = staleScope(kind, e.kind);
      if (stale === 'its article' && e.articleId !== null) scope.articleIds.add(e.articleId);
      else if (stale === 'articles of its channel') scope.changedChannels.add(e.channelId);
      else if (stale === 'its channel') scope.channelIds.add(e.channelId);
    }
  }
  return scope;
}

/** An article an incremental build changed: its public version before and after (null: not public). */
export interface ArticleChange {
  readonly before: PublicArticleSummary | null;
  readonly after: PublicArticleSummary | null;
}

/** What an incremental build changed in one channel: its group of articles before, and the changed articles. */
export interface ChannelChanges {
  readonly group: readonly PublicArticleSummary[];
  readonly articles: ArticleChange[];
}

/**
 * The changed articles by channel: an article counts in the channel it was
 * in and in the one it is in now. Every channel of `oldGroups` has an entry.
 */
export function channelChanges(
  oldGroups: ReadonlyMap<number, readonly PublicArticleSummary[]>,
  before: ReadonlyMap<number, PublicArticleSummary | null>,
  now: ReadonlyMap<number, PublicArticleSummary>,
): Map<number, ChannelChanges> {
  const out = new Map<number, ChannelChanges>();
  for (const [channelId, group] of oldGroups) out.set(channelId, { group, articles: [] });
  for (const [id, old] of before) {
    const after = now.get(id) ?? null;
    for (const channelId of new Set([old?.channel.id, after?.channel.id])) {
      if (channelId !== undefined) out.get(channelId)?.articles.push({ before: old, after });
    }
  }
  return out;
}
