/**
 * Articles ("pages" in the publishing API): the API operations. Create or
 * update, read, list, write one translation, change status, change homepage
 * settings. Every write runs in one transaction; saving itself is in
 * `article-save.ts`.
 * @module
 */
import { createHash } from 'node:crypto';
import { checkIfMatch, checkIfNoneMatch, translationVersion } from './translation-version.ts';
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import { readConsistently, type Db, type Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import type { ArticleRow, RevisionRow, TranslationRow } from '../../store/article.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { plannedDraftRewrites } from '../media/attach.ts';
import type { MediaKit } from '../media/media-kit.ts';
import { channelAccess, requireApiPublishing, requireArticleWrite } from '../account/access.ts';
import type { Principal } from '../account/account.service.ts';
import type { CursorCodec } from '../cursor.ts';
import { PressroomError, validationError } from '../errors.ts';
import { eventFor, resolveStatusRequest } from './article-request.ts';
import type { ArticleListQuery, ArticleWriteInput, SettingsChangeInput, StatusChangeInput, TranslationPutInput } from './article.schema.ts';
import { toArticleListItem, toArticleView, type ArticleListItem, type ArticleView, type WriteWarning } from './article-view.ts';
import { setHomepageMode } from './article-events.ts';
import { applyPlan, takeOverFromContent, saveArticle, saveTranslation, type LanguagePlan } from './article-save.ts';
import { contentRequests, prepareContents } from './article-bodies.ts';
import { currentRendering, type BodyProcessor } from '../body/index.ts';
import { firstAttachedImage, ownBodyImages } from '../body/article-image.ts';
import { listArticleImageFiles } from '../../store/media.repository.ts';
import type { ModerationPolicy } from '../moderation/moderation-policy.ts';
import { assertPublicFieldsAllowed } from '../moderation/public-fields.ts';
import { readBuiltTranslations } from '../../store/built-translation.repository.ts';
import { articlesAwaitingBuild } from '../../store/publication-event.repository.ts';
import { EDGE_DELIVERY_DELAYED } from './reported-status.ts';
import { revisionsBeingPublished, withdrawalPending, withReportedStatuses, type OutputWatch } from './reported-status.ts';

/**
 * How long a write that withdrew public content waits for the build that
 * removes its files before answering (docs/LIFECYCLE.md, "Read your
 * writes"); an incremental build takes tens of milliseconds.
 */
export const WITHDRAWAL_WAIT_MS = 5000;

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
  /**
   * The static build, when it is on: statuses are then reported from what
   * the output shows (`reported-status.ts`), and writes that withdraw wait
   * for their build. Absent: the store is the truth.
   */
  readonly output?: OutputWatch;
}

/** Languages of an article the static output shows. */
async function shownLanguages(db: Executor, articleId: number): Promise<Set<string>> {
  return new Set((await builtHashes(db, articleId)).keys());
}

/** Language → content hash the static output shows of an article. */
async function builtHashes(db: Executor, articleId: number): Promise<ReadonlyMap<string, string>> {
  return (await readBuiltTranslations(db, [articleId])).get(articleId) ?? new Map();
}

/** The body a translation item sends, whichever field carries it. */
const bodyText = (item: { content_markdown?: string; content_html?: string }): string => item.content_markdown ?? item.content_html ?? '';

/**
 * Finds an article by numeric id or slug. Digits always mean the id: new
 * slugs cannot be all digits (`isArticleSlug`), so a ref names one article.
 */
export async function findArticle(db: Executor, channelId: number, channelSlug: string, ref: string): Promise<ArticleRow> {
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
  const translations = await articles.listTranslations(db, [article.id]);
  const ids = translations.flatMap((t) => [t.current_revision_id, t.published_revision_id]).filter((id): id is number => id !== null);
  const revisions = new Map<number, RevisionRow>((await articles.findRevisions(db, ids)).map((r) => [r.id, r]));
  const latest = await latestRevisionMap(db, translations);
  let reported: { article: ArticleRow; translations: TranslationRow[] } = { article: fresh, translations };
  let publishing: ReadonlySet<string> | undefined;
  if (deps.output) {
    const built = await builtHashes(db, fresh.id);
    const building = (await articlesAwaitingBuild(db, [fresh])).has(fresh.id);
    reported = withReportedStatuses(fresh, translations, new Set(built.keys()), building);
    publishing = revisionsBeingPublished(translations, built, latest, building);
    // A change the edge holds back while it fails is never silent (docs/HOSTING.md, "CDN and object storage").
    const delay = building && deps.output.edgeDelay ? await deps.output.edgeDelay(db) : null;
    if (delay) warnings = [...warnings, { code: EDGE_DELIVERY_DELAYED, message: delay }];
  }
  const images = await publishedImages(db, deps.urls, channelSlug, fresh, translations, revisions);
  return toArticleView({ ...reported, channelSlug, revisions, latest, urls: deps.urls, warnings, images, publishing });
}

/**
 * The public image of each translation's published version, by language (the rule of
 * `body/article-image.ts`, as the public model applies it: from the stored, current rendering).
 */
async function publishedImages(
  db: Executor,
  urls: PublicUrls,
  channelSlug: string,
  article: ArticleRow,
  translations: readonly TranslationRow[],
  revisions: ReadonlyMap<number, RevisionRow>,
): Promise<Map<string, { url: string; alt: string }>> {
  const found = translations.flatMap((t) => {
    const revision = t.published_revision_id === null ? undefined : revisions.get(t.published_revision_id);
    const html = revision ? currentRendering(revision).html : null;
    return [{ language: t.language, images: ownBodyImages(html, channelSlug, article.slug) }];
  });
  const files = new Map((await listArticleImageFiles(db, [...new Set(found.flatMap((f) => f.images.map((i) => i.fileName)))])).map((f) => [f.file_name, f]));
  const images = new Map<string, { url: string; alt: string }>();
  for (const { language, images: candidates } of found) {
    const first = firstAttachedImage(candidates, article.id, files);
    if (first) images.set(language, { url: urls.media(first.file.file_name), alt: first.alt });
  }
  return images;
}

/** The newest revision of each translation, by translation id: what its moderation state is read from. */
async function latestRevisionMap(db: Executor, translations: readonly TranslationRow[]): Promise<Map<number, RevisionRow>> {
  const rows = await articles.latestRevisions(db, translations.map((t) => t.id));
  return new Map(rows.map((r) => [r.translation_id, r]));
}

/** POST …/pages. */
export async function upsertArticle(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  input: ArticleWriteInput,
  /** `createOnly`: refuse (422 on `slug`) when the channel has an article with this slug, instead of updating it. */
  options: { createOnly?: boolean } = {},
): Promise<{ view: ArticleView; created: boolean }> {
  requireApiPublishing(principal);
  // Access is checked first, so a caller without it cannot make the service parse bodies; the bodies are
  // then processed before the transaction opens, which must not wait on them.
  const precheck = await channelAccess(deps.db, principal, channelSlug);
  requireArticleWrite(precheck);
  // A new byline shows on the published pages at once, so it cannot wait for the moderation job.
  if (input.author) assertPublicFieldsAllowed(deps.moderation, [{ name: 'author.name', value: input.author.name }]);
  const rewrites = await plannedDraftRewrites(deps.db, deps.media, { channel: precheck.channel, articleSlug: input.slug }, input.translations.map(bodyText));
  const prepared = await prepareContents(deps.bodies, contentRequests(input, rewrites), String(principal.accountId));
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    if (options.createOnly && (await articles.findArticleBySlug(trx, access.channel.id, input.slug))) {
      throw validationError({ slug: `The channel has an article with the slug "${input.slug}" already. Choose another slug, or open that article to edit it.` });
    }
    const { article, created, warnings } = await saveArticle(trx, deps, access, input, { prepared });
    return { view: await viewOf(deps, trx, article, channelSlug, warnings), created };
  });
}

/** GET …/pages/{ref}. */
export async function getArticle(deps: ArticleDeps, principal: Principal, channelSlug: string, ref: string): Promise<ArticleView> {
  requireApiPublishing(principal);
  const access = await channelAccess(deps.db, principal, channelSlug);
  // The statuses, revisions and build state of one moment: read apart, a moderation decision landing between them could read as settled (issue 38).
  return readConsistently(deps.db, async (db) => viewOf(deps, db, await findArticle(db, access.channel.id, channelSlug, ref), channelSlug));
}

/**
 * The article as the dashboard's editor needs it: the API's view, and when each translation last changed (its
 * texts or its state; a translation that changed before its primary did is shown "outdated", a hint).
 */
export async function getArticleForEditor(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
): Promise<{ view: ArticleView; changedAt: ReadonlyMap<string, string> }> {
  const view = await getArticle(deps, principal, channelSlug, ref);
  const rows = await articles.listTranslations(deps.db, [view.id]);
  return { view, changedAt: new Map(rows.map((t) => [t.language, t.updated_at])) };
}

/** One revision of a translation, as its history shows it. */
export interface RevisionView {
  readonly number: number;
  readonly title: string;
  readonly excerpt: string | null;
  readonly content_markdown: string;
  readonly seo_title: string | null;
  readonly seo_description: string | null;
  readonly moderation: RevisionRow['moderation_state'];
  readonly reason: string | null;
  readonly created_at: string;
  readonly decided_at: string | null;
  /** Whether readers get this revision now. */
  readonly public: boolean;
}

/** The most revisions a history shows. */
export const HISTORY_LIMIT = 100;

/**
 * A translation's history: every version submitted for moderation (a publish, or a change of a published
 * translation), newest first, and the article's view.
 * @throws PressroomError TRANSLATION_NOT_FOUND when the article has no translation in `language`.
 */
export async function getTranslationHistory(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
  language: string,
): Promise<{ view: ArticleView; revisions: RevisionView[] }> {
  const view = await getArticle(deps, principal, channelSlug, ref);
  const row = (await articles.listTranslations(deps.db, [view.id])).find((t) => t.language === language);
  if (!row) throw new PressroomError('TRANSLATION_NOT_FOUND', `The article has no "${language}" translation. Open one of its languages: ${view.translations.map((t) => t.language).join(', ')}.`);
  const revisions = await articles.listTranslationRevisions(deps.db, row.id, HISTORY_LIMIT);
  return {
    view,
    revisions: revisions.map((r) => ({
      number: r.number,
      title: r.title,
      excerpt: r.excerpt,
      content_markdown: r.content_markdown,
      seo_title: r.seo_title,
      seo_description: r.seo_description,
      moderation: r.moderation_state,
      reason: r.moderation_reason,
      created_at: r.created_at,
      decided_at: r.decided_at,
      public: r.id === row.published_revision_id,
    })),
  };
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
  // A cursor is good for the filters it was made with only; the search text by its hash, to keep the cursor short.
  const filters = query.state === undefined && query.q === undefined ? '' : `:${query.state ?? ''}:${query.q === undefined ? '' : createHash('sha256').update(query.q).digest('base64url').slice(0, 16)}`;
  const scope = `pages:${access.channel.id}:${query.status ?? ''}${filters}`;
  const beforeId = query.cursor !== undefined ? Number(deps.cursors.decode(scope, query.cursor).id) : undefined;
  // One moment's rows, statuses and build state, as for one article (`getArticle`).
  const { rows, translations, built, building, latest } = await readConsistently(deps.db, async (db) => {
    const rows = await articles.listArticlesPage(db, {
      channelId: access.channel.id,
      status: query.status,
      state: query.state,
      search: query.q,
      beforeId,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const translations = await articles.listTranslations(db, page.map((a) => a.id));
    const built = deps.output ? await readBuiltTranslations(db, page.map((a) => a.id)) : null;
    const building = deps.output ? await articlesAwaitingBuild(db, page) : new Set<number>();
    return { rows, translations, built, building, latest: await latestRevisionMap(db, translations) };
  });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const item = (a: ArticleRow) => {
    const own = translations.filter((t) => t.article_id === a.id);
    const shown = built?.get(a.id) ?? new Map<string, string>();
    const reported = built ? withReportedStatuses(a, own, new Set(shown.keys()), building.has(a.id)) : { article: a, translations: own };
    const publishing = built ? revisionsBeingPublished(own, shown, latest, building.has(a.id)) : undefined;
    return toArticleListItem(reported.article, channelSlug, reported.translations, latest, deps.urls, publishing);
  };
  return {
    pages: page.map(item),
    pagination: {
      limit: query.limit,
      next_cursor: hasMore ? deps.cursors.encode(scope, { id: page[page.length - 1]!.id }) : null,
      has_more: hasMore,
    },
  };
}

/**
 * A save asked only for a draft (`putTranslation`'s `draftOnly`) met a translation that is not one (it was
 * published, scheduled or sent to moderation meanwhile, or does not exist). Never leaves the domain: its
 * caller keeps the texts elsewhere (`autosave.service.ts`).
 */
export class NotADraft extends Error {
  constructor(language: string, status: string | null) {
    super(`the "${language}" translation is ${status ?? 'missing'}, not a draft`);
    this.name = 'NotADraft';
  }
}

/** PUT …/pages/{ref}/translations/{language}. */
export async function putTranslation(
  deps: ArticleDeps,
  principal: Principal,
  channelSlug: string,
  ref: string,
  language: string,
  input: TranslationPutInput,
  /**
   * `ifMatch`: the request's If-Match, checked against the translation's version in the write's transaction;
   * `ifNoneMatch`: `*` creates the translation only if it does not exist yet;
   * `draftOnly`: saves only while the translation exists and is a draft, whose save starts no moderation and
   * publishes nothing (the dashboard's autosave), else throws {@link NotADraft} and writes nothing.
   */
  options: { ifMatch?: string; ifNoneMatch?: string; draftOnly?: boolean } = {},
): Promise<{ view: ArticleView; created: boolean }> {
  requireApiPublishing(principal);
  const precheck = await channelAccess(deps.db, principal, channelSlug);
  requireArticleWrite(precheck);
  const target = await findArticle(deps.db, precheck.channel.id, channelSlug, ref);
  // Before the transaction, which must not wait on a body (see upsertArticle).
  const rewrites = await plannedDraftRewrites(deps.db, deps.media, { channel: precheck.channel, articleSlug: target.slug }, [bodyText(input)]);
  const prepared = await prepareContents(deps.bodies, [{ item: input, language, fieldPrefix: '', rewrites }], String(principal.accountId));
  return deps.db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, channelSlug);
    requireArticleWrite(access);
    const article = await findArticle(trx, access.channel.id, channelSlug, ref);
    if (options.ifMatch !== undefined || options.ifNoneMatch !== undefined || options.draftOnly) {
      const current = (await articles.listTranslations(trx, [article.id])).find((t) => t.language === language);
      const version = current ? translationVersion(current) : null;
      if (options.ifMatch !== undefined) checkIfMatch(options.ifMatch, version, language);
      if (options.ifNoneMatch !== undefined) checkIfNoneMatch(options.ifNoneMatch, version, language);
      if (options.draftOnly && current?.status !== 'draft') throw new NotADraft(language, current?.status ?? null);
    }
    const saved = await saveTranslation(trx, deps, access, article, { language, status: input.status }, prepared);
    return { view: await viewOf(deps, trx, saved.article, channelSlug, saved.warnings), created: saved.created };
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
    requireArticleWrite(access, { withdrawing: true });
    let article = await findArticle(trx, access.channel.id, channelSlug, ref);
    const now = isoNow(deps.clock);
    const translations = await articles.listTranslations(trx, [article.id]);
    if (translations.length > 1 && input.publish_translations === undefined) {
      throw validationError({
        publish_translations: `Required for an article with ${translations.length} translations (${translations.map((t) => t.language).join(', ')}): send true to apply the status to every translation, or false to apply it to the primary language "${article.default_language}" only.`,
      });
    }
    const request = resolveStatusRequest(input.status, input.scheduled_at, now, access.ownerPlan.scheduling);
    // A read-only channel may still take things down, nothing else.
    const withdraws = (request.kind === 'draft' || request.kind === 'archive' || request.kind === 'none') && (input.homepage_mode === undefined || input.homepage_mode === 'hide');
    if (!withdraws) requireArticleWrite(access);
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
    // Hiding from the homepage takes something down: a read-only channel allows it.
    requireArticleWrite(access, { withdrawing: input.homepage_mode === 'hide' });
    const article = await findArticle(trx, access.channel.id, channelSlug, ref);
    await takeOverFromContent(trx, article);
    await setHomepageMode(trx, isoNow(deps.clock), article, input.homepage_mode);
    return viewOf(deps, trx, article, channelSlug);
  });
}

/**
 * After a write: when it withdrew something the output still shows, asks
 * for the build and waits for it (at most `WITHDRAWAL_WAIT_MS`), then reads
 * the article again, so the writer's own answer already says what readers
 * get. Otherwise, or with the build off, returns `view` as it is.
 */
export async function settleWrite(deps: ArticleDeps, principal: Principal, channelSlug: string, view: ArticleView): Promise<ArticleView> {
  if (!deps.output) return view;
  const stored = await articles.listTranslations(deps.db, [view.id]);
  if (!withdrawalPending(stored, await shownLanguages(deps.db, view.id))) return view;
  await deps.output.settle(WITHDRAWAL_WAIT_MS);
  return { ...(await getArticle(deps, principal, channelSlug, String(view.id))), warnings: view.warnings };
}
