/** Row type of `jobs`, the durable queue. @module */
import type { Generated, Selectable } from 'kysely';

/** A unit of background work; survives restarts. */
export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** JSON text. */
  payload: string;
  state: 'pending' | 'running' | 'done' | 'parked';
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type JobRow = Selectable<JobTable>;
