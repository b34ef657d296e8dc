/**
 * What readers may see, as the output was last built: the one value the
 * static builder keeps and the read API answers from, so the API's
 * on-demand variants, its search and the static files agree. The builder
 * provides it (`SiteBuilder.publicState()`); the read API depends only on
 * this type.
 * @module
 */
import type { ListPosition } from './list-pages.ts';
import type { ArticlesByChannel, PublicArticleSummary, PublicChannel } from './view-models.ts';

/**
 * Public channels (oldest first) and public articles by id, as last built.
 * Articles carry no bodies: read a full article from the store
 * (`PublicModel.articles({ ids })`) to render its document.
 */
export interface PublicState {
  readonly channels: readonly PublicChannel[];
  readonly articles: ReadonlyMap<number, PublicArticleSummary>;
  /**
   * Each channel's public articles, newest first: one frozen array per
   * channel, replaced only when one of its articles changed, so what a
   * reader of the state derives from a channel's array (its lists in each
   * language, its slugs) is worked out once per change of that channel and
   * never per request (the identity rule, `identity-memo.ts`).
   */
  readonly byChannel: ArticlesByChannel;
  /** Each list's anchors (`list-pages.ts`), by cursor scope, in list order: the positions its cursors may name. */
  readonly anchors: ReadonlyMap<string, readonly ListPosition[]>;
  /**
   * Every public change announced by the publication events up to this id
   * (`domain/public-change.ts`) shows here; 0 when none was.
   */
  readonly through: number;
}


