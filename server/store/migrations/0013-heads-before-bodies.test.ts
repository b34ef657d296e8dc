/**
 * Migration 0013 on a real SQLite file written by 0012: every row and column
 * survives, the bodies come last, the constraints and cascades still hold,
 * and foreign keys are on again afterwards; it ends where the one-transaction
 * rebuild it replaced ended, runs in batches, and resumes after a kill.
 */
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../database.ts';
import type { RebuildOptions, RebuildProgress } from '../table-rebuild.ts';
import { REVISIONS, TRANSLATIONS, up } from './0013-heads-before-bodies.ts';
import { reportingMigrations } from './index.ts';
import { databaseBefore, type DatabaseBefore } from '../../../test/helpers/migrated-database.ts';

let before: DatabaseBefore;
let db: Db;
const now = '2026-11-26T12:00:00.000Z';

beforeEach(async () => {
  before = await databaseBefore('0013');
  db = before.db;
});
afterEach(() => before.remove());

const columns = async (table: string) => (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name);
const apply = () => before.applyRest();

it('keeps every row and column, puts the bodies last, and keeps the constraints and cascades', async () => {
  await sql`INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'a', 'pro', ${now})`.execute(db);
  await sql`INSERT INTO channels (id, slug, owner_account_id, default_language, status, created_at, updated_at) VALUES (1, 'c', 1, 'en', 'active', ${now}, ${now})`.execute(db);
  await sql`INSERT INTO articles (id, channel_id, slug, default_language, status, created_at, updated_at) VALUES (1, 1, 'a', 'en', 'published', ${now}, ${now})`.execute(db);
  const long = 'Long body. '.repeat(2000); // spills to overflow pages, as real bodies do
  await db
    .insertInto('article_translations')
    .values({ id: 7, article_id: 1, language: 'en', status: 'published', title: 'T', excerpt: 'E', content_markdown: long, seo_title: 'S', seo_description: 'D', published_at: now, scheduled_at: null, current_revision_id: 9, published_revision_id: 9, created_at: now, updated_at: now, content_html: `<p>${long}</p>`, content_text: long, body_version: 'v', link_targets: '[]' })
    .execute();
  await db
    .insertInto('revisions')
    .values({ id: 9, translation_id: 7, number: 1, title: 'T', excerpt: 'E', content_markdown: long, seo_title: 'S', seo_description: 'D', content_hash: 'h', moderation_state: 'passed', moderation_reason: null, created_at: now, decided_at: now, content_html: `<p>${long}</p>`, content_text: long, body_version: 'v', link_targets: '[]', image_html: '' })
    .execute();
  const translationBefore = await db.selectFrom('article_translations').selectAll().executeTakeFirstOrThrow();
  const revisionBefore = await db.selectFrom('revisions').selectAll().executeTakeFirstOrThrow();

  await apply();

  // Later migrations add columns after the bodies (0015: `content_prose`, read only with them, in a full read).
  const later = { content_prose: null };
  expect(await db.selectFrom('article_translations').selectAll().executeTakeFirstOrThrow()).toEqual({ ...translationBefore, ...later });
  expect(await db.selectFrom('revisions').selectAll().executeTakeFirstOrThrow()).toEqual({ ...revisionBefore, ...later });
  const of0013 = async (table: string) => (await columns(table)).filter((c) => !(c in later));
  expect((await of0013('revisions')).slice(-3)).toEqual(['content_text', 'content_html', 'content_markdown']);
  expect((await of0013('article_translations')).slice(-3)).toEqual(['content_text', 'content_html', 'content_markdown']);
  expect((await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]!.foreign_keys).toBe(1);
  // The constraints came along: a second translation in the same language, a revision of no translation, a bad state.
  await expect(sql`INSERT INTO article_translations (article_id, language, status, title, content_markdown, created_at, updated_at) VALUES (1, 'en', 'draft', 'x', 'x', ${now}, ${now})`.execute(db)).rejects.toThrow(/UNIQUE/);
  await expect(sql`INSERT INTO revisions (translation_id, number, title, content_markdown, content_hash, moderation_state, created_at) VALUES (999, 1, 'x', 'x', 'h', 'passed', ${now})`.execute(db)).rejects.toThrow(/FOREIGN KEY/);
  await expect(sql`UPDATE revisions SET moderation_state = 'maybe'`.execute(db)).rejects.toThrow(/CHECK/);
  // Deleting the article still takes its translations and their revisions with it.
  await sql`DELETE FROM articles WHERE id = 1`.execute(db);
  expect(await db.selectFrom('revisions').select('id').execute()).toEqual([]);
});

it('refuses a table whose columns are not the ones it knows, and changes nothing, not even the table rebuilt before it', async () => {
  await sql`ALTER TABLE article_translations ADD COLUMN surprise TEXT`.execute(db);
  await expect(apply()).rejects.toThrow(/article_translations has the columns .*surprise/);
  expect(await columns('article_translations')).toContain('surprise');
  // `revisions` was rebuilt first, in the same transaction: it is as it was.
  expect((await columns('revisions'))[5]).toBe('content_markdown');
  expect((await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]!.foreign_keys).toBe(1);
});

/** Articles 1…n, each in en and ar, each translation with two revisions; bodies of every size and script. */
async function fill(articles: number): Promise<void> {
  await sql`INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'a', 'pro', ${now})`.execute(db);
  await sql`INSERT INTO channels (id, slug, owner_account_id, default_language, status, created_at, updated_at) VALUES (1, 'c', 1, 'en', 'active', ${now}, ${now})`.execute(db);
  for (let a = 1; a <= articles; a++) {
    await sql`INSERT INTO articles (id, channel_id, slug, default_language, status, created_at, updated_at) VALUES (${a}, 1, ${`a-${a}`}, 'en', 'published', ${now}, ${now})`.execute(db);
    for (const [l, language] of ['en', 'ar'].entries()) {
      const t = a * 10 + l;
      const body = language === 'ar' ? `نص المقالة ${a} `.repeat(a * 300) : `Body ${a}. `.repeat(a * 500);
      await db
        .insertInto('article_translations')
        .values({ id: t, article_id: a, language, status: 'published', title: `T${a}`, excerpt: a % 2 ? null : 'E', content_markdown: body, seo_title: null, seo_description: 'D', published_at: now, scheduled_at: null, current_revision_id: t * 10 + 2, published_revision_id: t * 10 + 1, created_at: now, updated_at: now, content_html: `<p>${body}</p>`, content_text: body, body_version: 'v', link_targets: '[]' })
        .execute();
      for (const number of [1, 2]) {
        await db
          .insertInto('revisions')
          .values({ id: t * 10 + number, translation_id: t, number, title: `T${a}`, excerpt: null, content_markdown: body + number, seo_title: 'S', seo_description: null, content_hash: `h${t}${number}`, moderation_state: number === 1 ? 'passed' : 'pending', moderation_reason: null, created_at: now, decided_at: number === 1 ? now : null, content_html: `<p>${body}</p>`, content_text: body, body_version: 'v', link_targets: null, image_html: number === 2 ? '<img src="x.webp">' : '' })
          .execute();
      }
    }
  }
}

/** Every row of `table` by id, each value as its type and hex bytes, for the columns 0012 had (by name: their order changes). */
async function snapshot(table: string, names: readonly string[]): Promise<string[]> {
  const select = [...names].sort().map((c) => `'${c}=' || typeof("${c}") || ':' || coalesce(hex("${c}"), '')`).join(` || ' ' || `);
  return (await sql.raw<{ row: string }>(`SELECT ${select} AS row FROM "${table}" ORDER BY id`).execute(db)).rows.map((r) => r.row);
}
const tables = ['revisions', 'article_translations'] as const;
const upTo0013 = (options: RebuildOptions = {}) => up(db as unknown as Kysely<unknown>, options);

it('ends exactly where the one-transaction rebuild it replaced ended: the same schema, and every row byte for byte', async () => {
  await fill(3);
  const names = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await columns(t)] as const)));
  const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await snapshot(t, names[t]!)] as const)));
  // The procedure 0013 ran before issue 36, on a copy of the same file: create, copy, drop, rename, in one transaction.
  const reference = await databaseBefore('0013');
  try {
    await sql`VACUUM INTO ${`${reference.dir}/copy.db`}`.execute(db);
    const copy = openDatabase(`${reference.dir}/copy.db`);
    await sql`PRAGMA foreign_keys = OFF`.execute(copy);
    await copy.transaction().execute(async (trx) => {
      for (const layout of [REVISIONS, TRANSLATIONS]) {
        await sql.raw(layout.create(`${layout.table}_reordered`)).execute(trx);
        await sql.raw(`INSERT INTO ${layout.table}_reordered (${layout.columns.join(', ')}) SELECT ${layout.columns.join(', ')} FROM ${layout.table}`).execute(trx);
        await sql.raw(`DROP TABLE ${layout.table}`).execute(trx);
        await sql.raw(`ALTER TABLE ${layout.table}_reordered RENAME TO ${layout.table}`).execute(trx);
      }
    });
    const schemaOf = async (on: Db) => (await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'kysely_%' ORDER BY type, name`.execute(on)).rows;
    const expected = await schemaOf(copy);
    await copy.destroy();

    await upTo0013({ batchRows: 5, restShare: 0 });
    expect(await schemaOf(db)).toEqual(expected);
    for (const t of tables) expect(await snapshot(t, names[t]!)).toEqual(before[t]);
    expect((await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]!.foreign_keys).toBe(1);
  } finally {
    await reference.remove();
  }
});

it('copies in batches, and a run killed between batches resumes on the next start without losing or repeating a row', async () => {
  await fill(4); // 8 translations, 16 revisions
  const names = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await columns(t)] as const)));
  const seen: RebuildProgress[] = [];
  const killed = new Error('killed after 3 batches');
  await expect(
    upTo0013({
      batchRows: 5,
      restShare: 0,
      onProgress: (p) => {
        seen.push(p);
        if (p.batches === 3) throw killed;
      },
    }),
  ).rejects.toBe(killed);
  expect(seen.map((p) => [p.table, p.tableRows, p.tableTotal, p.rows, p.total])).toEqual([
    ['revisions', 5, 16, 5, 24],
    ['revisions', 10, 16, 10, 24],
    ['revisions', 15, 16, 15, 24],
  ]);
  // Killed: 0012's tables as they were, the copy so far kept beside them.
  expect((await columns('revisions'))[5]).toBe('content_markdown');
  expect((await sql<{ n: number }>`SELECT count(*) AS n FROM revisions_reordered`.execute(db)).rows[0]!.n).toBe(15);
  // The old version keeps serving meanwhile: a revision is moderated, one is added, a translation (and its revisions) deleted.
  await sql`UPDATE revisions SET moderation_state = 'passed', decided_at = ${now} WHERE id = 102`.execute(db);
  await sql`INSERT INTO revisions (id, translation_id, number, title, content_markdown, content_hash, moderation_state, created_at) VALUES (103, 10, 3, 'T', 'third', 'h', 'pending', ${now})`.execute(db);
  await sql`DELETE FROM article_translations WHERE id = 20`.execute(db);
  const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await snapshot(t, names[t]!)] as const)));

  // The next start runs the migrations again: 0013 resumes, then every later one runs.
  await apply();
  for (const t of tables) expect(await snapshot(t, names[t]!)).toEqual(before[t]);
  expect((await columns('revisions')).slice(-4)).toEqual(['content_text', 'content_html', 'content_markdown', 'content_prose']);
  const left = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name LIKE '%reordered%' OR name LIKE '%retired%'`.execute(db)).rows;
  expect(left).toEqual([]);
});

it('tells the migrations\' listener where the rebuild is', async () => {
  await fill(1);
  const phases: string[] = [];
  await reportingMigrations((p) => phases.push(`${p.migration} ${p.phase} ${p.table}`))['0013-heads-before-bodies']!.up(db);
  expect(phases).toEqual([
    '0013-heads-before-bodies copy revisions',
    '0013-heads-before-bodies copy article_translations',
    '0013-heads-before-bodies switch article_translations',
    '0013-heads-before-bodies switched article_translations',
    '0013-heads-before-bodies retire revisions',
    '0013-heads-before-bodies retire article_translations',
    '0013-heads-before-bodies done article_translations',
  ]);
});
