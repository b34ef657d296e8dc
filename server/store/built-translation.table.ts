/** Row type of the `built_translations` table (see `built-translation.repository.ts`). @module */

/** Row type of `built_translations`. */
export interface BuiltTranslationTable {
  article_id: number;
  language: string;
  /** Content hash of the published revision the files show. */
  content_hash: string;
}
