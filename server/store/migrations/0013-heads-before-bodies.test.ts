/**
 * Migration 0013 on a real SQLite file written by 0012: every row and column
 * survives, the bodies come last, the constraints and cascades still hold,
 * and foreign keys are on again afterwards.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../database.ts';
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
