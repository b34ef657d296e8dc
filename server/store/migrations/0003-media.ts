/**
 * Media upload: content hashes, focus points and draft images. File names are
 * content-hashed, so a name is unique; the indexes serve the draft cleanup
 * job and the lookup of an article's images.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds the media columns and indexes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE media ADD COLUMN content_hash TEXT NOT NULL DEFAULT ''`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN focus_x REAL NOT NULL DEFAULT 50`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN focus_y REAL NOT NULL DEFAULT 50`.execute(db);
  await sql`ALTER TABLE media ADD COLUMN draft INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE UNIQUE INDEX media_file_name ON media(file_name)`.execute(db);
  await sql`CREATE INDEX media_draft_age ON media(draft, created_at)`.execute(db);
  await sql`CREATE INDEX media_article ON media(article_id)`.execute(db);
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['media_article', 'media_draft_age', 'media_file_name']) {
    await sql`DROP INDEX IF EXISTS ${sql.id(index)}`.execute(db);
  }
  for (const column of ['draft', 'focus_y', 'focus_x', 'content_hash']) {
    await sql`ALTER TABLE media DROP COLUMN ${sql.id(column)}`.execute(db);
  }
}
