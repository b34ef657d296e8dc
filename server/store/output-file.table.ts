/** Row type of the `output_files` table (see `output-file.repository.ts`). @module */

/** Row type of `output_files`. */
export interface OutputFileTable {
  path: string;
  /** `article:{id}`, `channel:{id}` or `site`. */
  owner: string;
  hash: string;
  /** Size in bytes when the hash was last confirmed on disk (migration 0018); null until then. */
  size: number | null;
  /** Modification time (ms) when the hash was last confirmed on disk; null until then. */
  mtime_ms: number | null;
  updated_at: string;
}
