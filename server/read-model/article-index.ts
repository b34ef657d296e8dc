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

/** Creates an index holding `initial`. */
export function createArticleIndex(initial: Iterable<PublicArticleSummary> = []): ArticleIndex {
  const articles = new Map<number, PublicArticleSummary>();
  for (const a of initial) articles.set(a.id, a);
  const groups = new Map<number, readonly PublicArticleSummary[]>();
  const stale = new Set<number>();
  let allStale = true;

  return {
    articles,
    set(id, summary) {
      const before = articles.get(id);
      if (before) stale.add(before.channel.id);
      if (summary) {
        stale.add(summary.channel.id);
        articles.set(id, summary);
      } else articles.delete(id);
    },
    groups() {
      if (!allStale && stale.size === 0) return groups;
      // One pass over the index collects every stale group.
      const rebuilt = new Map<number, PublicArticleSummary[]>();
      for (const a of articles.values()) {
        if (!allStale && !stale.has(a.channel.id)) continue;
        const group = rebuilt.get(a.channel.id);
        if (group) group.push(a);
        else rebuilt.set(a.channel.id, [a]);
      }
      if (allStale) groups.clear();
      for (const id of stale) groups.delete(id);
      for (const [id, group] of rebuilt) groups.set(id, Object.freeze(group.sort(byPublication)));
      stale.clear();
      allStale = false;
      return groups;
    },
  };
}
