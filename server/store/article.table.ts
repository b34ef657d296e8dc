/** Row types of `articles`, `article_translations` and `revisions`. @module */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ArticleStatus, HomepageMode, TranslationStatus, ModerationState } from '../domain/article/article-status.ts';

/** An article ("page" in the publishing API): the record shared by its translations. */
export interface ArticleTable {
  id: Generated<number>;
  channel_id: number;
  slug: string;
  default_language: string;
  status: ArticleStatus;
  /** Article-level moderation outcome, from the primary translation. */
  moderation: ModerationState | null;
  homepage_mode: HomepageMode;
  homepage_excluded: Generated<number>;
  scheduled_at: string | null;
  scheduled_paused: Generated<number>;
  scheduled_pause_reason: string | null;
  published_at: string | null;
  author_name: string | null;
  /** `api` for articles written through the API, `content` for files in content/. */
  source: 'api' | 'content';
  source_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** One language of an article. The row holds the current (latest) content. */
export interface ArticleTranslationTable {
  id: Generated<number>;
  article_id: number;
  language: string;
  status: TranslationStatus;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  seo_title: string | null;
  seo_description: string | null;
  published_at: string | null;
  scheduled_at: string | null;
  /** The revision holding the current content. */
  current_revision_id: number | null;
  /** The revision readers see; null while nothing of this translation is public. */
  published_revision_id: number | null;
  created_at: string;
  updated_at: string;
  /** `content_markdown` rendered to sanitised HTML when it was saved (migration 0007); null on older rows. */
  content_html: string | null;
  /** Its plain text, made with `content_html`. */
  content_text: string | null;
  /** `BODY_RENDER_VERSION` of the renderer that made both; other values are rendered again when read. */
  body_version: string | null;
  /** Where the body's relative link targets are, made with `content_html` (migration 0012); null: found when built. */
  link_targets: string | null;
  /** The body's paragraphs as plain text, made with `content_html` (migration 0015): what automatic summaries are cut from. */
  content_prose: string | null;
}

/** An immutable snapshot of a translation's content and its moderation outcome. */
export interface RevisionTable {
  id: Generated<number>;
  translation_id: number;
  number: number;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  seo_title: string | null;
  seo_description: string | null;
  content_hash: string;
  moderation_state: 'none' | 'pending' | 'manual_review' | 'passed' | 'blocked' | 'superseded';
  moderation_reason: string | null;
  created_at: string;
  decided_at: string | null;
  /** The body rendered to sanitised HTML when the revision was saved; null on rows older than migration 0006. */
  content_html: string | null;
  /** The body's plain text (search, summaries), made with `content_html`. */
  content_text: string | null;
  /** `BODY_RENDER_VERSION` of the renderer that made both; other values are rendered again when read. */
  body_version: string | null;
  /** Where the body's relative link targets are, made with `content_html` (migration 0012); null: found when built. */
  link_targets: string | null;
  /** The body's paragraphs as plain text, made with `content_html` (migration 0015): what automatic summaries are cut from. */
  content_prose: string | null;
  /** `content_html` from its first `<img` (`imageSlice`), '' when it has none (migration 0012); null on older rows. */
  image_html: string | null;
}

export type ArticleRow = Selectable<ArticleTable>;
export type NewArticleRow = Insertable<ArticleTable>;
export type ArticleUpdate = Updateable<ArticleTable>;
export type TranslationRow = Selectable<ArticleTranslationTable>;
export type NewTranslationRow = Insertable<ArticleTranslationTable>;
export type TranslationUpdate = Updateable<ArticleTranslationTable>;
export type RevisionRow = Selectable<RevisionTable>;
