/**
 * The parts of the state the state feed's newest row leaves readers with,
 * each with its hash (`state_feed_parts`, `read-model/state-parts.ts`): a
 * server that starts sends web instances what its state changed against
 * them, not the whole state again (issue 38). Kept with each row, in its
 * transaction. A new table: a feed written before it has no parts, and a
 * start after it writes the whole state, as before.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE state_feed_parts (
    key TEXT PRIMARY KEY,
    hash TEXT NOT NULL
  )`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE state_feed_parts`.execute(db);
}
