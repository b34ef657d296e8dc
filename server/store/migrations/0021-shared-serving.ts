/**
 * What several web instances share through the database (issue 38): the
 * builder's public state as a feed of deltas (`state_feed`, read by web
 * instances that do not build, `state-feed.repository.ts`), and the read
 * API's rate-limit counters (`rate_limit_hits`, one fixed window per client
 * key, `rate-limit.repository.ts`). The SQLite store has one server, so it
 * writes neither; the tables exist on both stores so their repositories and
 * row types are one. New tables only: no rewrite.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE state_feed (
    id INTEGER PRIMARY KEY,
    base INTEGER NOT NULL,
    through INTEGER NOT NULL,
    whole INTEGER NOT NULL,
    delta TEXT NOT NULL,
    paths TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE rate_limit_hits (
    key TEXT PRIMARY KEY,
    hits INTEGER NOT NULL,
    reset_at INTEGER NOT NULL
  )`.execute(db);
}

/** Drops them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rate_limit_hits`.execute(db);
  await sql`DROP TABLE state_feed`.execute(db);
}
