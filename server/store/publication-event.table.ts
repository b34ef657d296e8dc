/** Row type of `publication_events`, the outbox read by the static builder. @module */
import type { Generated, Selectable } from 'kysely';

/** One change to what is public. */
export interface PublicationEventTable {
  id: Generated<number>;
  /** What changed: see `PublicationEventKind`. */
  kind: string;
  channel_id: number;
  article_id: number | null;
  /** JSON array of the affected language codes (empty: all of the channel or article). */
  languages: string;
  created_at: string;
  /** When the builder placed its files (migration 0016). */
  built_at: string | null;
  /** When readers get it: the build's time, or with an edge, when the edge acknowledged it. */
  processed_at: string | null;
}

export type PublicationEventRow = Selectable<PublicationEventTable>;
