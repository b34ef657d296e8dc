/**
 * The way out of the SQLite file (issue 38): every row of a SQLite database
 * copied into an empty, migrated Postgres database, in one Postgres
 * transaction, so a copy that fails leaves the target empty and can simply
 * be run again. Behind `npm run migrate -- --copy-to URL`.
 *
 * Not copied, because it is not kept as data: the read API's search index
 * (SQLite's is contentless: it holds no text to copy; the first start on
 * Postgres indexes every public translation again, in the background, with
 * progress, and answers 503 to searches until it is done) and the builder's
 * cache (`build_owners`, made again by the next full build). Jobs are not
 * rows of a table there: each job still to run (pending, running when the
 * server stopped, or parked) is queued in graphile-worker's queue with its
 * attempts and last error; finished ones are left, as Postgres keeps none.
 * @module
 */
import { sql, type Kysely } from 'kysely';
import { storeKind, type Db } from './database.ts';
import { importQueueJob } from './postgres/postgres-jobs.ts';
import type { Database } from './schema.ts';

/**
 * The tables copied, parents before children, with whether an identity column numbers them. Not copied:
 * `state_feed` and `state_feed_parts` (a server with no feed to go on with writes its whole state at its start) and
 * `rate_limit_hits` (windows of a minute).
 */
export const COPIED_TABLES: ReadonlyArray<{ readonly table: keyof Database & string; readonly identity: boolean }> = [
  { table: 'accounts', identity: true },
  { table: 'account_passwords', identity: false },
  { table: 'administrators', identity: false },
  { table: 'api_keys', identity: true },
  { table: 'channels', identity: true },
  { table: 'channel_translations', identity: false },
  { table: 'channel_members', identity: false },
  { table: 'articles', identity: true },
  { table: 'article_translations', identity: true },
  { table: 'revisions', identity: true },
  { table: 'media', identity: true },
  { table: 'publication_events', identity: true },
  { table: 'output_files', identity: false },
  { table: 'built_translations', identity: false },
  { table: 'list_anchors', identity: false },
  { table: 'edge_deliveries', identity: true },
  { table: 'bucket_objects', identity: false },
  { table: 'instance_settings', identity: false },
  { table: 'sessions', identity: false },
  { table: 'editor_autosaves', identity: false },
];

/** Settings that describe the search index, which is not copied: the target builds its own. */
const SEARCH_SETTINGS = ['search_index_complete', 'search_index_through'];

/** Where a copy is: the table, the rows copied of it, and of how many. */
export interface CopyProgress {
  readonly table: string;
  readonly rows: number;
  readonly of: number;
}

/** Rows per INSERT: a Postgres statement takes at most 65,535 parameters, and long bodies make big rows. */
function batchSize(columns: number): number {
  return Math.max(1, Math.min(500, Math.floor(60_000 / columns)));
}

/**
 * Copies every row of `source` (SQLite, at the latest migration) into
 * `target` (Postgres, migrated, holding no account). Resolves with the rows
 * copied per table.
 * @throws Error naming what is wrong when the stores are not those, or the target holds data.
 */
export async function copyToPostgres(source: Db, target: Db, onProgress: (progress: CopyProgress) => void = () => undefined): Promise<Map<string, number>> {
  if (storeKind(source) !== 'sqlite') throw new Error('The copy reads a SQLite database; the configured database is not one (unset PRESSROOM_DATABASE_URL).');
  if (storeKind(target) !== 'postgres') throw new Error('The copy writes to a Postgres database: give its URL (postgres://…).');
  const counted = await target.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(counted.n) > 0) {
    throw new Error('The Postgres database holds data already (it has accounts). Copy into a new, empty database (createdb …), so nothing in it is mixed with the copy.');
  }
  const copied = new Map<string, number>();
  await target.transaction().execute(async (trx) => {
    for (const { table, identity } of COPIED_TABLES) {
      const total = Number((await (source as Kysely<any>).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      let rows = 0;
      let batch: Record<string, unknown>[] = [];
      let size = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        await (trx as Kysely<any>).insertInto(table).values(batch).execute();
        rows += batch.length;
        batch = [];
        onProgress({ table, rows, of: total });
      };
      for await (const row of (source as Kysely<any>).selectFrom(table).selectAll().stream(200)) {
        const kept = table === 'instance_settings' && SEARCH_SETTINGS.includes(String(row.key)) ? null : row;
        if (!kept) continue;
        size ||= batchSize(Object.keys(kept).length);
        batch.push(kept);
        if (batch.length >= size) await flush();
      }
      await flush();
      if (identity) {
        // The next id Postgres gives is past every copied one.
        await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${sql.table(table)}), false)`.execute(trx);
      }
      copied.set(table, rows);
    }
    const jobs = await source.selectFrom('jobs').selectAll().where('state', '!=', 'done').orderBy('id').execute();
    for (const job of jobs) await importQueueJob(trx, job);
    onProgress({ table: 'jobs', rows: jobs.length, of: jobs.length });
    copied.set('jobs', jobs.length);
  });
  return copied;
}
