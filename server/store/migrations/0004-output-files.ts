/**
 * The manifest of the static output: which file each owner (an article, a
 * channel, the site) produced, with its content hash. The incremental builder
 * uses it to skip unchanged files and to delete files that are no longer
 * produced.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates `output_files`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE output_files (
      path TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      hash TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX output_files_owner ON output_files(owner)`.execute(db);
}

/** Drops `output_files`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS output_files`.execute(db);
}
