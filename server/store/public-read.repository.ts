/**
 * The queries of the public model (`read-model/public-model.ts`): what is
 * public is decided there; this module only reads the rows it asks for.
 * @module
 */
import { sql } from 'kysely';
import type { ArticleRow, RevisionRow, TranslationRow } from './article.table.ts';
import type { ChannelRow } from './channel.table.ts';
import type { Executor } from './database.ts';

/** Which articles to read: of one channel, or the given ids; all without either. */
export interface ArticleRowFilter {
  readonly channelId?: number;
  readonly ids?: readonly number[];
}

/** What is read of each body: nothing (heads), the text only, or everything. */
export type BodyRead = 'none' | 'text' | 'full';

/** Ids bound in one query (SQLite's limit is 32,766 variables a statement). */
const IDS_PER_QUERY = 10_000;

/**
 * `read` over `ids` in slices of `IDS_PER_QUERY`, the rows joined in order:
 * SQLite binds at most 32,766 values a statement, and a site of 100,000
 * articles asks for more.
 */
async function inSlices<T>(ids: readonly number[], read: (slice: readonly number[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length <= IDS_PER_QUERY) return read(ids);
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) rows.push(...(await read(ids.slice(i, i + IDS_PER_QUERY))));
  return rows;
}

/** A published translation's row: its translation's language and date, its published revision. */
export type PublishedRow = Pick<TranslationRow, 'article_id' | 'language' | 'published_at'> &
  Pick<RevisionRow, 'title' | 'excerpt' | 'content_markdown' | 'seo_title' | 'seo_description' | 'content_hash' | 'decided_at' | 'created_at' | 'content_html' | 'content_text' | 'body_version' | 'link_targets' | 'content_prose'> & {
    revision_id: number;
    /** The stored HTML from its first `<img` (`imageSliceChars` long), or null (no image, or no current stored HTML). */
    image_html: string | null;
  };

/** Active channels, by id; only `ids` when given. */
export async function readActiveChannelRows(db: Executor, ids?: readonly number[]): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll().where('status', '=', 'active').orderBy('id');
  if (ids) query = query.where('id', 'in', ids.length > 0 ? ids : [-1]);
  return query.execute();
}

/** Articles that may be public: not archived and published once. Many ids are read in slices (SQLite's bind limit). */
export async function readPublishedArticleRows(db: Executor, filter: ArticleRowFilter): Promise<ArticleRow[]> {
  const { ids } = filter;
  if (ids && ids.length > IDS_PER_QUERY) return inSlices(ids, (slice) => readPublishedArticleRows(db, { ...filter, ids: slice }));
  let query = db.selectFrom('articles').selectAll().where('status', '!=', 'archived').where('published_at', 'is not', null);
  if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId);
  if (filter.ids) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  // In id order on both stores: SQLite reads by key, Postgres gives no order unless asked, and a build's input hashes follow this order.
  return query.orderBy('id').execute();
}

/**
 * The id and channel of every article `readPublishedArticleRows` would read (not archived, published once),
 * by channel, then id: what a cold build may have to render, read without the rows.
 */
export async function listPublishedArticleIds(db: Executor): Promise<Array<{ id: number; channel_id: number }>> {
  return db.selectFrom('articles').select(['id', 'channel_id']).where('status', '!=', 'archived').where('published_at', 'is not', null).orderBy('channel_id').orderBy('id').execute();
}

/** Each translation joined with its published revision (a translation without one is not there): the one home of that rule. */
function publishedRevisions(db: Executor) {
  return db.selectFrom('article_translations').innerJoin('revisions', 'revisions.id', 'article_translations.published_revision_id');
}

/**
 * The published revision of every translation of the given articles. Bodies
 * are most of the bytes, so only what `bodies` asks for is read; a stored
 * rendering counts only when it is of `bodyVersion` (otherwise `body_version`
 * is null and, unless `bodies` is 'none', the Markdown is read so the caller
 * can render it).
 */
export async function readPublishedRows(
  db: Executor,
  articleIds: readonly number[],
  options: { readonly bodies: BodyRead; readonly bodyVersion: string; readonly imageSliceChars: number },
): Promise<PublishedRow[]> {
  if (articleIds.length === 0) return [];
  if (articleIds.length > IDS_PER_QUERY) return inSlices(articleIds, (slice) => readPublishedRows(db, slice, options));
  const { bodies, bodyVersion, imageSliceChars } = options;
  const current = sql<boolean>`revisions.body_version = ${bodyVersion} AND revisions.content_text IS NOT NULL AND revisions.content_html IS NOT NULL`;
  // `content_prose` is not checked: it comes after the bodies in the row (migration 0015), so checking it would
  // walk every body's overflow pages on a heads read; a rendering of `bodyVersion` always keeps it (`keptColumns`).
  return publishedRevisions(db)
    .select([
      'revisions.id as revision_id',
      'article_translations.article_id',
      'article_translations.language',
      'article_translations.published_at',
      'revisions.title',
      'revisions.excerpt',
      bodies === 'full' ? 'revisions.content_markdown' : bodies === 'text' ? sql<string>`CASE WHEN ${current} THEN '' ELSE revisions.content_markdown END`.as('content_markdown') : sql<string>`''`.as('content_markdown'),
      // A text read keeps '' for the HTML (and the prose) of a current row, so the row still reads as kept (`currentRendering`).
      bodies === 'full' ? 'revisions.content_html' : bodies === 'text' ? sql<string | null>`CASE WHEN ${current} THEN '' END`.as('content_html') : sql<string | null>`NULL`.as('content_html'),
      bodies === 'none' ? sql<string | null>`NULL`.as('content_text') : 'revisions.content_text',
      bodies === 'none' ? sql<string | null>`NULL`.as('body_version') : sql<string | null>`CASE WHEN ${current} THEN revisions.body_version END`.as('body_version'),
      bodies === 'full' ? sql<string | null>`CASE WHEN ${current} THEN revisions.link_targets END`.as('link_targets') : sql<string | null>`NULL`.as('link_targets'),
      // What summaries are cut from: a full read (a build's article owners) only; a text read (the search index) has no use for it.
      bodies === 'full' ? sql<string | null>`CASE WHEN ${current} THEN revisions.content_prose END`.as('content_prose') : bodies === 'text' ? sql<string | null>`CASE WHEN ${current} THEN '' END`.as('content_prose') : sql<string | null>`NULL`.as('content_prose'),
      'revisions.seo_title',
      'revisions.seo_description',
      'revisions.content_hash',
      'revisions.decided_at',
      'revisions.created_at',
      // The image comes from the stored HTML: its slice stored with it ('' for none), or for older rows the
      // slice cut here. Heads (no bodies read) show no image for a row without a current rendering: such rows
      // are rendered again and stored when the service starts (`refresh-renderings.ts`), before its first build.
      sql<string | null>`CASE WHEN ${current} THEN
        CASE WHEN revisions.image_html IS NOT NULL THEN NULLIF(revisions.image_html, '')
             WHEN instr(revisions.content_html, '<img') > 0 THEN substr(revisions.content_html, instr(revisions.content_html, '<img'), ${imageSliceChars}) END
        END`.as('image_html'),
    ])
    .where('article_translations.article_id', 'in', articleIds)
    // By article, then language, as SQLite's (article_id, language) index reads them: the order a build hashes.
    .orderBy('article_translations.article_id')
    .orderBy('article_translations.language')
    .execute() as Promise<PublishedRow[]>;
}

/** The body of one translation's published revision, and when that revision was made and decided. */
export type PublishedBodyRow = Pick<RevisionRow, 'content_markdown' | 'content_html' | 'content_text' | 'body_version' | 'link_targets' | 'content_prose' | 'content_hash' | 'decided_at' | 'created_at'>;

/**
 * The published revision's body of the translation in `language` of an article, or undefined when it has
 * none: one row read, for an answer that shows one translation's body (`include=html`).
 */
export async function readPublishedBody(db: Executor, articleId: number, language: string): Promise<PublishedBodyRow | undefined> {
  return publishedRevisions(db)
    .select([
      'revisions.decided_at',
      'revisions.created_at',
      'revisions.content_hash',
      'revisions.body_version',
      'revisions.link_targets',
      'revisions.content_prose',
      'revisions.content_text',
      'revisions.content_html',
      'revisions.content_markdown',
    ])
    .where('article_translations.article_id', '=', articleId)
    .where('article_translations.language', '=', language)
    .executeTakeFirst();
}

/** The rendered body of one translation's published revision (null when not of the current renderer: then its Markdown), and when that revision was made and decided. */
export interface PublishedHtmlRow {
  readonly content_html: string | null;
  /** The Markdown, read only when the kept rendering is not current (it must be rendered again). */
  readonly content_markdown: string | null;
  readonly content_hash: string;
  readonly decided_at: string | null;
  readonly created_at: string;
}

/**
 * The kept rendering of the published revision of the translation in `language`, or undefined when it has
 * none: the one column an answer needs that adds the rendered body to a document already built
 * (`include=html`). The rendering counts only when of `bodyVersion`; otherwise the Markdown is read instead.
 */
export async function readPublishedHtml(db: Executor, articleId: number, language: string, bodyVersion: string): Promise<PublishedHtmlRow | undefined> {
  const current = sql<boolean>`revisions.body_version = ${bodyVersion} AND revisions.content_html IS NOT NULL`;
  return publishedRevisions(db)
    .select([
      'revisions.decided_at',
      'revisions.created_at',
      'revisions.content_hash',
      sql<string | null>`CASE WHEN ${current} THEN revisions.content_html END`.as('content_html'),
      sql<string | null>`CASE WHEN ${current} THEN NULL ELSE revisions.content_markdown END`.as('content_markdown'),
    ])
    .where('article_translations.article_id', '=', articleId)
    .where('article_translations.language', '=', language)
    .executeTakeFirst();
}

/**
 * The languages of the given articles that have a published revision, and
 * nothing else: what `readPublishedRows` finds, without reading a revision's
 * columns (the join only checks that the revision exists).
 */
export async function readPublishedLanguages(db: Executor, articleIds: readonly number[]): Promise<Array<{ article_id: number; language: string }>> {
  if (articleIds.length === 0) return [];
  return inSlices(articleIds, (slice) =>
    publishedRevisions(db)
      .select(['article_translations.article_id', 'article_translations.language'])
      .where('article_translations.article_id', 'in', slice)
      .orderBy('article_translations.article_id')
      .orderBy('article_translations.language')
      .execute(),
  );
}
