/** Row type of `build_owners`, the builder's cache of owner states (created on first use, see `build-owner.repository.ts`). @module */

/** Row type of `build_owners`. */
export interface BuildOwnerTable {
  owner: string;
  input_hash: string;
  /** JSON object: language → `textStart` of that translation. */
  text_starts: string;
}
