/**
 * The article as the publishing API returns it (spec, "Article response"),
 * and the shorter list item.
 * @module
 */
import { translationVersion } from './translation-version.ts';
import type { ArticleRow, RevisionRow, TranslationRow } from '../../store/article.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { currentRendering } from '../body/index.ts';
import type { ArticleStatus, HomepageMode, ModerationState, TranslationStatus } from './article-status.ts';
import { articleModeration, translationModeration, unpublishedRevisionState, type ModerationInput } from './translation-moderation.ts';
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

/**
 * The latest revision of published content while it is not the public one:
 * waiting for moderation, or refused (it stays until the next submission or
 * an unpublish; readers keep the public version).
 */
export interface PendingRevisionView {
  number: number;
  status: 'moderation_review' | 'moderation_blocked';
  /** `passed`: approved, being published (its files are not in place yet; docs/LIFECYCLE.md, "Read your writes"). */
  moderation: 'pending' | 'manual_review' | 'blocked' | 'passed';
  /** Why it waits for a person or was refused, for people to read; null while the automatic check is queued. */
  reason: string | null;
  title: string;
  excerpt: string | null;
  created_at: string;
  /** When it was refused; null while it waits. */
  decided_at: string | null;
}

/** One translation in the article response. */
export interface TranslationView {
  language: string;
  /** The version of its texts, for If-Match (`translation-version.ts`). */
  version: string;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  content_html: string;
  seo_title: string | null;
  seo_description: string | null;
  status: TranslationStatus;
  moderation: ModerationState;
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
  moderation: ModerationState;
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
  /** As in the article response: a scheduled article that will not publish until given a new time or published by hand. */
  scheduled_paused: boolean;
  scheduled_pause_reason: string | null;
  moderation: ModerationState;
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

/** The newest revision of each translation, by translation id. */
export type LatestRevisions = ReadonlyMap<number, RevisionRow>;

const NONE: ReadonlySet<string> = new Set();

function moderationInput(row: TranslationRow, latest: LatestRevisions): ModerationInput {
  return { status: row.status, publishedRevisionId: row.published_revision_id, latest: latest.get(row.id) };
}

function pendingRevision(row: TranslationRow, latest: LatestRevisions, publishing: ReadonlySet<string>): PendingRevisionView | null {
  const revision = latest.get(row.id);
  if (revision !== undefined && publishing.has(row.language)) {
    return {
      number: revision.number,
      status: 'moderation_review',
      moderation: 'passed',
      reason: null,
      title: revision.title,
      excerpt: revision.excerpt,
      created_at: revision.created_at,
      decided_at: null,
    };
  }
  const state = unpublishedRevisionState(moderationInput(row, latest));
  if (state === null || revision === undefined) return null;
  return {
    number: revision.number,
    status: state === 'blocked' ? 'moderation_blocked' : 'moderation_review',
    moderation: state,
    // A queued revision has no reason yet; `superseded` and other bookkeeping values never reach here.
    reason: state === 'pending' ? null : revision.moderation_reason,
    title: revision.title,
    excerpt: revision.excerpt,
    created_at: revision.created_at,
    decided_at: state === 'blocked' ? revision.decided_at : null,
  };
}

/** Each translation's moderation, in the order of `rows`. */
function moderations(rows: readonly TranslationRow[], latest: LatestRevisions): ModerationState[] {
  return rows.map((t) => translationModeration(moderationInput(t, latest)));
}

/**
 * Builds the full article response.
 * @param revisions revisions referenced by the translations, by id.
 * @param latest the newest revision of each translation, by translation id.
 */
export function toArticleView(input: {
  article: ArticleRow;
  channelSlug: string;
  translations: readonly TranslationRow[];
  revisions: ReadonlyMap<number, RevisionRow>;
  latest: LatestRevisions;
  urls: PublicUrls;
  warnings?: WriteWarning[];
  /** The public image of each translation's published version, by language. */
  images?: ReadonlyMap<string, { url: string; alt: string }>;
  /** Languages whose approved revision is being published (`revisionsBeingPublished`). */
  publishing?: ReadonlySet<string>;
}): ArticleView {
  const { article, channelSlug, urls, latest } = input;
  const rows = orderTranslations(input.translations, article.default_language);
  const states = moderations(rows, latest);
  const publishing = input.publishing ?? NONE;
  return {
    id: article.id,
    project: channelSlug,
    slug: article.slug,
    default_language: article.default_language,
    homepage_mode: article.homepage_mode,
    status: article.status,
    scheduled_paused: article.scheduled_paused === 1,
    scheduled_pause_reason: article.scheduled_pause_reason,
    moderation: articleModeration(states),
    published_at: article.published_at,
    scheduled_at: article.scheduled_at,
    author: article.author_name ? { name: article.author_name } : null,
    url: urls.articleUrl(channelSlug, article.slug, article.default_language),
    edit_url: urls.editUrl(channelSlug, article.id),
    translation_status_summary: summarizeTranslations(
      rows.map((t, i) => ({ language: t.language, status: t.status, moderation: states[i]!, revisionPublishing: publishing.has(t.language) })),
      article.default_language,
    ),
    warnings: input.warnings ?? [],
    translations: rows.map((t, i) => ({
      language: t.language,
      version: translationVersion(t),
      title: t.title,
      excerpt: t.excerpt,
      content_markdown: t.content_markdown,
      content_html: currentRendering(t).html,
      seo_title: t.seo_title,
      seo_description: t.seo_description,
      status: t.status,
      moderation: states[i]!,
      published_at: t.published_at,
      scheduled_at: t.scheduled_at,
      url: urls.articleUrl(channelSlug, article.slug, t.language),
      image: input.images?.get(t.language) ?? null,
      pending_revision: pendingRevision(t, latest, publishing),
    })),
    created_at: article.created_at,
    updated_at: article.updated_at,
  };
}

/**
 * Builds one list item.
 * @param latest the newest revision of each translation, by translation id.
 */
export function toArticleListItem(
  article: ArticleRow,
  channelSlug: string,
  translations: readonly TranslationRow[],
  latest: LatestRevisions,
  urls: PublicUrls,
  publishing: ReadonlySet<string> = NONE,
): ArticleListItem {
  const rows = orderTranslations(translations, article.default_language);
  const states = moderations(rows, latest);
  return {
    id: article.id,
    slug: article.slug,
    default_language: article.default_language,
    status: article.status,
    homepage_mode: article.homepage_mode,
    scheduled_paused: article.scheduled_paused === 1,
    scheduled_pause_reason: article.scheduled_pause_reason,
    moderation: articleModeration(states),
    published_at: article.published_at,
    scheduled_at: article.scheduled_at,
    title: rows[0]?.title ?? article.slug,
    languages: rows.map((t) => t.language),
    translation_status_summary: summarizeTranslations(
      rows.map((t, i) => ({ language: t.language, status: t.status, moderation: states[i]!, revisionPublishing: publishing.has(t.language) })),
      article.default_language,
    ),
    url: urls.articleUrl(channelSlug, article.slug, article.default_language),
    edit_url: urls.editUrl(channelSlug, article.id),
    updated_at: article.updated_at,
  };
}
