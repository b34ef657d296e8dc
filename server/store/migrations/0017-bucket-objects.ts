/**
 * `bucket_objects`: what the object storage bucket holds (issue 35), so a
 * deploy uploads only what changed, deletes what the output no longer has,
 * and resumes after a crash: a row is written once its object is uploaded,
 * and removed once it is deleted.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates `bucket_objects`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE bucket_objects (
      key TEXT PRIMARY KEY,
      hash TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      cache_control TEXT NOT NULL,
      uploaded_at TEXT NOT NULL
    ) WITHOUT ROWID`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE bucket_objects`.execute(db);
}
