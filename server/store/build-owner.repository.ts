/**
 * The builder's memory of what each article owner was last rendered from
 * (`build_owners`): the hash of its inputs and the start of each
 * translation's text. A full build skips an owner whose inputs hash the same
 * and whose files are all in place, so a warm build reads no body and
 * renders nothing; `textStart` (which lists need and only a rendered body
 * gives) comes from here for the skipped ones.
 *
 * This is a cache, not data: losing it costs one full render, never a wrong
 * file. That is why the table is created on first use here instead of by a
 * migration, and why it is safe to drop at any time.
 * @module
 */
import { sql, type Kysely } from 'kysely';
import { storeKind, type Executor } from './database.ts';
import type { BuildOwnerTable } from './build-owner.table.ts';

/** What the builder keeps per owner. */
export interface BuildOwnerState {
  readonly inputHash: string;
  readonly textStarts: Readonly<Record<string, string>>;
}

const withTable = (db: Executor) => (db as Kysely<unknown>).withTables<{ build_owners: BuildOwnerTable }>();

/** Creates the table when missing (idempotent, cheap). */
export async function ensureBuildOwners(db: Executor): Promise<void> {
  if (storeKind(db) === 'postgres') {
    await sql`CREATE TABLE IF NOT EXISTS build_owners (owner TEXT COLLATE "C" PRIMARY KEY, input_hash TEXT NOT NULL, text_starts TEXT NOT NULL)`.execute(db);
    return;
  }
  await sql`CREATE TABLE IF NOT EXISTS build_owners (owner TEXT PRIMARY KEY, input_hash TEXT NOT NULL, text_starts TEXT NOT NULL) WITHOUT ROWID`.execute(db);
}

/** Every recorded owner's state. */
export async function readBuildOwners(db: Executor, owners?: readonly string[]): Promise<Map<string, BuildOwnerState>> {
  let query = withTable(db).selectFrom('build_owners').selectAll();
  if (owners) query = query.where('owner', 'in', owners.length > 0 ? owners : ['']);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.owner, { inputHash: r.input_hash, textStarts: JSON.parse(r.text_starts) as Record<string, string> }]));
}

/** Records owners' states (insert or replace), in statements of a few hundred rows. */
export async function writeBuildOwners(db: Executor, states: ReadonlyArray<{ owner: string } & BuildOwnerState>): Promise<void> {
  // An owner given twice is recorded as last given: Postgres refuses one statement that upserts a row twice.
  const last = [...new Map(states.map((s) => [s.owner, s] as const)).values()];
  for (let i = 0; i < last.length; i += 300) {
    const rows = last.slice(i, i + 300).map((s) => ({ owner: s.owner, input_hash: s.inputHash, text_starts: JSON.stringify(s.textStarts) }));
    await withTable(db)
      .insertInto('build_owners')
      .values(rows)
      .onConflict((oc) => oc.column('owner').doUpdateSet((eb) => ({ input_hash: eb.ref('excluded.input_hash'), text_starts: eb.ref('excluded.text_starts') })))
      .execute();
  }
}

/** Forgets owners (unpublished articles). */
export async function forgetBuildOwners(db: Executor, owners: readonly string[]): Promise<void> {
  for (let i = 0; i < owners.length; i += 500) {
    await withTable(db).deleteFrom('build_owners').where('owner', 'in', owners.slice(i, i + 500)).execute();
  }
}
