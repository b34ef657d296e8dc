/**
 * The outbox of publication events: every change to what is public is written
 * here in the same transaction as the change, so the static builder never
 * misses one.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates `publication_events`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE publication_events (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      channel_id INTEGER NOT NULL,
      article_id INTEGER,
      languages TEXT NOT NULL,
      created_at TEXT NOT NULL,
      processed_at TEXT
    )`.execute(db);
  await sql`CREATE INDEX publication_events_unprocessed ON publication_events(processed_at, id)`.execute(db);
}

/** Drops `publication_events`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS publication_events`.execute(db);
}
