/** Row types of the `state_feed` and `rate_limit_hits` tables (migrations 0021 and 0022). @module */
import type { Generated } from 'kysely';

/** One change of the builder's public state, as the server that builds wrote it for web instances (`state-feed.repository.ts`). */
export interface StateFeedTable {
  id: Generated<number>;
  /** The row this one is a delta of (0 for a whole row): a reader that applied another one missed a row. */
  base: number;
  /** The newest publication event the state shows after this change. */
  through: number;
  /** 1 when `delta` is the whole state (a reader may start here). */
  whole: number;
  /** The delta, as `read-model/state-feed-codec.ts` writes it. */
  delta: string;
  /** JSON array of the output paths the build wrote or removed (a reader's file cache drops them). */
  paths: string;
  created_at: string;
}

/** One part of the state the feed's newest row leaves readers with, and its hash (`read-model/state-parts.ts`; migration 0022). */
export interface StateFeedPartTable {
  /** `channels`, `article:{id}` or `anchors:{scope}`. */
  key: string;
  hash: string;
}

/** One client key's fixed window of the read API's rate limits (`rate-limit.repository.ts`). */
export interface RateLimitHitTable {
  key: string;
  hits: number;
  /** When the window ends, in milliseconds since the epoch. */
  reset_at: number;
}
