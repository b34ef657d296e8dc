/**
 * Rebuilds `revisions` and `article_translations` with their small columns
 * first and the bodies last. Nothing a reader sees changes: the columns,
 * constraints and rows are the same; only their order in each row is.
 *
 * Why: SQLite stores a row's bytes in column order and spills a long row to
 * a chain of overflow pages that can only be walked from its start. The
 * bodies (~9 KB of Markdown, HTML and text each) came before columns every
 * read needs: `published_at` and `published_revision_id` came after the
 * draft's Markdown, and `content_hash`, `body_version` and `image_html` after
 * the revision's Markdown, HTML and text. So reading an article's head (every
 * list, feed, build plan and search part, the server's start) walked each
 * row's whole chain, some eight pages, for a few hundred bytes. With the
 * bodies last, a head is read from the row's first page; measured on the
 * 10,000-article benchmark corpus, reading every head is several times
 * faster (docs/PERFORMANCE-HISTORY.md, issue 17's third session).
 *
 * The rebuild is SQLite's own procedure for changing a table's layout
 * (https://sqlite.org/lang_altertable.html, "otheralter"), run in batches by
 * `table-rebuild.ts` (issue 36): each table is copied in key order, some
 * hundred rows per transaction, with progress, while triggers keep the copy
 * in step with writes to the old table; a run killed mid-copy resumes where
 * it stopped. Only the switch is one transaction, as before: foreign keys
 * off, the old table renamed aside, the new one into its place, check; the
 * old tables are then freed in batches and dropped. It copies every body
 * once, so it takes minutes on a large database (docs/PERFORMANCE.md,
 * "Current figures"); the space the old rows held is reused by later writes.
 * @module
 */
import type { Kysely } from 'kysely';
import { rebuildTables, type RebuildOptions, type TableLayout } from '../table-rebuild.ts';

/** The migration's permanent name (`index.ts`), which its progress reports carry. */
export const NAME = '0013-heads-before-bodies';

/** A table rebuilt: its new definition, and its columns in the new order (every column, or the migration refuses). */
type Layout = TableLayout;

export const REVISIONS: Layout = {
  table: 'revisions',
  create: (name) => `CREATE TABLE ${name} (
      id INTEGER PRIMARY KEY,
      translation_id INTEGER NOT NULL REFERENCES article_translations(id) ON DELETE CASCADE,
      number INTEGER NOT NULL,
      moderation_state TEXT NOT NULL CHECK (moderation_state IN ('none', 'pending', 'manual_review', 'passed', 'blocked', 'superseded')),
      content_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      decided_at TEXT,
      body_version TEXT,
      title TEXT NOT NULL,
      excerpt TEXT,
      seo_title TEXT,
      seo_description TEXT,
      moderation_reason TEXT,
      image_html TEXT,
      link_targets TEXT,
      content_text TEXT,
      content_html TEXT,
      content_markdown TEXT NOT NULL,
      UNIQUE (translation_id, number)
    )`,
  columns: [
    'id', 'translation_id', 'number', 'moderation_state', 'content_hash', 'created_at', 'decided_at', 'body_version', 'title', 'excerpt',
    'seo_title', 'seo_description', 'moderation_reason', 'image_html', 'link_targets', 'content_text', 'content_html', 'content_markdown',
  ],
};

export const TRANSLATIONS: Layout = {
  table: 'article_translations',
  create: (name) => `CREATE TABLE ${name} (
      id INTEGER PRIMARY KEY,
      article_id INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
      language TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft', 'moderation_review', 'scheduled', 'published', 'moderation_blocked')),
      published_at TEXT,
      scheduled_at TEXT,
      current_revision_id INTEGER,
      published_revision_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      body_version TEXT,
      title TEXT NOT NULL,
      excerpt TEXT,
      seo_title TEXT,
      seo_description TEXT,
      link_targets TEXT,
      content_text TEXT,
      content_html TEXT,
      content_markdown TEXT NOT NULL,
      UNIQUE (article_id, language)
    )`,
  columns: [
    'id', 'article_id', 'language', 'status', 'published_at', 'scheduled_at', 'current_revision_id', 'published_revision_id', 'created_at',
    'updated_at', 'body_version', 'title', 'excerpt', 'seo_title', 'seo_description', 'link_targets', 'content_text', 'content_html', 'content_markdown',
  ],
};

/**
 * Rebuilds both tables, heads first; both switch in one transaction
 * (`revisions` first: it refers to `article_translations` by name).
 * `options` are for the caller that reports progress, and for tests.
 */
export async function up(db: Kysely<unknown>, options: RebuildOptions = {}): Promise<void> {
  await rebuildTables(db, NAME, [REVISIONS, TRANSLATIONS], options);
}

/** Nothing to undo: the tables hold the same columns and rows in either order. */
export async function down(): Promise<void> {}
