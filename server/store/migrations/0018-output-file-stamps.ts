/**
 * `output_files.size` and `mtime_ms` (issue 40): the size and modification
 * time a recorded file had when its hash was last confirmed, so a check of
 * the output folder can tell a file that is still what the manifest says
 * (same stamp) from one to hash again (another stamp: edited by hand, or
 * written by a build that died before recording it). Null until a check
 * has confirmed the file; a build that records a new hash clears them.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Adds the columns (no table rewrite). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE output_files ADD COLUMN size INTEGER`.execute(db);
  await sql`ALTER TABLE output_files ADD COLUMN mtime_ms INTEGER`.execute(db);
}

/** Drops them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE output_files DROP COLUMN mtime_ms`.execute(db);
  await sql`ALTER TABLE output_files DROP COLUMN size`.execute(db);
}
