/**
 * Postgres only (issue 38, build workers): the batches of a large build's
 * articles that `npm run worker` processes render for the builder
 * (`../render-batches.ts`). A row holds what to render and, once rendered,
 * the files' hashes the builder records; the builder deletes it when it has
 * read it. No SQLite side: on the SQLite file one process builds.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE render_batches (
    id bigserial PRIMARY KEY,
    pool text COLLATE "C" NOT NULL,
    payload jsonb NOT NULL,
    taken_by text,
    cancelled boolean NOT NULL DEFAULT false,
    results jsonb,
    error text,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX render_batches_pool ON render_batches (pool)`.execute(db);
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE render_batches`.execute(db);
}
