/**
 * `list_anchors`: every position a public list has shown an item at, so the
 * page after it stays a file (issue 14, pagination from static files). A
 * list's `next` cursor names the last item shown; the page after it is a
 * static file for as long as a client may hold the cursor, which is for
 * ever: the item may since have been unpublished, and its page still lists
 * what follows its old position. Rows are only ever added (by the builder,
 * for each item it lists); they hold positions, never content.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates `list_anchors`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE list_anchors (
      scope TEXT NOT NULL,
      published_at TEXT NOT NULL,
      item_id INTEGER NOT NULL,
      PRIMARY KEY (scope, published_at, item_id)
    ) WITHOUT ROWID`.execute(db);
}

/** Drops `list_anchors`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS list_anchors`.execute(db);
}
