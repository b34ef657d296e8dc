/**
 * The public read model: loads from the store exactly what readers may see,
 * as the renderers' view models. This is the one place that decides what is
 * public; no renderer reads the store.
 *
 * Public means: the channel is `active`; the article is not archived and its
 * primary translation has a published revision; each translation shown has a
 * published revision of its own (`isTranslationPublic`). Text comes from the
 * published revision, never from the current (possibly unmoderated) content.
 *
 * Bodies are rendered when a revision is saved and stored with it
 * (`revisions.content_html`, `content_text`); this model renders only rows
 * without a stored body of the current renderer (`currentRendering`), in
 * memory: a read never writes. Those rows are rendered again and stored
 * when the service starts (`refresh-renderings.ts`).
 * @module
 */
import type { Db } from '../store/database.ts';
import type { ArticleRow } from '../store/article.table.ts';
import type { ChannelRow } from '../store/channel.table.ts';
import { isTranslationPublic } from '../domain/article/article-lifecycle.ts';
import { isOnHomepage } from '../domain/article/homepage.ts';
import { BODY_RENDER_VERSION, currentRendering, renderMarkdownBody, type RenderedBody } from '../domain/body/index.ts';
import { textDirection } from '../domain/language.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { freezeModel } from './identity-memo.ts';
import { byPublication, textStartOf } from './selection.ts';
import type { AnyPublicArticle, PublicArticle, PublicArticleSummary, PublicChannel, PublicTranslation, PublicTranslationSummary } from './view-models.ts';
import type { PublicImage } from './view-models.ts';
import { firstAttachedImage, IMAGE_SLICE_CHARS, imageSlice, ownBodyImages } from '../domain/body/article-image.ts';
import { listArticleImageFiles, listMediaFileNames } from '../store/media.repository.ts';
import { listChannelTranslations } from '../store/channel.repository.ts';
import { findArticleRow, listTranslations } from '../store/article.repository.ts';
import type { TranslationRow } from '../store/article.table.ts';
import {
  readActiveChannelRows,
  readPublishedArticleRows,
  readPublishedBody,
  readPublishedHtml,
  readPublishedLanguages,
  readPublishedRows,
  type BodyRead,
  type PublishedRow,
} from '../store/public-read.repository.ts';
import { createBodyCache, type BodyCache } from './body-cache.ts';

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
  /**
   * Which translations are public, by article id (languages in no order),
   * without reading a head: what `heads` would show, for the search keeper,
   * which only needs each channel's public ids by language to plan its parts.
   */
  publicLanguages(filter: ArticleFilter): Promise<Map<number, string[]>>;
  /** Public articles with their heads (for the builder, which keeps both). */
  articlesWithHeads(filter: ArticleFilter): Promise<Array<{ article: PublicArticle; head: ArticleHead }>>;
  /**
   * Public articles with each translation's plain text but neither its
   * Markdown nor its HTML (the search index's records): reads the stored
   * text, a third of a body's bytes, and renders nothing for current rows.
   */
  texts(filter: ArticleFilter): Promise<PublicArticleText[]>;
  /**
   * The translation `shown` (a head of the public state) with its body, read alone: one row, when the published
   * revision is still the one `shown` was made from (its `updatedAt`); null when the store has moved on (a
   * change not built yet) or has none, and the caller loads the whole article.
   */
  translationBody(articleId: number, shown: PublicTranslationSummary): Promise<PublicTranslation | null>;
  /**
   * The rendered body (as stored, before links are made absolute) of the translation `shown`, read alone when the
   * published revision is still the one `shown` was made from; null otherwise, as `translationBody`.
   */
  translationHtml(articleId: number, shown: PublicTranslationSummary): Promise<string | null>;
  /**
   * What article `articleId` would be if it were published now with every translation's current texts
   * (`publish_translations: true`; the dashboard's preview, never an output): each translation's current
   * content instead of its published revision, except one whose current content is the published revision
   * (nothing pending), which stays as readers have it. Times not known yet (first publication, the
   * moderation decision) are `now`. Null when the article does not exist or its channel is not public.
   */
  preview(articleId: number, now: string): Promise<PreviewedArticle | null>;
}

/** An article as publishing its current texts would make it (`PublicModel.preview`). */
export interface PreviewedArticle {
  readonly article: PublicArticle;
  /** The same as lists hold it: `textStart` cut from each body's prose. */
  readonly summary: PublicArticleSummary;
  /** The languages whose texts differ from what readers have (not published yet, or a change waiting). */
  readonly changed: readonly string[];
}

/** A public article with each translation's plain text (see `PublicModel.texts`). */
export interface PublicArticleText extends Omit<PublicArticleSummary, 'translations'> {
  readonly translations: ReadonlyArray<Omit<PublicTranslationSummary, 'textStart'> & { readonly text: string }>;
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

const byPrimaryThenCode = (primary: string) => (a: { language: string }, b: { language: string }) =>
  a.language === primary ? -1 : b.language === primary ? 1 : a.language < b.language ? -1 : a.language > b.language ? 1 : 0;

/**
 * Creates the reader.
 * @param cache bodies this model had to render (rows without a current stored body), by content hash.
 */
export function createPublicModel(deps: { db: Db; urls: PublicUrls; cache?: BodyCache }): PublicModel {
  const { db, urls } = deps;
  const cache = deps.cache ?? createBodyCache();

  const activeChannelRows = (ids?: readonly number[]) => readActiveChannelRows(db, ids);

  async function loadChannels(ids?: readonly number[]): Promise<PublicChannel[]> {
    return toPublicChannels(await activeChannelRows(ids));
  }

  async function toPublicChannels(rows: readonly ChannelRow[]): Promise<PublicChannel[]> {
    if (rows.length === 0) return [];
    const translations = await listChannelTranslations(db, rows.map((r) => r.id));
    const media = await listMediaFileNames(db, rows.flatMap((r) => [r.avatar_media_id, r.cover_media_id]).filter((id): id is number => id !== null));
    const mediaUrl = (id: number | null) => {
      const file = media.find((m) => m.id === id)?.file_name;
      return file ? urls.media(file) : null;
    };
    const feedImage = (id: number | null) => {
      const file = media.find((m) => m.id === id)?.feed_file_name;
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
          // One canonical address per page: the default language's channel page is `/{channel}/` (docs/URLS.md).
          htmlUrl: t.language === row.default_language ? urls.channelHtml(row.slug) : urls.channelHtml(row.slug, t.language),
          jsonUrl: urls.channelJson(row.slug, t.language),
          rssUrl: urls.channelRss(row.slug, t.language),
          jsonFeedUrl: urls.channelJsonFeed(row.slug, t.language),
        })),
      homepageEnabled: row.homepage_enabled === 1,
      avatarUrl: mediaUrl(row.avatar_media_id),
      feedImageUrl: feedImage(row.avatar_media_id),
      coverUrl: mediaUrl(row.cover_media_id),
      htmlUrl: urls.channelHtml(row.slug),
      rssUrl: urls.channelRss(row.slug),
      jsonFeedUrl: urls.channelJsonFeed(row.slug),
      jsonUrl: urls.channelJson(row.slug),
      articlesJsonUrl: urls.channelArticlesJson(row.slug),
      updatedAt: row.updated_at,
    }));
  }

  /**
   * Of an article's translations that have a published revision, the public
   * ones (the one rule `heads` and `publicLanguages` share). Each of them has
   * its public version, so the rule's answer is the same for all: every one,
   * or none (no public primary, an unlisted article, a hidden channel).
   */
  function publicOf<T extends { language: string }>(row: ArticleRow, channelRow: ChannelRow, own: readonly T[]): readonly T[] {
    const isPublic = isTranslationPublic({
      translation: { hasPublicVersion: true },
      primary: { hasPublicVersion: own.some((t) => t.language === row.default_language) },
      articleStatus: row.status,
      channelActive: channelRow.status === 'active',
    });
    return isPublic ? own : [];
  }

  async function publicLanguages(filter: ArticleFilter): Promise<Map<number, string[]>> {
    const rows = await readPublishedArticleRows(db, filter);
    const languages = new Map<number, string[]>();
    if (rows.length === 0) return languages;
    const channelRows = new Map((await activeChannelRows([...new Set(rows.map((r) => r.channel_id))])).map((c) => [c.id, c]));
    const byArticle = new Map<number, Array<{ language: string }>>();
    for (const t of await readPublishedLanguages(db, rows.map((r) => r.id))) {
      const own = byArticle.get(t.article_id);
      if (own) own.push(t);
      else byArticle.set(t.article_id, [t]);
    }
    for (const row of rows) {
      const channelRow = channelRows.get(row.channel_id);
      if (!channelRow) continue;
      const visible = publicOf(row, channelRow, byArticle.get(row.id) ?? []);
      if (visible.length > 0) languages.set(row.id, visible.map((t) => t.language));
    }
    return languages;
  }

  async function load(filter: ArticleFilter, bodies: BodyRead): Promise<Array<{ head: ArticleHead; visible: readonly PublishedRow[] }>> {
    const rows = await readPublishedArticleRows(db, filter);
    if (rows.length === 0) return [];
    const activeRows = await activeChannelRows([...new Set(rows.map((r) => r.channel_id))]);
    const channelRows = new Map(activeRows.map((c) => [c.id, c]));
    const channels = new Map((await toPublicChannels(activeRows)).map((c) => [c.id, c]));
    const published = await readPublishedRows(db, rows.map((r) => r.id), { bodies, bodyVersion: BODY_RENDER_VERSION, imageSliceChars: IMAGE_SLICE_CHARS });
    // A row without a current stored rendering is rendered now when its body is read anyway (bodiesOf then takes
    // it from the cache), so the image is there from the first build after the renderer changed.
    if (bodies !== 'none') {
      for (const p of published) {
        if (p.body_version === null) p.image_html = imageSlice(cache.get(p.content_hash, p.content_markdown, renderMarkdownBody).html);
      }
    }
    const images = await imagesOf(rows, channels, published);
    const byArticle = new Map<number, typeof published>();
    for (const t of published) {
      const own = byArticle.get(t.article_id);
      if (own) own.push(t);
      else byArticle.set(t.article_id, [t]);
    }
    const loaded: Array<{ head: ArticleHead; visible: readonly PublishedRow[] }> = [];
    for (const row of rows) {
      const channel = channels.get(row.channel_id);
      const channelRow = channelRows.get(row.channel_id);
      if (!channel || !channelRow) continue;
      const visible = publicOf(row, channelRow, byArticle.get(row.id) ?? []);
      if (visible.length === 0) continue;
      loaded.push({ head: toHead(row, channel, channelRow, visible, images), visible });
    }
    return loaded.sort((a, b) => byPublication(a.head.summary, b.head.summary));
  }

  /**
   * The image of each published row (`article-image.ts`): the first image of its body that is an attached,
   * non-draft file of its own article. One query for every candidate file.
   */
  async function imagesOf(
    rows: readonly ArticleRow[],
    channels: ReadonlyMap<number, PublicChannel>,
    published: ReadonlyArray<{ article_id: number; image_html: string | null; revision_id: number }>,
  ): Promise<Map<number, PublicImage>> {
    const articles = new Map(rows.map((r) => [r.id, r]));
    const candidates = published.flatMap((p) => {
      const article = articles.get(p.article_id);
      const channel = article && channels.get(article.channel_id);
      return article && channel ? [{ p, images: ownBodyImages(p.image_html, channel.slug, article.slug) }] : [];
    });
    const names = [...new Set(candidates.flatMap((c) => c.images.map((i) => i.fileName)))];
    const files = new Map((await listArticleImageFiles(db, names)).map((f) => [f.file_name, f]));
    const found = new Map<number, PublicImage>();
    for (const { p, images } of candidates) {
      const first = firstAttachedImage(images, p.article_id, files);
      if (first) {
        const { file } = first;
        found.set(p.revision_id, { url: urls.media(file.file_name), alt: first.alt, type: 'image/webp', bytes: file.bytes, width: file.width, height: file.height });
      }
    }
    return found;
  }

  function toHead(
    row: ArticleRow,
    channel: PublicChannel,
    channelRow: ChannelRow,
    visible: readonly PublishedRow[],
    images: ReadonlyMap<number, PublicImage>,
  ): ArticleHead {
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
      image: images.get(t.revision_id) ?? null,
      textStart: '',
    }));
    const summary: PublicArticleSummary = {
      id: row.id,
      slug: row.slug,
      channel,
      defaultLanguage: row.default_language,
      author: row.author_name ? { name: row.author_name } : null,
      publishedAt: row.published_at!,
      updatedAt: translations.map((t) => t.updatedAt).sort().pop()!,
      onHomepage: isOnHomepage(row, channelRow),
      translations,
    };
    return { summary, contentHashes: Object.fromEntries(visible.map((t) => [t.language, t.content_hash])) };
  }

  /** The rendered body of each visible row (`currentRendering`: the kept one when current, else rendered now, never stored). */
  function bodiesOf(rows: ReadonlyArray<{ visible: readonly PublishedRow[] }>): Map<PublishedRow, RenderedBody> {
    const render = (row: PublishedRow) => (markdown: string) => cache.get(row.content_hash, markdown, renderMarkdownBody);
    const bodies = new Map<PublishedRow, RenderedBody>();
    for (const { visible } of rows) for (const row of visible) bodies.set(row, currentRendering(row, render(row)));
    return bodies;
  }

  /** The full articles: the heads' fields, each translation with its body. */
  async function toArticles(loaded: ReadonlyArray<{ head: ArticleHead; visible: readonly PublishedRow[] }>): Promise<PublicArticle[]> {
    const bodies = bodiesOf(loaded);
    return loaded.map(({ head, visible }) => {
      const translations: PublicTranslation[] = head.summary.translations.map(({ textStart: _none, ...t }) => {
        const row = visible.find((v) => v.language === t.language)!;
        const body = bodies.get(row)!;
        return { ...t, markdown: row.content_markdown, html: body.html, text: body.text, prose: body.prose, linkTargets: body.links };
      });
      return { ...head.summary, translations };
    });
  }

  async function texts(filter: ArticleFilter): Promise<PublicArticleText[]> {
    const loaded = await load(filter, 'text');
    const bodies = bodiesOf(loaded);
    return loaded.map(({ head, visible }) => ({
      ...head.summary,
      translations: head.summary.translations.map(({ textStart: _none, ...t }) => ({ ...t, text: bodies.get(visible.find((v) => v.language === t.language)!)!.text })),
    }));
  }

  async function translationBody(articleId: number, shown: PublicTranslationSummary): Promise<PublicTranslation | null> {
    const row = await readPublishedBody(db, articleId, shown.language);
    if (!row || (row.decided_at ?? row.created_at) !== shown.updatedAt) return null;
    const body = currentRendering(row, (markdown) => cache.get(row.content_hash, markdown, renderMarkdownBody));
    const { textStart: _none, ...head } = shown;
    return { ...head, markdown: row.content_markdown, html: body.html, text: body.text, prose: body.prose, linkTargets: body.links };
  }

  async function translationHtml(articleId: number, shown: PublicTranslationSummary): Promise<string | null> {
    const row = await readPublishedHtml(db, articleId, shown.language, BODY_RENDER_VERSION);
    if (!row || (row.decided_at ?? row.created_at) !== shown.updatedAt) return null;
    return row.content_html ?? cache.get(row.content_hash, row.content_markdown ?? '', renderMarkdownBody).html;
  }

  /**
   * A translation's current content as the row of a published revision (`PublishedRow`), dated `now`: what
   * approving it now would publish. Its rendering is the kept one when current, else rendered here (not
   * through the cache, whose key is a revision's content hash).
   */
  function currentAsPublished(t: TranslationRow, now: string): { row: PublishedRow; body: RenderedBody } {
    const body = currentRendering(t);
    const row: PublishedRow = {
      // A draft has no revision yet: a key no revision has, for the image map.
      revision_id: t.current_revision_id ?? -t.id,
      article_id: t.article_id,
      language: t.language,
      published_at: t.published_at ?? now,
      title: t.title,
      excerpt: t.excerpt,
      content_markdown: t.content_markdown,
      seo_title: t.seo_title,
      seo_description: t.seo_description,
      content_hash: '',
      decided_at: now,
      created_at: now,
      content_html: body.html,
      content_text: body.text,
      body_version: BODY_RENDER_VERSION,
      link_targets: body.links,
      content_prose: body.prose,
      image_html: imageSlice(body.html),
    };
    return { row, body };
  }

  async function preview(articleId: number, now: string): Promise<PreviewedArticle | null> {
    const found = await findArticleRow(db, articleId);
    if (!found) return null;
    const channelRows = await activeChannelRows([found.channel_id]);
    const channel = (await toPublicChannels(channelRows))[0];
    if (!channel) return null;
    // As publishing would leave it: published (first publication now, when it has none), not archived.
    const row: ArticleRow = { ...found, status: 'published', published_at: found.published_at ?? now };
    const own = await listTranslations(db, [articleId]);
    const published = new Map((await readPublishedRows(db, [articleId], { bodies: 'full', bodyVersion: BODY_RENDER_VERSION, imageSliceChars: IMAGE_SLICE_CHARS })).map((p) => [p.language, p]));
    const visible: PublishedRow[] = [];
    const bodies = new Map<PublishedRow, RenderedBody>();
    const changed: string[] = [];
    for (const t of own) {
      const live = published.get(t.language);
      // Nothing waiting: readers' version is the current one, unchanged by publishing.
      if (live && t.published_revision_id !== null && t.current_revision_id === t.published_revision_id) {
        if (live.body_version === null) live.image_html = imageSlice(cache.get(live.content_hash, live.content_markdown, renderMarkdownBody).html);
        visible.push(live);
        bodies.set(live, currentRendering(live, (markdown) => cache.get(live.content_hash, markdown, renderMarkdownBody)));
        continue;
      }
      const current = currentAsPublished(t, now);
      visible.push(current.row);
      bodies.set(current.row, current.body);
      changed.push(t.language);
    }
    if (!visible.some((t) => t.language === row.default_language)) return null;
    const images = await imagesOf([row], new Map([[channel.id, channel]]), visible);
    const head = toHead(row, channel, channelRows[0]!, visible, images);
    const translations: PublicTranslation[] = head.summary.translations.map(({ textStart: _none, ...t }) => {
      const body = bodies.get(visible.find((v) => v.language === t.language)!)!;
      const source = visible.find((v) => v.language === t.language)!;
      return { ...t, markdown: source.content_markdown, html: body.html, text: body.text, prose: body.prose, linkTargets: body.links };
    });
    const summary: PublicArticleSummary = {
      ...head.summary,
      translations: head.summary.translations.map((t) => ({ ...t, textStart: textStartOf(bodies.get(visible.find((v) => v.language === t.language)!)!.prose) })),
    };
    return { article: { ...head.summary, translations }, summary, changed };
  }

  // Under test every model handed out is frozen: the identity rule (`identity-memo.ts`) says built models never change.
  return {
    channels: async () => freezeModel(await loadChannels()),
    channel: async (id) => freezeModel((await loadChannels([id]))[0] ?? null),
    articles: async (filter) => freezeModel(await toArticles(await load(filter, 'full'))),
    heads: async (filter) => freezeModel((await load(filter, 'none')).map((x) => x.head)),
    publicLanguages,
    articlesWithHeads: async (filter) => {
      const loaded = await load(filter, 'full');
      const articles = await toArticles(loaded);
      return freezeModel(loaded.map((x, i) => ({ article: articles[i]!, head: x.head })));
    },
    texts: async (filter) => freezeModel(await texts(filter)),
    translationBody: async (articleId, shown) => freezeModel(await translationBody(articleId, shown)),
    translationHtml,
    preview: async (articleId, now) => freezeModel(await preview(articleId, now)),
  };
}
