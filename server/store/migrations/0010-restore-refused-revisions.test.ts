import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../database.ts';
import { up } from './0010-restore-refused-revisions.ts';

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-0010-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const now = '2026-11-22T12:00:00.000Z';

/** A translation whose revisions 1 (public) and 2 (`state`) exist; the row holds revision 2's text, as before issue 13. */
async function translationWith(language: string, state: 'blocked' | 'pending', status = 'published'): Promise<number> {
  const { id } = await db
    .insertInto('article_translations')
    .values({ article_id: 1, language, status: status as 'published', title: 'Refused', excerpt: 'Refused.', content_markdown: 'casino', seo_title: null, seo_description: null, published_at: now, scheduled_at: null, current_revision_id: null, published_revision_id: null, created_at: now, updated_at: now, content_html: '<p>casino</p>', content_text: 'casino', body_version: 'x' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const revision = (n: number, title: string, markdown: string, moderation: 'passed' | 'blocked' | 'pending') =>
    db.insertInto('revisions').values({ translation_id: id, number: n, title, excerpt: `${title}.`, content_markdown: markdown, seo_title: null, seo_description: null, content_hash: `h${n}`, moderation_state: moderation, moderation_reason: null, created_at: now, decided_at: now, content_html: `<p>${markdown}</p>`, content_text: markdown, body_version: 'v' }).returning('id').executeTakeFirstOrThrow();
  const published = await revision(1, 'Public', 'fine', 'passed');
  const newer = await revision(2, 'Refused', 'casino', state);
  await db.updateTable('article_translations').set({ published_revision_id: published.id, current_revision_id: newer.id }).where('id', '=', id).execute();
  return id;
}

it('restores the public content of a published translation whose current revision was refused, and nothing else', async () => {
  await sql`INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'a', 'pro', ${now})`.execute(db);
  await sql`INSERT INTO channels (id, slug, owner_account_id, default_language, status, created_at, updated_at) VALUES (1, 'c', 1, 'en', 'active', ${now}, ${now})`.execute(db);
  await sql`INSERT INTO articles (id, channel_id, slug, default_language, status, created_at, updated_at) VALUES (1, 1, 'a', 'en', 'published', ${now}, ${now})`.execute(db);
  const blocked = await translationWith('en', 'blocked');
  const waiting = await translationWith('fr', 'pending');
  await up(db as never);
  const rows = await db.selectFrom('article_translations').selectAll().orderBy('id').execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(blocked)).toMatchObject({ title: 'Public', excerpt: 'Public.', content_markdown: 'fine', content_html: '<p>fine</p>', content_text: 'fine', body_version: 'v' });
  expect(byId.get(blocked)!.current_revision_id).toBe(byId.get(blocked)!.published_revision_id);
  // A revision still waiting is the translation's current content, as the API shows it.
  expect(byId.get(waiting)).toMatchObject({ title: 'Refused', content_markdown: 'casino' });
  expect(byId.get(waiting)!.current_revision_id).not.toBe(byId.get(waiting)!.published_revision_id);
});
