/** Row types of `search_documents` and its FTS5 index `search_fts` (see `search-document.repository.ts`). @module */
import type { Generated } from 'kysely';

/** Row type of `search_documents`. */
export interface SearchDocumentTable {
  id: Generated<number>;
  article_id: number;
  language: string;
  channel_id: number;
  channel_slug: string;
  /** The article's first publication: the list order of search results. */
  published_at: string;
  /** What the document was made from; a different value means it must be rewritten. */
  version: string;
}

/**
 * Row type of the FTS5 table `search_fts` (rowid = `search_documents.id`).
 * Contentless (migration 0014): the columns are indexed, never read back (they read as null).
 */
export interface SearchFtsTable {
  rowid: number;
  title: string;
  excerpt: string;
  body: string;
}
