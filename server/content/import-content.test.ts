import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { channelAccess } from '../domain/account/access.ts';
import { ensureAccount, type Principal } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import { insertChannelFor } from '../domain/channel/channel.service.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { API_OWNED_MESSAGE, importContent } from './import-content.ts';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content');
const CHANNEL = 'pressroom-journal';
const SAMPLE_ARTICLES = ['right-to-left-publishing', 'welcome', 'writing-in-markdown'];

let dir: string;
let contentDir: string;
let db: Db;
let accountId: number;
let logLines: string[];
const clock = manualClock('2026-11-22T12:00:00.000Z');

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-content-'));
  contentDir = path.join(dir, 'content');
  fs.cpSync(SAMPLE, contentDir, { recursive: true });
  db = openDatabase(path.join(dir, 'data', 'pressroom.sqlite'));
  await migrateToLatest(db);
  accountId = (await ensureAccount(db, clock, 'local', 'pro')).account.id;
  logLines = [];
});

afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

function run() {
  const log = createLogger('warn', 'content', (line) => logLines.push(line));
  return importContent({ db, clock, log }, contentDir, accountId);
}

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(contentDir, rel)), { recursive: true });
  fs.writeFileSync(path.join(contentDir, rel), text);
}

function edit(rel: string, change: (text: string) => string): void {
  write(rel, change(fs.readFileSync(path.join(contentDir, rel), 'utf8')));
}

async function articlesBySlug() {
  const rows = await db.selectFrom('articles').selectAll().orderBy('slug').execute();
  return new Map(rows.map((r) => [r.slug, r]));
}

async function translationsOf(slug: string) {
  return db
    .selectFrom('article_translations')
    .innerJoin('articles', 'articles.id', 'article_translations.article_id')
    .select(['article_translations.language', 'article_translations.status', 'article_translations.title', 'article_translations.content_markdown', 'article_translations.published_revision_id', 'article_translations.current_revision_id'])
    .where('articles.slug', '=', slug)
    .orderBy('article_translations.language')
    .execute();
}

describe('importContent', () => {
  it('imports the sample content: one channel, three published articles in en and ar, no moderation queued', async () => {
    const report = await run();
    expect(report).toEqual({ counts: { channels: 1, articles: 3, unchanged: 0, errors: 0 }, errors: [] });

    const channel = await db.selectFrom('channels').selectAll().where('slug', '=', CHANNEL).executeTakeFirstOrThrow();
    expect(channel).toMatchObject({ owner_account_id: accountId, default_language: 'en', status: 'active', homepage_enabled: 1 });
    const channelTitles = await db.selectFrom('channel_translations').select(['language', 'title']).where('channel_id', '=', channel.id).orderBy('language').execute();
    expect(channelTitles).toEqual([{ language: 'ar', title: 'مجلة بريسروم' }, { language: 'en', title: 'Pressroom Journal' }]);

    const articles = await articlesBySlug();
    expect([...articles.keys()]).toEqual(SAMPLE_ARTICLES);
    for (const slug of SAMPLE_ARTICLES) {
      expect(articles.get(slug)).toMatchObject({ status: 'published', source: 'content', default_language: 'en', author_name: 'Pressroom Editors' });
      expect(articles.get(slug)!.source_hash).toMatch(/^[0-9a-f]{64}$/);
      const translations = await translationsOf(slug);
      expect(translations.map((t) => [t.language, t.status])).toEqual([['ar', 'published'], ['en', 'published']]);
      for (const t of translations) {
        expect(t.published_revision_id).not.toBeNull();
        expect(t.content_markdown).toMatch(/^## /); // front matter stripped, no H1
      }
    }
    const jobs = await db.selectFrom('jobs').select('kind').execute();
    expect(jobs).toEqual([]); // trusted: nothing waits for moderation
    const revisions = await db.selectFrom('revisions').select('moderation_state').distinct().execute();
    expect(revisions).toEqual([{ moderation_state: 'passed' }]);
  });

  it('counts everything as unchanged on a second run', async () => {
    await run();
    const before = await articlesBySlug();
    clock.advance(60_000);
    expect(await run()).toEqual({ counts: { channels: 0, articles: 0, unchanged: 4, errors: 0 }, errors: [] });
    const after = await articlesBySlug();
    for (const slug of SAMPLE_ARTICLES) expect(after.get(slug)!.updated_at).toBe(before.get(slug)!.updated_at);
  });

  it('re-imports only the article whose file changed', async () => {
    await run();
    const before = await articlesBySlug();
    edit(`${CHANNEL}/welcome/ar.md`, (text) => `${text}\nفقرة جديدة في آخر المقالة.\n`);
    clock.advance(60_000);
    expect((await run()).counts).toEqual({ channels: 0, articles: 1, unchanged: 3, errors: 0 });
    const after = await articlesBySlug();
    expect(after.get('welcome')!.source_hash).not.toBe(before.get('welcome')!.source_hash);
    expect(after.get('writing-in-markdown')!.updated_at).toBe(before.get('writing-in-markdown')!.updated_at);
    const ar = (await translationsOf('welcome')).find((t) => t.language === 'ar')!;
    expect(ar.content_markdown).toContain('فقرة جديدة في آخر المقالة.');
    expect(ar.status).toBe('published');
    expect(ar.published_revision_id).toBe(ar.current_revision_id); // the edit is public, not waiting
  });

  it('reports invalid files by path and still imports the rest', async () => {
    write(`${CHANNEL}/bad-yaml/en.md`, '---\ntitle: [unclosed\n---\nBody');
    write(`${CHANNEL}/bad-fields/en.md`, '---\ntitle: ""\nstatus: live\n---\nBody');
    write(`${CHANNEL}/no-primary/ar.md`, '---\ntitle: بلا إنجليزية\n---\nنص');
    write(`${CHANNEL}/Not_A_Slug/en.md`, '---\ntitle: Hello\n---\nBody');
    const report = await run();
    expect(report.counts).toEqual({ channels: 1, articles: 3, unchanged: 0, errors: 4 });
    expect(report.errors).toEqual([
      { file: `${CHANNEL}/Not_A_Slug/`, message: expect.stringContaining('not a valid article slug') },
      { file: `${CHANNEL}/bad-fields/en.md`, message: expect.stringMatching(/^Invalid front matter: title: Must not be empty\. Give a title\.; status: "live" is not allowed/) },
      { file: `${CHANNEL}/bad-yaml/en.md`, message: expect.stringMatching(/^Front matter is not valid YAML: .*line 2/) },
      { file: `${CHANNEL}/no-primary/en.md`, message: expect.stringMatching(/^Missing: /) },
    ]);
    expect([...(await articlesBySlug()).keys()]).toEqual(SAMPLE_ARTICLES);
    expect(logLines.filter((l) => l.includes('WARN') && l.includes('bad-yaml/en.md'))).toHaveLength(1);
  });

  it('reports a write the service rejects against the file to fix, without writing any of the article', async () => {
    // Rule 1 of publishing: a secondary translation is not published before the primary.
    write(`${CHANNEL}/early/en.md`, '---\ntitle: Early\nstatus: draft\n---\nBody');
    write(`${CHANNEL}/early/ar.md`, '---\ntitle: مبكر\nstatus: published\n---\nنص');
    const report = await run();
    expect(report.errors).toEqual([{ file: `${CHANNEL}/early/ar.md`, message: expect.stringMatching(/^status: The "ar" translation cannot be published before/) }]);
    expect((await articlesBySlug()).has('early')).toBe(false);
  });

  it('reports a body over the body limits against its file, and imports the rest', async () => {
    // 2,000 nested blockquotes used to overflow the parser's stack.
    write(`${CHANNEL}/deep/en.md`, `---\ntitle: Deep\nstatus: published\n---\n${'>'.repeat(2_000)} x`);
    write(`${CHANNEL}/fine/en.md`, '---\ntitle: Fine\nstatus: published\n---\nFine.');
    const report = await run();
    expect(report.errors).toEqual([{ file: `${CHANNEL}/deep/en.md`, message: expect.stringContaining('limit markdownDepth') }]);
    const slugs = await articlesBySlug();
    expect(slugs.has('deep')).toBe(false);
    expect(slugs.has('fine')).toBe(true);
  });

  it('never overwrites an article written through the API, and says so', async () => {
    const principal: Principal = { accountId, accountName: 'local', plan: 'pro', keyId: 0 };
    await db.transaction().execute(async (trx) => {
      await insertChannelFor(trx, clock, principal, { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Journal' }] });
      const access = await channelAccess(trx, principal, CHANNEL);
      await saveArticle(trx, { clock }, access, {
        slug: 'welcome',
        default_language: 'en',
        translations: [{ language: 'en', title: 'Written through the API', content_markdown: 'Mine.' }],
      });
    });
    const report = await run();
    expect(report.counts).toEqual({ channels: 1, articles: 2, unchanged: 0, errors: 1 });
    expect(report.errors).toEqual([{ file: `${CHANNEL}/welcome/en.md`, message: expect.stringContaining(API_OWNED_MESSAGE) }]);
    const welcome = (await articlesBySlug()).get('welcome')!;
    expect(welcome).toMatchObject({ source: 'api', source_hash: null, status: 'draft' });
    expect((await translationsOf('welcome')).map((t) => t.title)).toEqual(['Written through the API']);
    // Still reported on the next run: the conflict is not forgotten.
    expect((await run()).errors).toHaveLength(1);
  });

  it('an API edit takes an imported article over: its file change is then reported, not applied', async () => {
    await run();
    const principal: Principal = { accountId, accountName: 'local', plan: 'pro', keyId: 0 };
    await db.transaction().execute(async (trx) => {
      const access = await channelAccess(trx, principal, CHANNEL);
      await saveArticle(trx, { clock }, access, {
        slug: 'welcome',
        default_language: 'en',
        translations: [{ language: 'en', title: 'Edited through the API', content_markdown: 'API text.' }],
      });
    });
    expect((await articlesBySlug()).get('welcome')).toMatchObject({ source: 'api', source_hash: null });
    edit(`${CHANNEL}/welcome/en.md`, (text) => `${text}\nA file edit after the API edit.\n`);
    const report = await run();
    expect(report.errors).toEqual([{ file: `${CHANNEL}/welcome/en.md`, message: expect.stringContaining(API_OWNED_MESSAGE) }]);
    expect((await translationsOf('welcome')).find((t) => t.language === 'en')?.title).toBe('Edited through the API');
  });

  it('updates the channel when channel.md changes', async () => {
    await run();
    edit(`${CHANNEL}/channel.md`, (text) => text.replace('title: Pressroom Journal', 'title: The Pressroom Journal'));
    expect((await run()).counts).toEqual({ channels: 1, articles: 0, unchanged: 3, errors: 0 });
    const titles = await db
      .selectFrom('channel_translations')
      .innerJoin('channels', 'channels.id', 'channel_translations.channel_id')
      .select(['language', 'title'])
      .where('channels.slug', '=', CHANNEL)
      .orderBy('language')
      .execute();
    expect(titles).toEqual([{ language: 'ar', title: 'مجلة بريسروم' }, { language: 'en', title: 'The Pressroom Journal' }]);
  });

  it('clears a description that channel.md no longer has: the file is the whole truth, unlike a PATCH item', async () => {
    await run();
    edit(`${CHANNEL}/channel.md`, (text) => text.replace(/\n    description: Notes on writing[^\n]*/, ''));
    expect((await run()).counts).toMatchObject({ channels: 1, errors: 0 });
    const en = await db
      .selectFrom('channel_translations')
      .innerJoin('channels', 'channels.id', 'channel_translations.channel_id')
      .select(['title', 'description'])
      .where('channels.slug', '=', CHANNEL)
      .where('language', '=', 'en')
      .executeTakeFirstOrThrow();
    expect(en).toEqual({ title: 'Pressroom Journal', description: null });
  });

  it('reports a broken channel.md; a channel imported before keeps importing its articles', async () => {
    await run();
    write(`${CHANNEL}/channel.md`, '---\ndefault_language: en\n---\n');
    edit(`${CHANNEL}/welcome/en.md`, (text) => `${text}\nOne more line.\n`);
    const report = await run();
    expect(report.errors).toEqual([{ file: `${CHANNEL}/channel.md`, message: expect.stringMatching(/^Invalid front matter: translations: Required.*articles are still imported\.$/) }]);
    expect(report.counts).toEqual({ channels: 0, articles: 1, unchanged: 2, errors: 1 });
  });

  it('does not touch a channel of another account with the same slug', async () => {
    const other = (await ensureAccount(db, clock, 'someone', 'free')).account;
    await insertChannelFor(db, clock, { accountId: other.id, plan: 'free' }, { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Theirs' }] });
    const report = await run();
    expect(report.counts).toEqual({ channels: 0, articles: 0, unchanged: 0, errors: 1 });
    expect(report.errors[0]).toEqual({ file: `${CHANNEL}/channel.md`, message: expect.stringContaining('belongs to another account') });
    expect(await db.selectFrom('articles').select('id').execute()).toEqual([]);
  });

  it('imports nothing, without error, when the content folder does not exist', async () => {
    fs.rmSync(contentDir, { recursive: true });
    expect(await run()).toEqual({ counts: { channels: 0, articles: 0, unchanged: 0, errors: 0 }, errors: [] });
  });
});
