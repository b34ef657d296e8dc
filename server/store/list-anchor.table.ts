/** Row type of the `list_anchors` table (see `list-anchor.repository.ts`). @module */

/** Row type of `list_anchors`. */
export interface ListAnchorTable {
  /** The list (`articleListScope`, `channelListScope`). */
  scope: string;
  /** The item's sort date (an article's first publication; '' in the channel list). */
  published_at: string;
  item_id: number;
}
