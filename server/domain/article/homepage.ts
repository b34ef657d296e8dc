/**
 * Homepage visibility: the one answer to "is this article on the service
 * homepage", used by the renderer. Affects only the homepage, never privacy,
 * search, feeds or channel lists (publishing rule 6).
 * @module
 */
import type { ArticleStatus, HomepageMode } from './article-status.ts';

/** What the decision needs of an article. */
export interface HomepageArticle {
  readonly status: ArticleStatus;
  readonly homepage_mode: HomepageMode;
  /** Administrator's exclusion of this article (1 = excluded). */
  readonly homepage_excluded: number;
}

/** What the decision needs of its channel. */
export interface HomepageChannel {
  readonly status: 'active' | 'hidden';
  readonly homepage_enabled: number;
  /** Administrator's exclusion of the whole channel (1 = excluded). */
  readonly homepage_excluded: number;
}

/**
 * True when the article belongs on the homepage: it is published in an active
 * channel, no administrator excluded it or its channel, and its mode allows it
 * (`allow` always, `hide` never, `inherit` when the channel's homepage_enabled is on).
 */
export function isOnHomepage(article: HomepageArticle, channel: HomepageChannel): boolean {
  if (article.status !== 'published' || channel.status !== 'active') return false;
  // An administrator's exclusion wins over every publisher setting.
  if (article.homepage_excluded === 1 || channel.homepage_excluded === 1) return false;
  if (article.homepage_mode === 'hide') return false;
  if (article.homepage_mode === 'allow') return true;
  return channel.homepage_enabled === 1;
}
