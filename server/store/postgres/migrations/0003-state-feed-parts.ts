/**
 * The Postgres side of SQLite's migration 0022 (`../../migrations/0022-state-feed-parts.ts`):
 * the parts of the state the state feed shows, with their hashes (issue 38).
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE state_feed_parts (
    key text COLLATE "C" PRIMARY KEY,
    hash text COLLATE "C" NOT NULL
  )`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE state_feed_parts`.execute(db);
}
