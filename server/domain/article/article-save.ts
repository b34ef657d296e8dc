/**
 * Saving an article: preparing bodies, upserting translation content, and
 * turning the request's status fields into per-language lifecycle events that
 * are applied primary first. Shared by the API operations
 * (`article.service.ts`) and the content/ importer, inside the caller's
 * transaction.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import { insertPublicationEvent } from '../../store/publication-event.repository.ts';
import { attachArticleMedia } from '../../media/attach.ts';
import type { MediaKit } from '../../media/media-kit.ts';
import type { ChannelAccess } from '../account/access.ts';
import { prepareBody } from '../body/index.ts';
import { validationError } from '../errors.ts';
import { mayChangePrimary, mustWithdrawWithPrimary, nextTranslationState, type LifecycleEvent } from './article-lifecycle.ts';
import { assertSecondaryMayPublish, eventFor, resolveStatusRequest, type StatusRequest } from './article-request.ts';
import type { ArticleWriteInput } from './article.schema.ts';
import type { WriteWarning } from './article-view.ts';
import { applyTranslationEvents, contentHash, setHomepageMode, syncArticleRecord, type ModerationMode } from './article-write.ts';

/** What saving needs beyond the transaction. */
export interface SaveDeps {
  readonly clock: Clock;
  /** Media folder: draft image references are attached and rewritten on save. Absent in tools that only import text. */
  readonly media?: MediaKit;
}

/** The per-language plan of a save: the row, the events to apply, the field to name in a 422. */
export type LanguagePlan = Map<string, { row: TranslationRow; events: LifecycleEvent[]; field: string }>;

/** Content of one translation as stored. */
export interface PreparedContent {
  language: string;
  title: string;
  excerpt: string | null;
  content_markdown: string;
  seo_title: string | null;
  seo_description: string | null;
}

export function prepare(
  item: { title: string; excerpt?: string | null; content_markdown?: string; content_html?: string; seo_title?: string | null; seo_description?: string | null },
  language: string,
  fieldPrefix: string,
  warnings: WriteWarning[],
): PreparedContent {
  const body = prepareBody({ title: item.title, contentMarkdown: item.content_markdown, contentHtml: item.content_html });
  const field = `${fieldPrefix}${item.content_html !== undefined ? 'content_html' : 'content_markdown'}`;
  for (const w of body.warnings) warnings.push({ code: w.code, message: w.message, field });
  return {
    language,
    title: item.title,
    excerpt: item.excerpt ?? null,
    content_markdown: body.markdown,
    seo_title: item.seo_title ?? null,
    seo_description: item.seo_description ?? null,
  };
}


export async function upsertContent(
  trx: Executor,
  now: string,
  articleId: number,
  existing: TranslationRow | undefined,
  content: PreparedContent,
): Promise<{ row: TranslationRow; changed: boolean; created: boolean }> {
  if (!existing) {
    const row = await articles.insertTranslation(trx, {
      article_id: articleId,
      ...content,
      status: 'draft',
      published_at: null,
      scheduled_at: null,
      current_revision_id: null,
      published_revision_id: null,
      created_at: now,
      updated_at: now,
    });
    return { row, changed: true, created: true };
  }
  const changed = contentHash(existing) !== contentHash({ ...existing, ...content });
  if (!changed) return { row: existing, changed: false, created: false };
  await articles.updateTranslation(trx, existing.id, { ...content, updated_at: now });
  return { row: { ...existing, ...content, updated_at: now }, changed: true, created: false };
}

/** The primary translation's status after `events`, computed without writing. */
function primaryStatusAfter(row: TranslationRow, events: readonly LifecycleEvent[], now: string, hasPublic: boolean) {
  let state = { status: row.status, scheduledAt: row.scheduled_at, scheduledPaused: false, hasPublicVersion: hasPublic, pendingRevision: false };
  for (const e of events) state = nextTranslationState(state, e, now).state;
  return state.status;
}

/**
 * Applies per-language events: the primary first, then secondaries (checked
 * against rule 1), then syncs the article record.
 */
export async function applyPlan(
  trx: Executor,
  ctx: { now: string; mode: ModerationMode },
  article: ArticleRow,
  plan: LanguagePlan,
  archived: boolean,
): Promise<ArticleRow> {
  const primaryEntry = plan.get(article.default_language);
  const all = await articles.listTranslations(trx, [article.id]);
  // Unpublishing the primary language unpublishes the article: a secondary is public only while the primary is,
  // so a published or scheduled secondary left alone would read "published" while readers get a 404.
  if (primaryEntry?.events.some((e) => e.type === 'save_draft')) {
    for (const t of all) {
      if (t.language === article.default_language || plan.has(t.language)) continue;
      if (mustWithdrawWithPrimary(t.status)) plan.set(t.language, { row: t, events: [{ type: 'save_draft' }], field: 'status' });
    }
  }
  const primaryRow = primaryEntry?.row ?? all.find((t) => t.language === article.default_language);
  if (!primaryRow) throw new Error(`article ${article.id} has no primary translation`);
  const primaryAfter = primaryStatusAfter(primaryRow, primaryEntry?.events ?? [], ctx.now, primaryRow.published_revision_id !== null);
  for (const [language, entry] of plan) {
    if (language === article.default_language) continue;
    const publishes = entry.events.some((e) => e.type === 'publish' || e.type === 'schedule');
    if (publishes) assertSecondaryMayPublish(primaryAfter, language, article.default_language, entry.field);
  }
  const primary = primaryEntry
    ? await applyTranslationEvents(trx, ctx, article, primaryEntry.row, primaryEntry.events)
    : primaryRow;
  for (const [language, entry] of plan) {
    if (language === article.default_language || entry.events.length === 0) continue;
    await applyTranslationEvents(trx, ctx, article, entry.row, entry.events);
  }
  return syncArticleRecord(trx, ctx.now, article, primary, archived);
}

/**
 * Marks an article written through the API as API-managed: its content/ file
 * is then reported instead of applied (docs/CONTENT.md, "Precedence").
 */
export async function takeOverFromContent(trx: Executor, article: ArticleRow): Promise<void> {
  if (article.source === 'content') await articles.updateArticle(trx, article.id, { source: 'api', source_hash: null });
}

/** Options of {@link writeArticle} beyond the API input. */
export interface WriteOptions {
  /** `trusted` publishes without moderation (content/ files reviewed in the repository). */
  readonly mode?: ModerationMode;
  /** Marks the article as coming from content/. */
  readonly source?: { kind: 'content'; hash: string };
}

/**
 * Creates an article, or updates it when the slug exists in the channel.
 * Runs inside the caller's transaction, with access already checked.
 */
export async function writeArticle(
  trx: Executor,
  deps: SaveDeps,
  access: ChannelAccess,
  input: ArticleWriteInput,
  options: WriteOptions = {},
): Promise<{ article: ArticleRow; created: boolean; warnings: WriteWarning[] }> {
  const now = isoNow(deps.clock);
  const warnings: WriteWarning[] = [];
  const contents = input.translations.map((t, i) => prepare(t, t.language, `translations.${i}.`, warnings));
  const existing = await articles.findArticleBySlug(trx, access.channel.id, input.slug);
  const existingTranslations = existing ? await articles.listTranslations(trx, [existing.id]) : [];
  const languages = new Set([...existingTranslations.map((t) => t.language), ...contents.map((c) => c.language)]);
  if (!languages.has(input.default_language)) {
    throw validationError({ translations: `Include a translation in the default language "${input.default_language}".` });
  }

  // The primary item's own status stands in for an omitted article status.
  const primaryIndex = input.translations.findIndex((t) => t.language === input.default_language);
  const primaryItemStatus = primaryIndex >= 0 ? input.translations[primaryIndex]!.status : undefined;
  if (input.status !== undefined && primaryItemStatus !== undefined && primaryItemStatus !== input.status) {
    throw validationError({
      [`translations.${primaryIndex}.status`]: `The primary translation's status ("${primaryItemStatus}") differs from the article status ("${input.status}"). Send one of them, or the same value.`,
    });
  }
  const request = resolveStatusRequest(input.status ?? primaryItemStatus, input.scheduled_at, now, access.ownerPlan.scheduling);
  const fallback: StatusRequest = existing ? { kind: 'none' } : { kind: 'draft' };
  const articleRequest = request.kind === 'none' ? fallback : request;

  // A published or scheduled translation must never be left under a primary that is not public (it would read
  // "published" while readers get a 404), unless this request takes the whole article out of view anyway.
  if (existing && input.default_language !== existing.default_language && articleRequest.kind !== 'draft' && articleRequest.kind !== 'archive') {
    const newPrimary = existingTranslations.find((t) => t.language === input.default_language);
    const others = existingTranslations.filter((t) => t.language !== input.default_language);
    if (!mayChangePrimary(newPrimary?.status ?? 'draft', others.map((t) => t.status))) {
      const out = others.filter((t) => t.status === 'published' || t.status === 'scheduled').map((t) => `"${t.language}" (${t.status})`);
      throw validationError({
        default_language: `The primary language cannot become "${input.default_language}" while it is not published (status: ${newPrimary?.status ?? 'new'}) and ${out.join(', ')} ${out.length === 1 ? 'is' : 'are'}: a translation is public only while the primary one is. Publish the "${input.default_language}" translation first and switch once it is published, or send status "draft" to unpublish the article while switching.`,
      });
    }
  }

  let article =
    existing ??
    (await articles.insertArticle(trx, {
      channel_id: access.channel.id,
      slug: input.slug,
      default_language: input.default_language,
      status: 'draft',
      moderation: null,
      homepage_mode: input.homepage_mode ?? 'inherit',
      scheduled_at: null,
      scheduled_pause_reason: null,
      published_at: null,
      author_name: input.author?.name ?? null,
      source: options.source?.kind ?? ('api' as const),
      source_hash: options.source?.hash ?? null,
      created_at: now,
      updated_at: now,
    }));
  if (existing) {
    if (input.homepage_mode !== undefined) article = await setHomepageMode(trx, now, article, input.homepage_mode);
    const patch = {
      default_language: input.default_language,
      ...(input.author !== undefined && { author_name: input.author?.name ?? null }),
      // An API write takes the article over from content/, so a later file change cannot silently undo it.
      source: options.source?.kind ?? ('api' as const),
      source_hash: options.source?.hash ?? null,
      updated_at: now,
    };
    await articles.updateArticle(trx, article.id, patch);
    // The byline and the primary language show on public pages even when no text changed.
    const bylineOrLanguageChanged = patch.default_language !== article.default_language || (input.author !== undefined && (input.author?.name ?? null) !== article.author_name);
    if (bylineOrLanguageChanged && article.published_at !== null && article.status !== 'archived') {
      await insertPublicationEvent(trx, { kind: 'article_public_changed', channelId: article.channel_id, articleId: article.id, languages: [], now });
    }
    article = { ...article, ...patch };
  }
  // Draft image URLs become the article's own media before the bodies are stored (media rule 3).
  const attached = await attachArticleMedia(trx, deps.media, { channel: access.channel, article, now }, contents.map((c) => c.content_markdown));
  attached.forEach((markdown, i) => (contents[i]!.content_markdown = markdown));

  // Several translations published together default to all of them (publishing rule 2).
  const publishAll = input.publish_translations ?? true;
  const plan: LanguagePlan = new Map();
  for (const [i, content] of contents.entries()) {
    const item = input.translations[i]!;
    const before = existingTranslations.find((t) => t.language === content.language);
    const { row, changed } = await upsertContent(trx, now, article.id, before, content);
    const events: LifecycleEvent[] = changed && before ? [{ type: 'revise' }] : [];
    const isPrimary = content.language === input.default_language;
    const own = isPrimary ? null : item.status;
    const ownRequest = own ? resolveStatusRequest(own, own === 'draft' ? null : input.scheduled_at, now, access.ownerPlan.scheduling) : null;
    const applied = isPrimary
      ? articleRequest
      : ownRequest ?? (articleRequest.kind === 'draft' || publishAll ? articleRequest : { kind: 'none' as const });
    const event = eventFor(applied);
    if (event) events.push(event);
    plan.set(content.language, { row, events, field: `translations.${i}.status` });
  }
  // Unpublishing the article withdraws translations that were not sent too.
  if (articleRequest.kind === 'draft' && existing) {
    for (const t of await articles.listTranslations(trx, [article.id])) {
      if (!plan.has(t.language)) plan.set(t.language, { row: t, events: [{ type: 'save_draft' }], field: 'status' });
    }
  }
  const archived = article.status === 'archived' && articleRequest.kind === 'none';
  article = await applyPlan(trx, { now, mode: options.mode ?? 'queue' }, article, plan, archived);
  return { article, created: !existing, warnings };
}

