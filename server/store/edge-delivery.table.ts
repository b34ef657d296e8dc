/** Row type of the `edge_deliveries` table (see `edge-delivery.repository.ts`). @module */
import type { Generated, Selectable } from 'kysely';

/** One build's news for the edge: what to purge, and what readers get once it is acknowledged. */
export interface EdgeDeliveryTable {
  id: Generated<number>;
  /** The newest publication event the build processed: marked processed on acknowledgement. */
  through: number;
  /** JSON array of the output paths the build wrote or removed. */
  paths: string;
  /** JSON object article id → { language: content hash }: what the build's files show, for `built_translations`. */
  shown: string;
  /** 1 for a full build: every article not in `shown` is shown nowhere. */
  everything: number;
  created_at: string;
  /** Failed attempts so far. */
  attempts: Generated<number>;
  /** After a failure, not before this time. */
  next_attempt_at: string | null;
  /** What the last failure said, for the publishing API, the logs and `admin edge`. */
  last_error: string | null;
}

export type EdgeDeliveryRow = Selectable<EdgeDeliveryTable>;
