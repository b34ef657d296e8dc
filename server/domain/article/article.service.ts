/**
 * Articles ("pages" in the publishing API): the API operations. Create or
 * update, read, list, write one translation, change status, change homepage
 * settings. Every write runs in one transaction; saving itself is in
 * `article-save.ts`.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import type { ArticleRow, RevisionRow, TranslationRow } from '../../store/article.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { attachArticleMedia, plannedDraftRewrites } from '../../media/attach.ts';
import type { MediaKit } from '../../media/media-kit.ts';
import { channelAccess, requireApiPublishing, requireArticleWrite } from '../account/access.ts';
import type { Principal } from '../account/account.service.ts';
import type { CursorCodec } from '../cursor.ts';
import { PressroomError, validationError } from '../errors.ts';
import { mayPublishTranslationAlone, type LifecycleEvent } from './article-lifecycle.ts';
import { eventFor, resolveStatusRequest } from './article-request.ts';
import type { ArticleListQuery, ArticleWriteInput, SettingsChangeInput, StatusChangeInput, TranslationPutInput } from './article.schema.ts';
import { toArticleListItem, toArticleView, type ArticleListItem, type ArticleView, type WriteWarning } from './article-view.ts';
import { setHomepageMode, storedRendering } from './article-write.ts';
import { applyPlan, contentRequests, prepareContents, takeOverFromContent, upsertContent, withAttachedMarkdown, writeArticle, type LanguagePlan } from './article-save.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody, type BodyProcessor } from '../body/index.ts';
import type { ModerationPolicy } from '../moderation/moderation-policy.ts';
import { assertPublicFieldsAllowed } from '../moderation/public-fields.ts';

/** What the article service needs. */
export interface ArticleDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly urls: PublicUrls;
  readonly cursors: CursorCodec;
  /** Media folder: draft image references are attached and rewritten on write. Absent in tools that only import text. */
  readonly media?: MediaKit;
  /** Prepares and renders bodies off the request thread (the body pool); in this thread when absent. */
  readonly bodies?: BodyProcessor;
  /** Judges the byline, which goes public without a revision to hold it. */
  readonly moderation: ModerationPolicy;
}

/** The body a translation item sends, whichever field carries it. */
const bodyText = (item: { content_markdown?: string; content_html?: string }): string => item.content_markdown ?? item.content_html ?? '';

/**
 * Finds an article by numeric id or slug. Digits always mean the id: new
 * slugs cannot be all digits (`isArticleSlug`), so a ref names one article.
 */
async function findArticle(db: Executor, channelId: number, channelSlug: string, ref: string): Promise<ArticleRow> {
  const article = /^\d+$/.test(ref)
    ? /^\d{1,15}$/.test(ref) ? await articles.findArticleById(db, channelId, Number(ref)) : undefined
    : await articles.findArticleBySlug(db, channelId, ref);
  if (!article) {
    throw new PressroomError(
      'ARTICLE_NOT_FOUND',
      `No article "${ref}" exists in the channel "${channelSlug}". Use the article's slug or numeric id; list articles with GET /api/v1/channels/${channelSlug}/pages.`,
    );
  }
  return article;
}

async function viewOf(deps: ArticleDeps, db: Executor, article: ArticleRow, channelSlug: string, warnings: WriteWarning[] = []): Promise<ArticleView> {
  const fresh = (await articles.findArticleById(db, article.channel_id, article.id)) ?? article;
  const translations = await ensureRenderings(db, await articles.listTranslations(db, [article.id]));
  const ids = translations.flatMap((t) => [t.current_revision_id, t.published_revision_id]).filter((id): id is number => id !== null);
  const revisions = new Map<number, RevisionRow>((await articles.findRevisions(db, ids)).map((r) => [r.id, r]));
  return toArticleView({ article: fresh, channelSlug, translations, revisions, urls: deps.urls, warnings });
}

/**
 * Rows saved before their rendering was kept (migration 0007), or by another
 * renderer, are rendered once here and stored back, so the next read of the
 * draft does not parse its Markdown again.
 */
async function ensureRenderings(db: Executor, rows: TranslationRow[]): Promise<TranslationRow[]> {
  const out: TranslationRow[] = [];
  for (const row of rows) {
    if (storedRendering(row)) {
      out.push(row);
      continue;
    }
    const body = renderMarkdownBody(row.content_markdown);
    const rendered = { content_html: body.html, content_text: body.text, body_version: BODY_RENDER_VERSION };
    await articles.storeTranslationRendering(db, row.id, row.content_markdown, rendered);
    out.push({ ...row, ...rendered });
  }
  return out;
}

/** POST …/pages. */
export async function upsertArticle(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  input: ArticleWriteInput,
): Promise<{ view: ArticleView; created: boolean }> {
  requireApiPublishing(principal);
  // Access is checked first, so a caller without it cannot make the service parse bodies; the bodies are
  // then processed before the transaction opens, which must not wait on them.
  const precheck = await channelAccess(deps.db, principal, channelSlug);
  requireArticleWrite(precheck);
  // A new byline shows on the published pages at once, so it cannot wait for the moderation job.
  if (input.author) assertPublicFieldsAllowed(deps.moderation, [{ name: 'author.name', value: input.author.name }]);
  const rewrites = await plannedDraftRewrites(deps.db, deps.media, { channel: precheck.channel, articleSlug: input.slug }, input.translations.map(bodyText));
  const prepared = await prepareContents(deps.bodies, contentRequests(input, rewrites));
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    const { article, created, warnings } = await writeArticle(trx, deps, access, input, { prepared });
    return { view: await viewOf(deps, trx, article, channelSlug, warnings), created };
  });
}

/** GET …/pages/{ref}. */
export async function getArticle(deps: ArticleDeps, principal: Principal, channelSlug: string, ref: string): Promise<ArticleView> {
  requireApiPublishing(principal);
  const access = await channelAccess(deps.db, principal, channelSlug);
  const article = await findArticle(deps.db, access.channel.id, channelSlug, ref);
  return viewOf(deps, deps.db, article, channelSlug);
}

/** GET …/pages: newest first, keyset-paginated by id. */
export async function listArticles(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  query: ArticleListQuery,
): Promise<{ pages: ArticleListItem[]; pagination: { limit: number; next_cursor: string | null; has_more: boolean } }> {
  requireApiPublishing(principal);
  const access = await channelAccess(deps.db, principal, channelSlug);
  const scope = `pages:${access.channel.id}:${query.status ?? ''}`;
  const beforeId = query.cursor !== undefined ? Number(deps.cursors.decode(scope, query.cursor).id) : undefined;
  const rows = await articles.listArticlesPage(deps.db, {
    channelId: access.channel.id,
    status: query.status,
    beforeId,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const translations = await articles.listTranslations(deps.db, page.map((a) => a.id));
  return {
    pages: page.map((a) =>
      toArticleListItem(a, channelSlug, translations.filter((t) => t.article_id === a.id), deps.urls),
    ),
    pagination: {
      limit: query.limit,
      next_cursor: hasMore ? deps.cursors.encode(scope, { id: page[page.length - 1]!.id }) : null,
      has_more: hasMore,
    },
  };
}

/** PUT …/pages/{ref}/translations/{language}. */
export async function putTranslation(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
  language: string,
  input: TranslationPutInput,
): Promise<{ view: ArticleView; created: boolean }> {
  requireApiPublishing(principal);
  const precheck = await channelAccess(deps.db, principal, channelSlug);
  requireArticleWrite(precheck);
  const target = await findArticle(deps.db, precheck.channel.id, channelSlug, ref);
  // Before the transaction, which must not wait on a body (see upsertArticle).
  const rewrites = await plannedDraftRewrites(deps.db, deps.media, { channel: precheck.channel, articleSlug: target.slug }, [bodyText(input)]);
  const prepared = await prepareContents(deps.bodies, [{ item: input, language, fieldPrefix: '', rewrites }]);
  const content = prepared.contents[0]!;
  const rewritten = prepared.rewritten[0];
  const { warnings } = prepared;
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    const article = await findArticle(trx, access.channel.id, channelSlug, ref);
    const now = isoNow(deps.clock);
    withAttachedMarkdown(content, (await attachArticleMedia(trx, deps.media, { channel: access.channel, article, now }, [content.content_markdown]))[0]!, rewritten);
    const before = (await articles.listTranslations(trx, [article.id])).find((t) => t.language === language);
    const { row, changed, created } = await upsertContent(trx, now, article.id, before, content);
    const events: LifecycleEvent[] = changed && before ? [{ type: 'revise' }] : [];
    if (input.status !== undefined) {
      if ((input.status === 'published' || input.status === 'scheduled') && !mayPublishTranslationAlone(article.status)) {
        throw validationError({
          status: `The article is archived, so its "${language}" translation cannot be ${input.status === 'published' ? 'published' : 'scheduled'} on its own: nothing of an archived article is public. Bring the article back with PATCH …/pages/{page}/status {"status": "${input.status}"} (or "draft" to keep it private), or send this translation without status.`,
        });
      }
      const at = input.status === 'scheduled' ? article.scheduled_at : null;
      if (input.status === 'scheduled' && at === null) {
        throw validationError({ status: 'The article is not scheduled, so this translation cannot be. Schedule the article with PATCH …/status first.' });
      }
      const event = eventFor(resolveStatusRequest(input.status, at, now, access.ownerPlan.scheduling));
      if (event) events.push(event);
    }
    const plan = new Map([[language, { row, events, field: 'status' }]]);
    await takeOverFromContent(trx, article);
    const updated = await applyPlan(trx, { now, mode: 'queue' }, article, plan, article.status === 'archived', warnings);
    return { view: await viewOf(deps, trx, updated, channelSlug, warnings), created };
  });
}

/** PATCH …/pages/{ref}/status. */
export async function changeStatus(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
  input: StatusChangeInput,
): Promise<ArticleView> {
  requireApiPublishing(principal);
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    let article = await findArticle(trx, access.channel.id, channelSlug, ref);
    const now = isoNow(deps.clock);
    const translations = await articles.listTranslations(trx, [article.id]);
    if (translations.length > 1 && input.publish_translations === undefined) {
      throw validationError({
        publish_translations: `Required for an article with ${translations.length} translations (${translations.map((t) => t.language).join(', ')}): send true to apply the status to every translation, or false to apply it to the primary language "${article.default_language}" only.`,
      });
    }
    const request = resolveStatusRequest(input.status, input.scheduled_at, now, access.ownerPlan.scheduling);
    const event = eventFor(request)!;
    const everyLanguage = request.kind === 'archive' || input.publish_translations === true;
    const plan: LanguagePlan = new Map();
    for (const t of translations) {
      if (t.language === article.default_language || everyLanguage) {
        plan.set(t.language, { row: t, events: [event], field: 'publish_translations' });
      }
    }
    if (input.homepage_mode !== undefined) article = await setHomepageMode(trx, now, article, input.homepage_mode);
    await takeOverFromContent(trx, article);
    const warnings: WriteWarning[] = [];
    article = await applyPlan(trx, { now, mode: 'queue' }, article, plan, request.kind === 'archive', warnings);
    return viewOf(deps, trx, article, channelSlug, warnings);
  });
}

/** PATCH …/pages/{ref}/settings: homepage visibility only. */
export async function changeSettings(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
  input: SettingsChangeInput,
): Promise<ArticleView> {
  requireApiPublishing(principal);
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    const article = await findArticle(trx, access.channel.id, channelSlug, ref);
    await takeOverFromContent(trx, article);
    await setHomepageMode(trx, isoNow(deps.clock), article, input.homepage_mode);
    return viewOf(deps, trx, article, channelSlug);
  });
}
