/**
 * The article as the publishing API returns it (spec, "Article response"),
 * and the shorter list item.
 * @module
 */
import type { ArticleRow, RevisionRow, TranslationRow } from '../../store/article.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { BODY_RENDER_VERSION, renderMarkdown } from '../body/index.ts';
import type { ArticleStatus, HomepageMode, ModerationState, TranslationStatus } from './article-status.ts';
import { summarizeTranslations, type TranslationStatusSummary } from './translation-summary.ts';

/** A non-fatal note about a write: the content was changed or needs attention. */
export interface WriteWarning {
  /** Permanent code, listed in the API docs. */
  code: string;
  /** What happened and what to do. */
  message: string;
  /** The field it concerns, as in `error.details.fields`. */
  field?: string;
}

/** A revision of published content that waits for moderation. */
export interface PendingRevisionView {
  number: number;
  status: 'moderation_review';
  moderation: 'pending' | 'manual_review';
  title: string;
  excerpt: string | null;
  created_at: string;
}

/** One translation in the article response. */
export interface TranslationView {
  language: string;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  content_html: string;
  seo_title: string | null;
  seo_description: string | null;
  status: TranslationStatus;
  published_at: string | null;
  scheduled_at: string | null;
  url: string;
  /** The public image of the published version (docs/OUTPUTS.md, "Article image"); null when none is published or it has none. */
  image: { url: string; alt: string } | null;
  pending_revision: PendingRevisionView | null;
}

/** The article response. */
export interface ArticleView {
  id: number;
  project: string;
  slug: string;
  default_language: string;
  homepage_mode: HomepageMode;
  status: ArticleStatus;
  scheduled_paused: boolean;
  scheduled_pause_reason: string | null;
  moderation: ModerationState | null;
  published_at: string | null;
  scheduled_at: string | null;
  author: { name: string } | null;
  url: string;
  edit_url: string;
  translation_status_summary: TranslationStatusSummary;
  warnings: WriteWarning[];
  translations: TranslationView[];
  created_at: string;
  updated_at: string;
}

/** One item of GET …/pages: no body text. */
export interface ArticleListItem {
  id: number;
  slug: string;
  default_language: string;
  status: ArticleStatus;
  homepage_mode: HomepageMode;
  moderation: ModerationState | null;
  published_at: string | null;
  scheduled_at: string | null;
  title: string;
  languages: string[];
  translation_status_summary: TranslationStatusSummary;
  url: string;
  edit_url: string;
  updated_at: string;
}

function orderTranslations<T extends { language: string }>(rows: readonly T[], primary: string): T[] {
  return [...rows].sort((a, b) => (a.language === primary ? -1 : b.language === primary ? 1 : a.language.localeCompare(b.language)));
}

function pendingRevision(row: TranslationRow, revisions: ReadonlyMap<number, RevisionRow>): PendingRevisionView | null {
  if (row.status !== 'published' || row.current_revision_id === null || row.current_revision_id === row.published_revision_id) return null;
  const revision = revisions.get(row.current_revision_id);
  if (!revision || (revision.moderation_state !== 'pending' && revision.moderation_state !== 'manual_review')) return null;
  return {
    number: revision.number,
    status: 'moderation_review',
    moderation: revision.moderation_state,
    title: revision.title,
    excerpt: revision.excerpt,
    created_at: revision.created_at,
  };
}

/**
 * The translation's body as HTML: the rendering kept on the row (made when
 * it was saved), else the current revision's when it is of this content,
 * both only when of the current renderer; otherwise rendered now (same
 * bytes either way). `ensureRenderings` stores one on rows that lack it, so
 * reading a draft does not parse Markdown again.
 */
function bodyHtml(t: TranslationRow, revisions: ReadonlyMap<number, RevisionRow>): string {
  if (t.content_html !== null && t.body_version === BODY_RENDER_VERSION) return t.content_html;
  const revision = t.current_revision_id === null ? undefined : revisions.get(t.current_revision_id);
  if (revision?.content_html && revision.body_version === BODY_RENDER_VERSION && revision.content_markdown === t.content_markdown) {
    return revision.content_html;
  }
  return renderMarkdown(t.content_markdown);
}

/**
 * Builds the full article response.
 * @param revisions revisions referenced by the translations, by id.
 */
export function toArticleView(input: {
  article: ArticleRow;
  channelSlug: string;
  translations: readonly TranslationRow[];
  revisions: ReadonlyMap<number, RevisionRow>;
  urls: PublicUrls;
  warnings?: WriteWarning[];
  /** The public image of each translation's published version, by language. */
  images?: ReadonlyMap<string, { url: string; alt: string }>;
}): ArticleView {
  const { article, channelSlug, urls } = input;
  const rows = orderTranslations(input.translations, article.default_language);
  return {
    id: article.id,
    project: channelSlug,
    slug: article.slug,
    default_language: article.default_language,
    homepage_mode: article.homepage_mode,
    status: article.status,
    scheduled_paused: article.scheduled_paused === 1,
    scheduled_pause_reason: article.scheduled_pause_reason,
    moderation: article.moderation,
    published_at: article.published_at,
    scheduled_at: article.scheduled_at,
    author: article.author_name ? { name: article.author_name } : null,
    url: urls.articleUrl(channelSlug, article.slug, article.default_language),
    edit_url: urls.editUrl(channelSlug, article.id),
    translation_status_summary: summarizeTranslations(rows, article.default_language),
    warnings: input.warnings ?? [],
    translations: rows.map((t) => ({
      language: t.language,
      title: t.title,
      excerpt: t.excerpt,
      content_markdown: t.content_markdown,
      content_html: bodyHtml(t, input.revisions),
      seo_title: t.seo_title,
      seo_description: t.seo_description,
      status: t.status,
      published_at: t.published_at,
      scheduled_at: t.scheduled_at,
      url: urls.articleUrl(channelSlug, article.slug, t.language),
      image: input.images?.get(t.language) ?? null,
      pending_revision: pendingRevision(t, input.revisions),
    })),
    created_at: article.created_at,
    updated_at: article.updated_at,
  };
}

/** Builds one list item. */
export function toArticleListItem(
  article: ArticleRow,
  channelSlug: string,
  translations: readonly TranslationRow[],
  urls: PublicUrls,
): ArticleListItem {
  const rows = orderTranslations(translations, article.default_language);
  return {
    id: article.id,
    slug: article.slug,
    default_language: article.default_language,
    status: article.status,
    homepage_mode: article.homepage_mode,
    moderation: article.moderation,
    published_at: article.published_at,
    scheduled_at: article.scheduled_at,
    title: rows[0]?.title ?? article.slug,
    languages: rows.map((t) => t.language),
    translation_status_summary: summarizeTranslations(rows, article.default_language),
    url: urls.articleUrl(channelSlug, article.slug, article.default_language),
    edit_url: urls.editUrl(channelSlug, article.id),
    updated_at: article.updated_at,
  };
}
