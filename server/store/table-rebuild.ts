/**
 * Rebuilds tables in a new layout in batches, with progress, resumably, while
 * other processes keep reading and writing the old tables (issue 36).
 *
 * SQLite changes a table's layout by copying it (https://sqlite.org/lang_altertable.html,
 * "otheralter": foreign keys off; create the new table, copy, drop the old,
 * rename the new, recreate its indexes and triggers, `PRAGMA foreign_key_check`).
 * Done in one transaction, the copy of a large table holds the write lock for
 * minutes (0013: 9.3 min at 100,000 × 2 on the benchmark machine), shows nothing meanwhile, grows
 * the WAL to the table's size, and starts again from nothing after a kill.
 * Here the copy runs in key order, {@link BATCH_ROWS} rows per transaction,
 * and only the switch (rename, recreate, check) is one transaction. The old
 * table is not dropped in it: a drop reads every overflow page of every row
 * to free it (0.8 s at 10,000 × 2 for 0013, ten times that at 100,000, while
 * every writer waits and may time out), so the switch renames it aside
 * (`{table}_retired`) and it is emptied afterwards in batches, then dropped.
 *
 * Between batches other connections may write the old table (`npm run
 * migrate` beside a running service, or a killed rebuild before it is run
 * again): triggers on the old table, created in the same transaction as the
 * new table, mirror every INSERT, UPDATE and DELETE of a row already copied
 * into the new one. The invariant, kept by every batch and every trigger in
 * the writer's own transaction: the new table holds exactly the old table's
 * rows whose key is at most the new table's largest key. So that key is the
 * copy's cursor (a row deleted at the end moves it back; the rows after it
 * are copied again by the next batch), and a partial new table found on the
 * next run, with its triggers, is resumed from it: no row is lost or copied
 * twice. The switch copies what was written after the last batch, checks
 * that both tables hold as many rows, and drops the triggers. A run killed
 * after the switch finds the tables in their new layout and only finishes
 * emptying and dropping the retired ones.
 *
 * Requirements on a rebuilt table: an `INTEGER PRIMARY KEY` named `id` (the
 * keyset), the same columns in both layouts, and no writer that deletes rows
 * by `REPLACE` conflict resolution (those deletes fire no trigger; nothing
 * in Pressroom writes these tables so, and the count check refuses the
 * switch if it happened). The old table's own indexes and triggers are made
 * again on the new one in the switch: a large index would lengthen it (0013's
 * tables have none but their UNIQUE constraints, which the copy fills).
 * @module
 */
import { sql, type Kysely } from 'kysely';
import { InternalError } from '../internal-error.ts';

/** A table to rebuild: its new definition, and its columns (all of them, in the new order). */
export interface TableLayout {
  readonly table: string;
  /** The `CREATE TABLE` statement of the new layout under `name`. */
  readonly create: (name: string) => string;
  readonly columns: readonly string[];
}

/** Where a rebuild is, told after every batch and around the switch. */
export interface RebuildProgress {
  /** Who rebuilds (a migration's name). */
  readonly migration: string;
  /**
   * `resume`: a partial copy was found; `copy`: a batch was copied; `switch`: every row is copied, the switch begins;
   * `switched`: the new tables are in place; `retire`: a batch of the old table's rows was freed (`tableRows` of
   * `tableTotal`); `done`: the old tables are dropped.
   */
  readonly phase: 'resume' | 'copy' | 'switch' | 'switched' | 'retire' | 'done';
  /** The table being copied or freed (the last one at `switch`, `switched` and `done`). */
  readonly table: string;
  /** Rows of `table` in its new layout, and in the old one. */
  readonly tableRows: number;
  readonly tableTotal: number;
  /** The same over every table of the rebuild. */
  readonly rows: number;
  readonly total: number;
  /** Batches copied by this run. */
  readonly batches: number;
  /** Since this run began. */
  readonly elapsedMs: number;
  /** Estimated time to the end of the copy, from this run's rate; null before a first batch. */
  readonly leftMs: number | null;
  /** From `switched` on: how long the switch's transaction took (0 when an earlier run switched). */
  readonly switchMs?: number;
}

export interface RebuildOptions {
  /** Rows copied per transaction (default {@link BATCH_ROWS}). */
  readonly batchRows?: number;
  /**
   * Pause after each batch, as a share of the batch's time (default
   * {@link REST_SHARE}): a writer of another process waiting for the lock
   * (up to `BUSY_TIMEOUT_MS`) polls at intervals and must find it free.
   */
  readonly restShare?: number;
  /** Told after every batch and around the switch; a throw stops the rebuild (it resumes on the next run). */
  readonly onProgress?: (progress: RebuildProgress) => void | Promise<void>;
  /** Milliseconds from some origin (injectable for tests). */
  readonly now?: () => number;
}

/** What a rebuild did. */
export interface RebuildReport {
  /** Rows found already copied by an earlier, interrupted run. */
  readonly resumedRows: number;
  /** Rows copied by this run's batches. */
  readonly copiedRows: number;
  readonly batches: number;
  readonly switchMs: number;
}

/** Rows per transaction: 500 of 0013's rows (~35 KB each in the benchmark) are ~17 MB, 100–200 ms of the write lock. */
export const BATCH_ROWS = 500;
/** After each batch the lock is left free for a quarter of the batch's time: at most 80 % of the time held. */
export const REST_SHARE = 0.25;

const freshName = (layout: TableLayout) => `${layout.table}_reordered`;
const retiredName = (layout: TableLayout) => `${layout.table}_retired`;
const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The mirroring triggers on the old table, by name; their SQL is compared on resume, so it must not change. */
function mirrorTriggers(layout: TableLayout): Array<{ name: string; sql: string }> {
  const old = quoteId(layout.table);
  const fresh = quoteId(freshName(layout));
  const columns = layout.columns.map(quoteId);
  const list = columns.join(', ');
  const values = columns.map((c) => `NEW.${c}`).join(', ');
  const set = columns.filter((c) => c !== '"id"').map((c) => `${c} = NEW.${c}`).join(', ');
  // Only rows at or below the cursor (the new table's largest id) are mirrored; later ones are copied by a batch.
  const copied = `(SELECT max("id") FROM ${fresh})`;
  return [
    {
      name: `${freshName(layout)}_insert`,
      sql: `CREATE TRIGGER ${quoteId(`${freshName(layout)}_insert`)} AFTER INSERT ON ${old} WHEN NEW."id" <= ${copied} BEGIN INSERT INTO ${fresh} (${list}) VALUES (${values}); END`,
    },
    {
      // A changed id is a delete and an insert: the insert is mirrored if the new id is at or below the cursor after the delete.
      name: `${freshName(layout)}_update`,
      sql: `CREATE TRIGGER ${quoteId(`${freshName(layout)}_update`)} AFTER UPDATE ON ${old} BEGIN DELETE FROM ${fresh} WHERE "id" = OLD."id" AND OLD."id" IS NOT NEW."id"; UPDATE ${fresh} SET ${set} WHERE "id" = NEW."id" AND OLD."id" IS NEW."id"; INSERT INTO ${fresh} (${list}) SELECT ${values} WHERE OLD."id" IS NOT NEW."id" AND NEW."id" <= ${copied}; END`,
    },
    {
      name: `${freshName(layout)}_delete`,
      sql: `CREATE TRIGGER ${quoteId(`${freshName(layout)}_delete`)} AFTER DELETE ON ${old} BEGIN DELETE FROM ${fresh} WHERE "id" = OLD."id"; END`,
    },
  ];
}

type Db = Kysely<unknown>;

async function schemaSql(db: Db, type: string, name: string): Promise<string | null> {
  const { rows } = await sql<{ sql: string | null }>`SELECT sql FROM sqlite_master WHERE type = ${type} AND name = ${name}`.execute(db);
  return rows[0]?.sql ?? null;
}

async function count(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.id(table)}`.execute(db);
  return Number(rows[0]!.n);
}

/** The copy's cursor: the new table's largest id, or null while it is empty. */
async function cursorOf(db: Db, layout: TableLayout): Promise<number | null> {
  const { rows } = await sql<{ id: number | null }>`SELECT max(id) AS id FROM ${sql.id(freshName(layout))}`.execute(db);
  return rows[0]?.id ?? null;
}

/** Copies up to `limit` rows after the cursor (every remaining row when null); returns how many. */
async function copyAfterCursor(db: Db, layout: TableLayout, limit: number | null): Promise<number> {
  const list = layout.columns.map(quoteId).join(', ');
  const cursor = await cursorOf(db, layout);
  const where = cursor === null ? '' : `WHERE "id" > ${Number(cursor)}`;
  const result = await sql.raw(`INSERT INTO ${quoteId(freshName(layout))} (${list}) SELECT ${list} FROM ${quoteId(layout.table)} ${where} ORDER BY "id"${limit === null ? '' : ` LIMIT ${limit}`}`).execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Refuses a table whose columns are not the layout's (a database of another version). */
async function checkColumns(db: Db, layout: TableLayout): Promise<void> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${layout.table})`.execute(db);
  const present = rows.map((r) => r.name).sort();
  const wanted = [...layout.columns].sort();
  if (present.join() !== wanted.join()) {
    throw new InternalError('MIGRATION_FAILED', `${layout.table} has the columns ${present.join(', ')}; this migration expects ${wanted.join(', ')}. Restore the database from a backup made by this version.`);
  }
}

/** Drops a partial new table and its triggers, if any. */
async function dropPartial(db: Db, layout: TableLayout): Promise<void> {
  for (const trigger of mirrorTriggers(layout)) await sql.raw(`DROP TRIGGER IF EXISTS ${quoteId(trigger.name)}`).execute(db);
  await sql.raw(`DROP TABLE IF EXISTS ${quoteId(freshName(layout))}`).execute(db);
}

/**
 * Makes the new table and its triggers, or keeps a partial one an earlier run
 * left when it is exactly what this run would make (then its rows are kept,
 * because its triggers kept it in step). Anything else of that name (another
 * version's definition, a trigger missing) is dropped and the copy starts over.
 * @returns whether a partial table was kept.
 */
async function prepare(db: Db, layout: TableLayout): Promise<boolean> {
  const fresh = freshName(layout);
  const triggers = mirrorTriggers(layout);
  const existing = await schemaSql(db, 'table', fresh);
  if (existing !== null) {
    const same = existing === layout.create(fresh) && (await Promise.all(triggers.map(async (t) => (await schemaSql(db, 'trigger', t.name)) === t.sql))).every(Boolean);
    if (same) return true;
  }
  await dropPartial(db, layout);
  await sql.raw(layout.create(fresh)).execute(db);
  for (const trigger of triggers) await sql.raw(trigger.sql).execute(db);
  return false;
}

/** True when `layout.table` already has the new layout: an earlier run switched, and was stopped before it ended. */
async function switchedBefore(db: Db, layout: TableLayout): Promise<boolean> {
  return (await schemaSql(db, 'table', layout.table)) === layout.create(quoteId(layout.table));
}

/**
 * The switch, inside the caller's transaction (with `legacy_alter_table` on,
 * so that renaming the old table aside does not point the references of
 * other tables, the new child among them, at it): copies what was written
 * since the last batch, checks the counts, drops the mirroring triggers and
 * the old table's own indexes and triggers, renames the old table aside and
 * the new one into its place, and recreates those indexes and triggers on it.
 */
async function switchTable(db: Db, layout: TableLayout): Promise<void> {
  await copyAfterCursor(db, layout, null);
  const [before, after] = [await count(db, layout.table), await count(db, freshName(layout))];
  if (before !== after) {
    throw new InternalError('MIGRATION_FAILED', `Rebuilding ${layout.table} copied ${after} rows of ${before}; nothing was changed. Run the migration again: it copies the table anew.`);
  }
  for (const trigger of mirrorTriggers(layout)) await sql.raw(`DROP TRIGGER ${quoteId(trigger.name)}`).execute(db);
  // Index names are the schema's: the old table's must go before the new table takes them (an index is small beside the rows).
  const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ${layout.table} AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name`.execute(db);
  for (const object of objects) await sql.raw(`DROP ${object.type === 'index' ? 'INDEX' : 'TRIGGER'} ${quoteId(object.name)}`).execute(db);
  await sql.raw(`ALTER TABLE ${quoteId(layout.table)} RENAME TO ${quoteId(retiredName(layout))}`).execute(db);
  await sql.raw(`ALTER TABLE ${quoteId(freshName(layout))} RENAME TO ${quoteId(layout.table)}`).execute(db);
  for (const object of objects) await sql.raw(object.sql).execute(db);
}

/** Every reference in the database that does not start in a retired table, as `PRAGMA foreign_key_check` reports them. */
async function brokenReferences(db: Db, layouts: readonly TableLayout[]): Promise<Array<{ table: string }>> {
  const retired = new Set(layouts.map(retiredName));
  const { rows: tables } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name`.execute(db);
  const broken: Array<{ table: string }> = [];
  for (const { name } of tables) {
    if (retired.has(name)) continue;
    broken.push(...(await sql<{ table: string }>`SELECT * FROM pragma_foreign_key_check(${name})`.execute(db)).rows);
  }
  return broken;
}

/**
 * Rebuilds `layouts` in their new layouts, in that order, and switches them
 * all in one final transaction (a child before its parent, as in 0013: the
 * references are by name and survive the switch). Call it outside a
 * transaction: it sets `PRAGMA foreign_keys` around its work, which SQLite
 * ignores inside one. Throws `MIGRATION_FAILED` (the tables unchanged) when a
 * table's columns are not the layout's, or the switch would break a
 * reference or lose a row.
 */
export async function rebuildTables(db: Db, migration: string, layouts: readonly TableLayout[], options: RebuildOptions = {}): Promise<RebuildReport> {
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const restShare = options.restShare ?? REST_SHARE;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const rest = async (since: number) => {
    const restMs = (now() - since) * restShare;
    if (restMs >= 1) await new Promise((resolve) => setTimeout(resolve, restMs));
  };
  for (const layout of layouts) await checkColumns(db, layout);
  // A parent dropped with foreign keys on would take its children with it (DELETE CASCADE).
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    const totals: number[] = [];
    const done: number[] = [];
    let rows = 0;
    let copiedRows = 0;
    let batches = 0;
    const total = () => totals.reduce((a, b) => a + b, 0);
    const progress = (phase: RebuildProgress['phase'], i: number, extra: Partial<RebuildProgress> = {}): RebuildProgress => {
      const elapsedMs = now() - started;
      const rate = copiedRows / Math.max(1, elapsedMs);
      return {
        migration,
        phase,
        table: layouts[i]!.table,
        tableRows: done[i] ?? 0,
        tableTotal: totals[i] ?? 0,
        rows,
        total: total(),
        batches,
        elapsedMs,
        leftMs: copiedRows === 0 ? null : Math.max(0, total() - rows) / rate,
        ...extra,
      };
    };
    const last = layouts.length - 1;
    let resumedRows = 0;
    let switchMs = 0;
    const switched = [];
    for (const layout of layouts) switched.push(await switchedBefore(db, layout));
    if (!switched.every(Boolean)) {
      // Every table's triggers exist from the first batch on: a write between two tables' copies is kept too.
      const kept = await db.transaction().execute(async (trx) => {
        const found: boolean[] = [];
        for (const layout of layouts) found.push(await prepare(trx, layout));
        return found;
      });
      for (const layout of layouts) {
        totals.push(await count(db, layout.table));
        done.push(await count(db, freshName(layout)));
      }
      resumedRows = rows = done.reduce((a, b) => a + b, 0);
      const first = kept.indexOf(true);
      if (first >= 0) await options.onProgress?.(progress('resume', first));
      for (const [i, layout] of layouts.entries()) {
        for (;;) {
          const batchStarted = now();
          const copied = await db.transaction().execute((trx) => copyAfterCursor(trx, layout, batchRows));
          if (copied === 0) break;
          batches += 1;
          copiedRows += copied;
          rows += copied;
          done[i]! += copied;
          // Rows another process added meanwhile count too (a total that only grows keeps the percentage ≤ 100).
          totals[i] = Math.max(totals[i]!, done[i]!);
          await options.onProgress?.(progress('copy', i));
          await rest(batchStarted);
        }
      }
      await options.onProgress?.(progress('switch', last));
      const switchStarted = now();
      await sql`PRAGMA legacy_alter_table = ON`.execute(db);
      try {
        await db.transaction().execute(async (trx) => {
          for (const layout of layouts) await switchTable(trx, layout);
          const broken = await brokenReferences(trx, layouts);
          if (broken.length > 0) {
            throw new InternalError('MIGRATION_FAILED', `Rebuilding ${layouts.map((l) => l.table).join(' and ')} broke ${broken.length} references (first in ${broken[0]!.table}); nothing was changed.`);
          }
        });
      } catch (error) {
        // A busy lock or a kill leaves the copies for the next run; a refusal (the data's or a lost row) drops them,
        // so the database is as it was and its writes no longer pay for the triggers.
        if (!(error instanceof InternalError)) throw error;
        await db.transaction().execute(async (trx) => {
          for (const layout of layouts) await dropPartial(trx, layout);
        });
        throw error;
      } finally {
        await sql`PRAGMA legacy_alter_table = OFF`.execute(db);
      }
      switchMs = now() - switchStarted;
      await options.onProgress?.(progress('switched', last, { switchMs }));
    }
    // The old tables, renamed aside by the switch (this run's or an earlier one's), are freed a batch at a time.
    for (const [i, layout] of layouts.entries()) {
      const retired = retiredName(layout);
      if ((await schemaSql(db, 'table', retired)) === null) continue;
      const size = await count(db, retired);
      let freed = 0;
      for (;;) {
        const batchStarted = now();
        const result = await db.transaction().execute((trx) => sql.raw(`DELETE FROM ${quoteId(retired)} WHERE rowid IN (SELECT rowid FROM ${quoteId(retired)} ORDER BY rowid LIMIT ${batchRows})`).execute(trx));
        const deleted = Number(result.numAffectedRows ?? 0n);
        if (deleted === 0) break;
        freed += deleted;
        await options.onProgress?.(progress('retire', i, { tableRows: freed, tableTotal: Math.max(size, freed), switchMs }));
        await rest(batchStarted);
      }
      await sql.raw(`DROP TABLE ${quoteId(retired)}`).execute(db);
    }
    await options.onProgress?.(progress('done', last, { switchMs }));
    return { resumedRows, copiedRows, batches, switchMs };
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

const grouped = (n: number) => n.toLocaleString('en-US');

/** "about 3 min left", "about 40 s left". */
function timeLeft(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `about ${seconds} s left`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `about ${minutes} min left` : `about ${(minutes / 60).toFixed(1)} h left`;
}

/** One line for a person: "0013-heads-before-bodies: revisions 45,000 / 200,000 rows (22 %), about 3 min left". */
export function describeProgress(p: RebuildProgress): string {
  const percent = Math.floor((100 * p.tableRows) / Math.max(1, p.tableTotal));
  switch (p.phase) {
    case 'resume':
      return `${p.migration}: resuming an interrupted rebuild, ${grouped(p.rows)} / ${grouped(p.total)} rows copied before`;
    case 'copy':
      return `${p.migration}: ${p.table} ${grouped(p.tableRows)} / ${grouped(p.tableTotal)} rows (${percent} %)${p.leftMs === null ? '' : `, ${timeLeft(p.leftMs)}`}`;
    case 'switch':
      return `${p.migration}: every row copied (${grouped(p.rows)}); switching to the new tables in one transaction`;
    case 'switched':
      return `${p.migration}: switched in ${((p.switchMs ?? 0) / 1000).toFixed(1)} s; freeing the old tables`;
    case 'retire':
      return `${p.migration}: freeing the old ${p.table}, ${grouped(p.tableRows)} / ${grouped(p.tableTotal)} rows (${percent} %)`;
    case 'done':
      return `${p.migration}: done (the switch held the write lock ${((p.switchMs ?? 0) / 1000).toFixed(1)} s)`;
  }
}

/** How often a long rebuild says where it is. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * Passes on at most one batch's report (`copy`, `retire`) every `everyMs`,
 * none in the first `everyMs` (a short rebuild says nothing), and the
 * `switch`, `switched` and `done` reports only of a rebuild that said
 * something before. `resume` always.
 * Each migration's rebuild counts on its own.
 */
export function everyFewSeconds(listener: (progress: RebuildProgress) => void, everyMs = PROGRESS_EVERY_MS): (progress: RebuildProgress) => void {
  let lastAt = 0;
  let spoke = false;
  let migration = '';
  return (progress) => {
    if (progress.migration !== migration) [migration, lastAt, spoke] = [progress.migration, 0, false];
    const batch = progress.phase === 'copy' || progress.phase === 'retire';
    const pass = progress.phase === 'resume' || (batch ? progress.elapsedMs - lastAt >= everyMs : spoke);
    if (!pass) return;
    if (batch) lastAt = progress.elapsedMs;
    spoke = true;
    listener(progress);
  };
}
