/** Row type of `editor_autosaves` (see `editor-autosave.repository.ts`). @module */
import type { Selectable } from 'kysely';

/**
 * What one account was writing in the dashboard's editor of one translation, kept privately (autosave):
 * the form's texts as typed ('' for an empty field), the translation's version they were based on
 * (null: the language did not exist yet) and when.
 */
export interface EditorAutosaveTable {
  account_id: number;
  article_id: number;
  language: string;
  title: string;
  excerpt: string;
  content_markdown: string;
  seo_title: string;
  seo_description: string;
  based_on_version: string | null;
  saved_at: string;
}

export type EditorAutosaveRow = Selectable<EditorAutosaveTable>;
