/**
 * The public read model: loads from the store exactly what readers may see,
 * as the renderers' view models. This is the one place that decides what is
 * public; no renderer reads the store.
 *
 * Public means: the channel is `active`; the article is not archived and its
 * primary translation has a published revision; each translation shown has a
 * published revision of its own (`isTranslationPublic`). Text comes from the
 * published revision, never from the current (possibly unmoderated) content.
 * @module
 */
import { sql } from 'kysely';
import type { Db } from '../store/database.ts';
import type { ArticleRow } from '../store/article.table.ts';
import type { ChannelRow } from '../store/channel.table.ts';
import { isTranslationPublic } from '../domain/article/article-lifecycle.ts';
import { isOnHomepage } from '../domain/article/homepage.ts';
import { renderMarkdownBody } from '../domain/body/index.ts';
import { textDirection } from '../domain/language.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import type { AnyPublicArticle, PublicArticle, PublicArticleSummary, PublicChannel, PublicTranslation, PublicTranslationSummary } from '../render/view-models.ts';
import { createBodyCache, type BodyCache } from './body-cache.ts';

/** Order of public articles everywhere: newest publication first, then higher id. */
export function newestFirst(a: AnyPublicArticle, b: AnyPublicArticle): number {
  return a.publishedAt === b.publishedAt ? b.id - a.id : a.publishedAt < b.publishedAt ? 1 : -1;
}

/** Reads the public model. */
export interface PublicModel {
  /** Every public channel, oldest first. */
  channels(): Promise<PublicChannel[]>;
  /** One public channel, or null when it is not public. */
  channel(id: number): Promise<PublicChannel | null>;
  /** Public articles, newest first; of one channel, or the given ids. */
  articles(filter: ArticleFilter): Promise<PublicArticle[]>;
  /**
   * The same articles without reading or rendering a body (`textStart`
   * empty): what the builder needs to decide which owners changed. Reads a
   * few hundred bytes per article instead of its whole text.
   */
  heads(filter: ArticleFilter): Promise<ArticleHead[]>;
  /** Public articles with their heads (for the builder, which keeps both). */
  articlesWithHeads(filter: ArticleFilter): Promise<Array<{ article: PublicArticle; head: ArticleHead }>>;
}

/** Which articles to read: of one channel, or the given ids; all without either. */
export interface ArticleFilter {
  readonly channelId?: number;
  readonly ids?: readonly number[];
}

/**
 * A public article without its bodies, and what identifies each body: the
 * builder hashes this to tell whether an article's files can have changed.
 */
export interface ArticleHead {
  /** The article as lists hold it, with every `textStart` empty (it comes from the body). */
  readonly summary: PublicArticleSummary;
  /** The published revision's content hash (title, excerpt, body, SEO fields) of each translation, by language. */
  readonly contentHashes: Readonly<Record<string, string>>;
}

/** A published translation's row, as read for the model. */
interface PublishedRow {
  language: string;
  published_at: string | null;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  seo_title: string | null;
  seo_description: string | null;
  content_hash: string;
  decided_at: string | null;
  created_at: string;
}

const byPrimaryThenCode = (primary: string) => (a: { language: string }, b: { language: string }) =>
  a.language === primary ? -1 : b.language === primary ? 1 : a.language < b.language ? -1 : a.language > b.language ? 1 : 0;

/**
 * Creates the reader.
 * @param cache rendered bodies by content hash, shared across builds so unchanged bodies are not rendered again.
 */
export function createPublicModel(deps: { db: Db; urls: PublicUrls; cache?: BodyCache }): PublicModel {
  const { db, urls } = deps;
  const cache = deps.cache ?? createBodyCache();

  async function activeChannelRows(ids?: readonly number[]): Promise<ChannelRow[]> {
    let query = db.selectFrom('channels').selectAll().where('status', '=', 'active').orderBy('id');
    if (ids) query = query.where('id', 'in', ids.length > 0 ? ids : [-1]);
    return query.execute();
  }

  async function loadChannels(ids?: readonly number[]): Promise<PublicChannel[]> {
    return toPublicChannels(await activeChannelRows(ids));
  }

  async function toPublicChannels(rows: readonly ChannelRow[]): Promise<PublicChannel[]> {
    if (rows.length === 0) return [];
    const translations = await db.selectFrom('channel_translations').selectAll().where('channel_id', 'in', rows.map((r) => r.id)).execute();
    const media = await db
      .selectFrom('media')
      .select(['id', 'file_name'])
      .where('id', 'in', [...rows.flatMap((r) => [r.avatar_media_id, r.cover_media_id]).filter((id): id is number => id !== null), -1])
      .execute();
    const mediaUrl = (id: number | null) => {
      const file = media.find((m) => m.id === id)?.file_name;
      return file ? urls.media(file) : null;
    };
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      defaultLanguage: row.default_language,
      translations: translations
        .filter((t) => t.channel_id === row.id)
        .sort(byPrimaryThenCode(row.default_language))
        .map((t) => ({
          language: t.language,
          dir: textDirection(t.language),
          title: t.title,
          description: t.description,
          htmlUrl: urls.channelHtml(row.slug, t.language),
          jsonUrl: urls.channelJson(row.slug, t.language),
          rssUrl: urls.channelRss(row.slug, t.language),
          jsonFeedUrl: urls.channelJsonFeed(row.slug, t.language),
        })),
      homepageEnabled: row.homepage_enabled === 1,
      avatarUrl: mediaUrl(row.avatar_media_id),
      coverUrl: mediaUrl(row.cover_media_id),
      htmlUrl: urls.channelHtml(row.slug),
      rssUrl: urls.channelRss(row.slug),
      jsonFeedUrl: urls.channelJsonFeed(row.slug),
      jsonUrl: urls.channelJson(row.slug),
      articlesJsonUrl: urls.channelArticlesJson(row.slug),
      updatedAt: row.updated_at,
    }));
  }

  async function load(filter: ArticleFilter, bodies: boolean): Promise<Array<{ head: ArticleHead; article: PublicArticle | null }>> {
    let query = db.selectFrom('articles').selectAll().where('status', '!=', 'archived').where('published_at', 'is not', null);
    if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId);
    if (filter.ids) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const activeRows = await activeChannelRows([...new Set(rows.map((r) => r.channel_id))]);
    const channelRows = new Map(activeRows.map((c) => [c.id, c]));
    const channels = new Map((await toPublicChannels(activeRows)).map((c) => [c.id, c]));
    const published = await db
      .selectFrom('article_translations')
      .innerJoin('revisions', 'revisions.id', 'article_translations.published_revision_id')
      .select([
        'article_translations.article_id',
        'article_translations.language',
        'article_translations.published_at',
        'revisions.title',
        'revisions.excerpt',
        // Bodies are most of the bytes: read them only when rendering.
        bodies ? 'revisions.content_markdown' : sql<string>`''`.as('content_markdown'),
        'revisions.seo_title',
        'revisions.seo_description',
        'revisions.content_hash',
        'revisions.decided_at',
        'revisions.created_at',
      ])
      .where('article_translations.article_id', 'in', rows.map((r) => r.id))
      .execute();
    const byArticle = new Map<number, typeof published>();
    for (const t of published) {
      const own = byArticle.get(t.article_id);
      if (own) own.push(t);
      else byArticle.set(t.article_id, [t]);
    }
    const loaded: Array<{ head: ArticleHead; article: PublicArticle | null }> = [];
    for (const row of rows) {
      const channel = channels.get(row.channel_id);
      const channelRow = channelRows.get(row.channel_id);
      if (!channel || !channelRow) continue;
      const own = byArticle.get(row.id) ?? [];
      const primary = own.find((t) => t.language === row.default_language);
      const visible = own.filter((t) =>
        isTranslationPublic({
          translation: { hasPublicVersion: true },
          primary: { hasPublicVersion: primary !== undefined },
          articleStatus: row.status,
          channelActive: channelRow.status === 'active',
        }),
      );
      if (visible.length === 0) continue;
      const head = toHead(row, channel, channelRow, visible);
      loaded.push({ head, article: bodies ? toArticle(head, visible) : null });
    }
    return loaded.sort((a, b) => newestFirst(a.head.summary, b.head.summary));
  }

  function toHead(row: ArticleRow, channel: PublicChannel, channelRow: ChannelRow, visible: readonly PublishedRow[]): ArticleHead {
    const translations: PublicTranslationSummary[] = [...visible].sort(byPrimaryThenCode(row.default_language)).map((t) => ({
      language: t.language,
      dir: textDirection(t.language),
      title: t.title,
      excerpt: t.excerpt,
      seoTitle: t.seo_title,
      seoDescription: t.seo_description,
      publishedAt: t.published_at ?? row.published_at!,
      updatedAt: t.decided_at ?? t.created_at,
      htmlUrl: urls.articleHtml(channel.slug, row.slug, t.language),
      jsonUrl: urls.articleJson(channel.slug, row.slug, t.language),
      markdownUrl: urls.articleMarkdown(channel.slug, row.slug, t.language),
      textStart: '',
    }));
    const summary: PublicArticleSummary = {
      id: row.id,
      slug: row.slug,
      channel,
      defaultLanguage: row.default_language,
      author: row.author_name ? { name: row.author_name } : null,
      image: null,
      publishedAt: row.published_at!,
      updatedAt: translations.map((t) => t.updatedAt).sort().pop()!,
      onHomepage: isOnHomepage(row, channelRow),
      translations,
    };
    return { summary, contentHashes: Object.fromEntries(visible.map((t) => [t.language, t.content_hash])) };
  }

  /** The full article: the head's fields, each translation with its body. */
  function toArticle(head: ArticleHead, visible: readonly PublishedRow[]): PublicArticle {
    const translations: PublicTranslation[] = head.summary.translations.map(({ textStart: _none, ...t }) => {
      const row = visible.find((v) => v.language === t.language)!;
      const body = cache.get(row.content_hash, row.content_markdown, renderMarkdownBody);
      return { ...t, markdown: row.content_markdown, html: body.html, text: body.text };
    });
    return { ...head.summary, translations };
  }

  return {
    channels: () => loadChannels(),
    channel: async (id) => (await loadChannels([id]))[0] ?? null,
    articles: async (filter) => (await load(filter, true)).map((x) => x.article!),
    heads: async (filter) => (await load(filter, false)).map((x) => x.head),
    articlesWithHeads: async (filter) => (await load(filter, true)).map((x) => ({ article: x.article!, head: x.head })),
  };
}
