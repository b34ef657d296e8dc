/**
 * The batched table rebuild on a real SQLite file (WAL), with a second
 * connection standing for a server that keeps writing the old table between
 * batches: every row arrives byte for byte, a run stopped between batches
 * resumes without losing or repeating a row, the switch keeps the old
 * table's indexes and triggers and refuses to break a reference or lose a row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.ts';
import { describeProgress, everyFewSeconds, rebuildTables, type RebuildProgress, type TableLayout } from './table-rebuild.ts';

let dir: string;
let db: Db;
/** Another process's connection: the server that keeps serving during the rebuild. */
let other: Db;
const raw = () => db as unknown as Kysely<unknown>;

const CHILDREN: TableLayout = {
  table: 'children',
  create: (name) => `CREATE TABLE ${name} (
      id INTEGER PRIMARY KEY,
      parent_id INTEGER NOT NULL REFERENCES parents(id) ON DELETE CASCADE,
      number INTEGER NOT NULL,
      body TEXT,
      UNIQUE (parent_id, number)
    )`,
  columns: ['id', 'parent_id', 'number', 'body'],
};
const PARENTS: TableLayout = {
  table: 'parents',
  create: (name) => `CREATE TABLE ${name} (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      notes BLOB
    )`,
  columns: ['id', 'name', 'notes'],
};

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-rebuild-'));
  db = openDatabase(path.join(dir, 'test.db'));
  other = openDatabase(path.join(dir, 'test.db'));
  // The old layouts: bodies first.
  await sql`CREATE TABLE parents (notes BLOB, name TEXT NOT NULL, id INTEGER PRIMARY KEY)`.execute(db);
  await sql`CREATE TABLE children (body TEXT, id INTEGER PRIMARY KEY, number INTEGER NOT NULL, parent_id INTEGER NOT NULL REFERENCES parents(id) ON DELETE CASCADE, UNIQUE (parent_id, number))`.execute(db);
  await sql`CREATE INDEX children_number ON children(number)`.execute(db);
  await sql`CREATE TABLE audit (child_id INTEGER)`.execute(db);
  await sql`CREATE TRIGGER children_audit AFTER DELETE ON children BEGIN INSERT INTO audit VALUES (OLD.id); END`.execute(db);
  await sql`INSERT INTO parents (id, name, notes) VALUES (1, 'one', x'00ff10'), (2, 'two', NULL), (3, 'three', x'')`.execute(db);
  // Bodies of every kind: long (overflow pages), empty, NULL, non-ASCII, a number in a TEXT column, a blob.
  for (let id = 1; id <= 10; id++) {
    const body = id === 1 ? 'x'.repeat(20_000) : id === 2 ? '' : id === 3 ? null : `body ${id} — ✓ عربى`;
    await sql`INSERT INTO children (id, parent_id, number, body) VALUES (${id * 10}, ${(id % 3) + 1}, ${id}, ${body})`.execute(db);
  }
  await sql`UPDATE children SET body = x'deadbeef' WHERE id = 40`.execute(db);
});
afterEach(async () => {
  await other.destroy();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every row of `table` by id, each value as its type and hex bytes, columns by name (their order is what changes). */
async function snapshot(table: string, on: Db = db): Promise<string[]> {
  const { rows: cols } = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) ORDER BY name`.execute(on);
  const select = cols.map((c) => `'${c.name}=' || typeof("${c.name}") || ':' || coalesce(hex("${c.name}"), '')`).join(` || ' ' || `);
  return (await sql.raw<{ row: string }>(`SELECT ${select} AS row FROM "${table}" ORDER BY id`).execute(on)).rows.map((r) => r.row);
}
const columns = async (table: string) => (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name);
const schema = async () => (await sql<{ name: string; sql: string }>`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name`.execute(db)).rows;
const foreignKeys = async () => (await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]!.foreign_keys;

describe('rebuildTables', () => {
  it('copies in batches of N rows in key order, says where it is, and switches to the new layout', async () => {
    const before = { children: await snapshot('children'), parents: await snapshot('parents') };
    const seen: RebuildProgress[] = [];
    let clock = 0;
    const report = await rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], {
      batchRows: 3,
      restShare: 0,
      now: () => (clock += 100),
      onProgress: (p) => void seen.push(p),
    });
    expect(report).toMatchObject({ resumedRows: 0, copiedRows: 13, batches: 4 + 1 });
    expect(seen.map((p) => [p.phase, p.table, p.tableRows, p.tableTotal, p.rows, p.total])).toEqual([
      ['copy', 'children', 3, 10, 3, 13],
      ['copy', 'children', 6, 10, 6, 13],
      ['copy', 'children', 9, 10, 9, 13],
      ['copy', 'children', 10, 10, 10, 13],
      ['copy', 'parents', 3, 3, 13, 13],
      ['switch', 'parents', 3, 3, 13, 13],
      ['switched', 'parents', 3, 3, 13, 13],
      // The old tables, renamed aside, are freed in batches too.
      ['retire', 'children', 3, 10, 13, 13],
      ['retire', 'children', 6, 10, 13, 13],
      ['retire', 'children', 9, 10, 13, 13],
      ['retire', 'children', 10, 10, 13, 13],
      ['retire', 'parents', 3, 3, 13, 13],
      ['done', 'parents', 3, 3, 13, 13],
    ]);
    // The estimate is this run's rate over what is left: nothing left at the end.
    expect(seen[0]!.leftMs).toBeGreaterThan(0);
    expect(seen.at(-1)!.leftMs).toBe(0);
    expect(seen.at(-1)!.switchMs).toBeGreaterThan(0);
    expect(await columns('children')).toEqual(CHILDREN.columns);
    expect(await columns('parents')).toEqual(PARENTS.columns);
    expect(await snapshot('children')).toEqual(before.children);
    expect(await snapshot('parents')).toEqual(before.parents);
    // The old table's own index and trigger are back; the mirroring triggers and the copies are gone.
    const objects = await schema();
    expect(objects.map((o) => o.name).sort()).toEqual(['audit', 'children', 'children_audit', 'children_number', 'parents', 'sqlite_autoindex_children_1'].sort());
    expect(objects.find((o) => o.name === 'children')!.sql).toBe(CHILDREN.create('"children"'));
    expect(await foreignKeys()).toBe(1);
    // The constraints, the cascade and the trigger work on the new tables.
    await expect(sql`INSERT INTO children (parent_id, number) VALUES (2, 1)`.execute(db)).rejects.toThrow(/UNIQUE/);
    await expect(sql`INSERT INTO children (parent_id, number) VALUES (99, 1)`.execute(db)).rejects.toThrow(/FOREIGN KEY/);
    await sql`DELETE FROM parents WHERE id = 1`.execute(db);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM children WHERE parent_id = 1`.execute(db)).rows[0]!.n).toBe(0);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM audit`.execute(db)).rows[0]!.n).toBe(3);
  });

  it('keeps every write another connection makes between batches and before the switch', async () => {
    let expected: { children: string[]; parents: string[] } | null = null;
    await rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], {
      batchRows: 3,
      restShare: 0,
      onProgress: async (p) => {
        if (p.phase === 'copy' && p.table === 'children' && p.tableRows === 6) {
          // Copied rows (ids 10–60) and rows not copied yet (70–100), written as a server would, foreign keys on.
          await sql`UPDATE children SET body = 'changed after its copy' WHERE id = 20`.execute(other);
          await sql`UPDATE children SET body = 'changed before its copy' WHERE id = 80`.execute(other);
          await sql`DELETE FROM children WHERE id IN (30, 90)`.execute(other);
          await sql`INSERT INTO children (id, parent_id, number, body) VALUES (35, 1, 35, 'new, below the cursor')`.execute(other);
          await sql`INSERT INTO children (parent_id, number, body) VALUES (2, 101, 'new, at the end')`.execute(other);
          // A changed key crosses the cursor both ways.
          await sql`UPDATE children SET id = 200 WHERE id = 50`.execute(other);
          await sql`UPDATE children SET id = 45 WHERE id = 70`.execute(other);
          // The last copied row deleted: the cursor moves back, and nothing after it is lost.
          await sql`DELETE FROM children WHERE id = 60`.execute(other);
          // A parent's delete cascades to its children in both tables.
          await sql`DELETE FROM parents WHERE id = 3`.execute(other);
        }
        if (p.phase === 'copy' && p.table === 'parents') {
          // The other table is mirrored too: its triggers exist from the first batch on.
          await sql`UPDATE parents SET notes = x'0102' WHERE id = 1`.execute(other);
          await sql`UPDATE children SET body = 'after the table was copied' WHERE id = 100`.execute(other);
        }
        if (p.phase === 'switch') {
          // After the last batch: the switch copies these.
          await sql`INSERT INTO parents (id, name) VALUES (9, 'late')`.execute(other);
          await sql`INSERT INTO children (id, parent_id, number, body) VALUES (500, 9, 1, 'late')`.execute(other);
          expected = { children: await snapshot('children', other), parents: await snapshot('parents', other) };
        }
      },
    });
    expect(expected).not.toBeNull();
    expect(await snapshot('children')).toEqual(expected!.children);
    expect(await snapshot('parents')).toEqual(expected!.parents);
    expect(await columns('children')).toEqual(CHILDREN.columns);
    // The other connection reads and writes the new table at once.
    await sql`INSERT INTO children (parent_id, number, body) VALUES (1, 77, 'after')`.execute(other);
    expect((await snapshot('children')).length).toBe(expected!.children.length + 1);
  });

  it('resumes a run stopped between batches where it stopped, with what was written meanwhile, and copies nothing twice', async () => {
    const stop = new Error('killed');
    await expect(
      rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], {
        batchRows: 3,
        restShare: 0,
        onProgress: (p) => {
          if (p.phase === 'copy' && p.batches === 2) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    // Stopped: the old tables as they were, the partial copy kept, foreign keys on again.
    expect(await columns('children')).toEqual(['body', 'id', 'number', 'parent_id']);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM children_reordered`.execute(db)).rows[0]!.n).toBe(6);
    expect(await foreignKeys()).toBe(1);
    // The server writes while nothing migrates: the triggers keep the copy in step.
    await sql`UPDATE children SET body = 'while stopped' WHERE id = 10`.execute(other);
    await sql`DELETE FROM children WHERE id = 20`.execute(other);
    await sql`INSERT INTO children (parent_id, number, body) VALUES (3, 55, 'while stopped')`.execute(other);
    const expected = await snapshot('children');

    const seen: RebuildProgress[] = [];
    const report = await rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], { batchRows: 3, restShare: 0, onProgress: (p) => void seen.push(p) });
    expect(seen[0]).toMatchObject({ phase: 'resume', table: 'children', tableRows: 5, tableTotal: 10, rows: 5 });
    expect(describeProgress(seen[0]!)).toBe('test-rebuild: resuming an interrupted rebuild, 5 / 13 rows copied before');
    // Only the rest: 10 − 5 children left (70–100 and the new one), then the 3 parents.
    expect(report).toMatchObject({ resumedRows: 5, copiedRows: 5 + 3, batches: 2 + 1 });
    expect(await snapshot('children')).toEqual(expected);
    expect(await columns('children')).toEqual(CHILDREN.columns);
  });

  it('finishes freeing the old tables when a run is stopped after its switch, and copies nothing again', async () => {
    const before = await snapshot('children');
    const stop = new Error('killed');
    await expect(
      rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], {
        batchRows: 4,
        restShare: 0,
        onProgress: (p) => {
          if (p.phase === 'retire') throw stop;
        },
      }),
    ).rejects.toBe(stop);
    // Switched: the new tables serve (the other connection writes one, its cascade reaches the old rows too), the old ones wait to be freed.
    expect(await columns('children')).toEqual(CHILDREN.columns);
    expect((await schema()).map((o) => o.name)).toEqual(expect.arrayContaining(['children_retired', 'parents_retired']));
    await sql`INSERT INTO children (parent_id, number, body) VALUES (1, 88, 'after the switch')`.execute(other);
    await sql`DELETE FROM parents WHERE id = 2`.execute(other);
    const expected = await snapshot('children');
    expect(expected).not.toEqual(before);

    const seen: string[] = [];
    const report = await rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], { batchRows: 4, restShare: 0, onProgress: (p) => void seen.push(p.phase) });
    expect(report).toMatchObject({ copiedRows: 0, batches: 0, switchMs: 0 });
    expect(seen).toEqual(['retire', 'retire', 'done']);
    expect(await snapshot('children')).toEqual(expected);
    expect((await schema()).map((o) => o.name).filter((n) => /retired|reordered/.test(n))).toEqual([]);
  });

  it('starts over when the partial table is not what this run would make', async () => {
    await sql`CREATE TABLE children_reordered (id INTEGER PRIMARY KEY, stale TEXT)`.execute(db);
    await sql`INSERT INTO children_reordered VALUES (1000, 'left by another version')`.execute(db);
    const before = await snapshot('children');
    const report = await rebuildTables(raw(), 'test-rebuild', [CHILDREN], { restShare: 0 });
    expect(report.resumedRows).toBe(0);
    expect(await snapshot('children')).toEqual(before);
  });

  it('refuses a switch that would break a reference, and leaves the database as it was', async () => {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    await sql`INSERT INTO children (id, parent_id, number) VALUES (999, 42, 1)`.execute(db);
    await sql`PRAGMA foreign_keys = ON`.execute(db);
    const before = await schema();
    await expect(rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS], { batchRows: 4, restShare: 0 })).rejects.toThrow('Rebuilding children and parents broke 1 references (first in children); nothing was changed.');
    expect(await schema()).toEqual(before);
    expect(await foreignKeys()).toBe(1);
  });

  it('refuses a switch that would lose a row a writer hid from the triggers, and drops its copies', async () => {
    const before = await schema();
    await expect(
      rebuildTables(raw(), 'test-rebuild', [CHILDREN], {
        batchRows: 4,
        restShare: 0,
        onProgress: async (p) => {
          if (p.phase !== 'copy' || p.batches !== 1) return;
          // As a REPLACE's delete would (it fires no trigger): a copied row goes from the old table only.
          await sql`DROP TRIGGER children_reordered_delete`.execute(other);
          await sql`DELETE FROM children WHERE id = 10`.execute(other);
        },
      }),
    ).rejects.toThrow('Rebuilding children copied 10 rows of 9; nothing was changed.');
    expect((await schema()).map((o) => o.name)).toEqual(before.map((o) => o.name));
  });

  it('refuses a table whose columns are not the layout\'s before it changes anything', async () => {
    await sql`ALTER TABLE parents ADD COLUMN surprise TEXT`.execute(db);
    const before = await schema();
    await expect(rebuildTables(raw(), 'test-rebuild', [CHILDREN, PARENTS])).rejects.toThrow(/parents has the columns id, name, notes, surprise; this migration expects id, name, notes/);
    expect(await schema()).toEqual(before);
  });
});

describe('progress', () => {
  const at = (over: Partial<RebuildProgress>): RebuildProgress => ({
    migration: '0013-heads-before-bodies',
    phase: 'copy',
    table: 'revisions',
    tableRows: 45_000,
    tableTotal: 200_000,
    rows: 45_000,
    total: 400_000,
    batches: 90,
    elapsedMs: 0,
    leftMs: 180_000,
    ...over,
  });

  it('is one line a person reads', () => {
    expect(describeProgress(at({}))).toBe('0013-heads-before-bodies: revisions 45,000 / 200,000 rows (22 %), about 3 min left');
    expect(describeProgress(at({ leftMs: 40_000 }))).toBe('0013-heads-before-bodies: revisions 45,000 / 200,000 rows (22 %), about 40 s left');
    expect(describeProgress(at({ leftMs: null }))).toBe('0013-heads-before-bodies: revisions 45,000 / 200,000 rows (22 %)');
    expect(describeProgress(at({ phase: 'switch', rows: 400_000 }))).toBe('0013-heads-before-bodies: every row copied (400,000); switching to the new tables in one transaction');
    expect(describeProgress(at({ phase: 'switched', switchMs: 1234 }))).toBe('0013-heads-before-bodies: switched in 1.2 s; freeing the old tables');
    expect(describeProgress(at({ phase: 'retire', tableRows: 100_000 }))).toBe('0013-heads-before-bodies: freeing the old revisions, 100,000 / 200,000 rows (50 %)');
    expect(describeProgress(at({ phase: 'done', switchMs: 1234 }))).toBe('0013-heads-before-bodies: done (the switch held the write lock 1.2 s)');
  });

  it('is passed on every few seconds of a long rebuild, and not at all for a short one', () => {
    const said: string[] = [];
    const listener = everyFewSeconds((p) => said.push(`${p.phase}@${p.elapsedMs}`), 5000);
    for (const elapsedMs of [100, 4900, 5100, 6000, 10_000, 10_200, 16_000]) listener(at({ elapsedMs }));
    listener(at({ phase: 'switch', elapsedMs: 17_000 }));
    listener(at({ phase: 'switched', elapsedMs: 17_500 }));
    for (const elapsedMs of [18_000, 21_000, 22_000]) listener(at({ phase: 'retire', elapsedMs }));
    listener(at({ phase: 'done', elapsedMs: 23_000 }));
    expect(said).toEqual(['copy@5100', 'copy@10200', 'copy@16000', 'switch@17000', 'switched@17500', 'retire@21000', 'done@23000']);
    // Another migration's short rebuild: silent again.
    const quiet: string[] = [];
    const again = everyFewSeconds((p) => quiet.push(p.phase), 5000);
    for (const phase of ['copy', 'switch', 'switched', 'retire', 'done'] as const) again(at({ migration: 'short', phase, elapsedMs: 10 }));
    expect(quiet).toEqual([]);
    again(at({ migration: 'short', phase: 'resume' }));
    expect(quiet).toEqual(['resume']);
  });
});
