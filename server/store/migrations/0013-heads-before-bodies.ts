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
 * (https://sqlite.org/lang_altertable.html, "otheralter"): foreign keys off,
 * then in one transaction create, copy, drop, rename, check. It copies every
 * body once, so it takes minutes on a large database (docs/PERFORMANCE.md,
 * "Current figures"); the space the old rows held is reused by later writes.
 * @module
 */
import { sql, type Kysely } from 'kysely';
import { InternalError } from '../../internal-error.ts';

/** A table rebuilt: its new definition, and its columns in the new order (every column, or the migration refuses). */
interface Layout {
  readonly table: string;
  readonly create: (name: string) => string;
  readonly columns: readonly string[];
}

const REVISIONS: Layout = {
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

const TRANSLATIONS: Layout = {
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

/** Rebuilds one table in `layout`'s column order; the caller holds the transaction, with foreign keys off. */
async function rebuild(trx: Kysely<unknown>, layout: Layout): Promise<void> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${layout.table})`.execute(trx);
  const present = rows.map((r) => r.name).sort();
  const wanted = [...layout.columns].sort();
  if (present.join() !== wanted.join()) {
    throw new InternalError('MIGRATION_FAILED', `${layout.table} has the columns ${present.join(', ')}; this migration expects ${wanted.join(', ')}. Restore the database from a backup made by this version.`);
  }
  const fresh = `${layout.table}_reordered`;
  const list = layout.columns.join(', ');
  await sql.raw(layout.create(fresh)).execute(trx);
  await sql.raw(`INSERT INTO ${fresh} (${list}) SELECT ${list} FROM ${layout.table}`).execute(trx);
  await sql.raw(`DROP TABLE ${layout.table}`).execute(trx);
  await sql.raw(`ALTER TABLE ${fresh} RENAME TO ${layout.table}`).execute(trx);
}

/** Rebuilds both tables, heads first. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // `article_translations` is the parent of `revisions`: with foreign keys on, dropping it would delete every
  // revision. SQLite ignores this pragma inside a transaction, so it is set around it.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await rebuild(trx, REVISIONS);
      await rebuild(trx, TRANSLATIONS);
      const { rows } = await sql<{ table: string }>`PRAGMA foreign_key_check`.execute(trx);
      if (rows.length > 0) throw new InternalError('MIGRATION_FAILED', `Rebuilding the article tables broke ${rows.length} references (first in ${rows[0]!.table}); nothing was changed.`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

/** Nothing to undo: the tables hold the same columns and rows in either order. */
export async function down(): Promise<void> {}
