/**
 * A channel avatar keeps a PNG rendition for RSS `<image>`, which RSS 2.0
 * allows only as GIF, JPEG or PNG (the stored avatar is WebP). The column
 * names that file, made at upload (`media.service.ts`) and removed with the
 * avatar (`cleanup.ts`); older avatars have none (null), and their feeds
 * leave `<image>` out until the avatar is uploaded again.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds the nullable column. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE media ADD COLUMN feed_file_name TEXT`.execute(db);
}

/** Drops it (SQLite ≥ 3.35). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE media DROP COLUMN feed_file_name`.execute(db);
}
