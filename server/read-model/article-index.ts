/**
 * The builder's index of every public article, without bodies
 * (`PublicArticleSummary`), and each channel's group of them.
 *
 * The channel and site files are rendered from the groups. A group is one
 * frozen array, newest first, rebuilt only when one of its articles changed:
 * an unchanged channel hands the renderers the same array at every build, so
 * what they remember per array (`listArticlesFor`'s sorted lists, a
 * sitemap's newest date, the parts of the complete lists) still holds.
 * @module
 */
import type { ArticlesByChannel, PublicArticleSummary } from './view-models.ts';
import { byPublication } from './selection.ts';

/** The index. */
export interface ArticleIndex {
  /** Every public article by id (the read API's `PublicState.articles`). */
  readonly articles: ReadonlyMap<number, PublicArticleSummary>;
  /** Sets (or, with null, removes) an article; the groups it leaves and joins are rebuilt when next asked for. */
  set(id: number, summary: PublicArticleSummary | null): void;
  /** Each channel's articles, newest first; a channel without public articles has no group. */
  groups(): ArticlesByChannel;
}

/**
 * The ids set in each index since each of its readers last took them (`takeChangedIds`), by the index's map and
 * the reader. A reader's journal starts at its first take, so an index nobody follows keeps none.
 */
const journals = new WeakMap<ReadonlyMap<number, PublicArticleSummary>, Map<object, Set<number>>>();

/**
 * The ids of the articles set (changed, added or removed) in the index whose map is `articles` since `reader`'s
 * last call, which starts over for that reader alone; undefined at its first call for that map (or for a map no
 * index made): the caller then compares every article, once. For the readers that follow an index's changes
 * (`state-delta.ts`: the request thread's mirror, the database's state feed), so that following costs what
 * changed, not the size of the site.
 */
export function takeChangedIds(articles: ReadonlyMap<number, PublicArticleSummary>, reader: object): ReadonlySet<number> | undefined {
  let readers = journals.get(articles);
  if (!readers) journals.set(articles, (readers = new Map()));
  const journal = readers.get(reader);
  readers.set(reader, new Set());
  return journal;
}

/** Creates an index holding `initial`. */
export function createArticleIndex(initial: Iterable<PublicArticleSummary> = []): ArticleIndex {
  const articles = new Map<number, PublicArticleSummary>();
  // Each channel's article ids, so a stale group is rebuilt from its own members, not a pass over the whole
  // index (100,000 articles at every publish).
  const members = new Map<number, Set<number>>();
  const join = (channelId: number, id: number) => {
    const ids = members.get(channelId);
    if (ids) ids.add(id);
    else members.set(channelId, new Set([id]));
  };
  for (const a of initial) {
    articles.set(a.id, a);
    join(a.channel.id, a.id);
  }
  const groups = new Map<number, readonly PublicArticleSummary[]>();
  const stale = new Set<number>();
  let allStale = true;

  return {
    articles,
    set(id, summary) {
      const readers = journals.get(articles);
      if (readers) for (const journal of readers.values()) journal.add(id);
      const before = articles.get(id);
      if (before) {
        stale.add(before.channel.id);
        members.get(before.channel.id)?.delete(id);
      }
      if (summary) {
        stale.add(summary.channel.id);
        articles.set(id, summary);
        join(summary.channel.id, id);
      } else articles.delete(id);
    },
    groups() {
      if (!allStale && stale.size === 0) return groups;
      if (allStale) groups.clear();
      for (const channelId of allStale ? [...members.keys()] : stale) {
        const ids = members.get(channelId);
        if (!ids || ids.size === 0) {
          groups.delete(channelId);
          members.delete(channelId);
          continue;
        }
        const group = [...ids].map((id) => articles.get(id)!);
        groups.set(channelId, Object.freeze(group.sort(byPublication)));
      }
      stale.clear();
      allStale = false;
      return groups;
    },
  };
}
