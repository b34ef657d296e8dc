/**
 * Deliveries to the edge (issue 35; docs/HOSTING.md, "CDN and object
 * storage"). With a CDN configured, a build's files are in the output
 * before readers get them: the build marks its events `built_at` and
 * records what the edge must be told (`edge_deliveries`); the events are
 * `processed_at` (and `built_translations` written, what the publishing
 * API reports) only once the edge has acknowledged it. Without an edge
 * both happen in the build's own transaction, as before.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds `built_at` to the outbox and the `edge_deliveries` table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE publication_events ADD COLUMN built_at TEXT`.execute(db);
  await sql`UPDATE publication_events SET built_at = processed_at`.execute(db);
  await sql`CREATE INDEX publication_events_unbuilt ON publication_events(built_at, id)`.execute(db);
  await sql`
    CREATE TABLE edge_deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      through INTEGER NOT NULL,
      paths TEXT NOT NULL,
      shown TEXT NOT NULL,
      everything INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      last_error TEXT
    )`.execute(db);
}

/** Drops both. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE edge_deliveries`.execute(db);
  await sql`DROP INDEX publication_events_unbuilt`.execute(db);
  await sql`ALTER TABLE publication_events DROP COLUMN built_at`.execute(db);
}
