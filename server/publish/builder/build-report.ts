/**
 * What one build did: the builder's answer, which the build queue hands to
 * the file cache, the search index and the read API's search.
 * @module
 */

/** What one build did. */
export interface BuildReport {
  written: number;
  unchanged: number;
  removed: number;
  /** Paths written or removed, for tests and purge lists. */
  changedPaths: string[];
  /**
   * Whether every article was considered: a full build, or an incremental one
   * that read the whole public state again after another process's full
   * build (listeners then re-sync everything).
   */
  full: boolean;
  /** Articles whose public state was re-read (incremental builds; empty for a full build). */
  articleIds: number[];
  /** The newest publication event this build processed (0: none): every change up to it is built. */
  through: number;
  ms: number;
}

/** A report of nothing done yet. */
export function emptyReport(): BuildReport {
  return { written: 0, unchanged: 0, removed: 0, changedPaths: [], full: false, articleIds: [], through: 0, ms: 0 };
}
