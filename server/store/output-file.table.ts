/** Row type of the `output_files` table (see `output-file.repository.ts`). @module */

/** Row type of `output_files`. */
export interface OutputFileTable {
  path: string;
  /** `article:{id}`, `channel:{id}` or `site`. */
  owner: string;
  hash: string;
  updated_at: string;
}
