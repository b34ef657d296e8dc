/**
 * The initial schema: accounts, keys, channels, articles, translations,
 * revisions, media and jobs.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates the initial tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE accounts (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      plan TEXT NOT NULL,
      review_required INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE api_keys (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      prefix TEXT NOT NULL,
      key_hash TEXT NOT NULL UNIQUE,
      label TEXT,
      created_at TEXT NOT NULL,
      revoked_at TEXT,
      last_used_at TEXT
    )`.execute(db);
  await sql`
    CREATE TABLE channels (
      id INTEGER PRIMARY KEY,
      slug TEXT NOT NULL UNIQUE,
      owner_account_id INTEGER NOT NULL REFERENCES accounts(id),
      default_language TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'hidden')),
      homepage_enabled INTEGER NOT NULL DEFAULT 1,
      homepage_excluded INTEGER NOT NULL DEFAULT 0,
      watermark_enabled INTEGER NOT NULL DEFAULT 0,
      avatar_media_id INTEGER,
      cover_media_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE channel_translations (
      channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
      language TEXT NOT NULL,
      title TEXT NOT NULL,
      description TEXT,
      PRIMARY KEY (channel_id, language)
    )`.execute(db);
  await sql`
    CREATE TABLE channel_members (
      channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
      account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('owner', 'editor')),
      can_write_articles INTEGER NOT NULL,
      can_manage_channel INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (channel_id, account_id)
    )`.execute(db);
  await sql`CREATE INDEX channel_members_account ON channel_members(account_id)`.execute(db);
  await sql`
    CREATE TABLE articles (
      id INTEGER PRIMARY KEY,
      channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
      slug TEXT NOT NULL,
      default_language TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft', 'moderation_review', 'scheduled', 'published', 'archived')),
      moderation TEXT,
      homepage_mode TEXT NOT NULL DEFAULT 'inherit' CHECK (homepage_mode IN ('inherit', 'allow', 'hide')),
      homepage_excluded INTEGER NOT NULL DEFAULT 0,
      scheduled_at TEXT,
      scheduled_paused INTEGER NOT NULL DEFAULT 0,
      scheduled_pause_reason TEXT,
      published_at TEXT,
      author_name TEXT,
      source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'content')),
      source_hash TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (channel_id, slug)
    )`.execute(db);
  await sql`CREATE INDEX articles_status ON articles(channel_id, status, id)`.execute(db);
  await sql`
    CREATE TABLE article_translations (
      id INTEGER PRIMARY KEY,
      article_id INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
      language TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft', 'moderation_review', 'scheduled', 'published', 'moderation_blocked')),
      title TEXT NOT NULL,
      excerpt TEXT,
      content_markdown TEXT NOT NULL,
      seo_title TEXT,
      seo_description TEXT,
      published_at TEXT,
      scheduled_at TEXT,
      current_revision_id INTEGER,
      published_revision_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (article_id, language)
    )`.execute(db);
  await sql`
    CREATE TABLE revisions (
      id INTEGER PRIMARY KEY,
      translation_id INTEGER NOT NULL REFERENCES article_translations(id) ON DELETE CASCADE,
      number INTEGER NOT NULL,
      title TEXT NOT NULL,
      excerpt TEXT,
      content_markdown TEXT NOT NULL,
      seo_title TEXT,
      seo_description TEXT,
      content_hash TEXT NOT NULL,
      moderation_state TEXT NOT NULL CHECK (moderation_state IN ('none', 'pending', 'manual_review', 'passed', 'blocked', 'superseded')),
      moderation_reason TEXT,
      created_at TEXT NOT NULL,
      decided_at TEXT,
      UNIQUE (translation_id, number)
    )`.execute(db);
  await sql`
    CREATE TABLE media (
      id INTEGER PRIMARY KEY,
      channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
      article_id INTEGER REFERENCES articles(id) ON DELETE SET NULL,
      purpose TEXT NOT NULL CHECK (purpose IN ('article', 'channel_cover', 'channel_avatar')),
      file_name TEXT NOT NULL,
      alt TEXT NOT NULL DEFAULT '',
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      watermark_applied INTEGER NOT NULL DEFAULT 0,
      watermark_type TEXT NOT NULL DEFAULT 'none',
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'parked')),
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL DEFAULT 5,
      run_at TEXT NOT NULL,
      locked_until TEXT,
      last_error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX jobs_due ON jobs(state, run_at)`.execute(db);
  await sql`
    CREATE TABLE instance_settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`.execute(db);
}

/** Drops everything the migration created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['instance_settings', 'jobs', 'media', 'revisions', 'article_translations', 'articles', 'channel_members', 'channel_translations', 'channels', 'api_keys', 'accounts']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
}
