/**
 * The article write pipeline, inside the caller's transaction and after its
 * access checks: bodies prepared before the transaction
 * (`article-bodies.ts`) have their draft images attached and are stored
 * (`saveTranslations`, the one step every write of a translation takes);
 * the request's status fields become per-language lifecycle events, applied
 * primary first (`applyPlan`). Used by the API operations
 * (`article.service.ts`: create or update, `PUT …/translations/{lang}`)
 * and the content/ importer.
 * @module
 */
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { Executor } from '../../store/database.ts';
import * as articles from '../../store/article.repository.ts';
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import type { ChannelRow } from '../../store/channel.table.ts';
import { announcePublicChange } from '../public-change.ts';
import { attachArticleMedia } from '../media/attach.ts';
import type { MediaKit } from '../media/media-kit.ts';
import type { ChannelAccess } from '../account/access.ts';
import { keptColumns, renderMarkdownBody, type BodyProcessor, type RenderedMarkdown } from '../body/index.ts';
import { validationError } from '../errors.ts';
import { mayChangePrimary, mayPublishTranslationAlone, mustWithdrawWithPrimary, nextTranslationState, type LifecycleEvent } from './article-lifecycle.ts';
import { assertSecondaryMayPublish, eventFor, resolveStatusRequest, type StatusRequest } from './article-request.ts';
import type { ArticleWriteInput, TranslationPutInput } from './article.schema.ts';
import type { WriteWarning } from './article-view.ts';
import { applyTranslationEvents, contentHash, setHomepageMode, syncArticleRecord, type AppliedTranslation, type ModerationMode } from './article-events.ts';
import { contentRequests, prepareContents, type PreparedContent, type PreparedContents } from './article-bodies.ts';
import { withdrawnUntilScheduledWarning } from './schedule-warning.ts';
import { invariant } from '../../internal-error.ts';

/** What saving needs beyond the transaction. */
export interface SaveDeps {
  readonly clock: Clock;
  /** Media folder: draft image references are attached and rewritten on save. Absent in tools that only import text. */
  readonly media?: MediaKit;
  /** Prepares and renders bodies (the body pool); in this thread when absent. */
  readonly bodies?: BodyProcessor;
}

/** The per-language plan of a save: the row, the events to apply, the field to name in a 422. */
export type LanguagePlan = Map<string, { row: TranslationRow; events: LifecycleEvent[]; field: string }>;

/**
 * Sets a content's Markdown after media attach rewrote its image URLs. The
 * body pool rendered the planned rewrite already (`rewritten`); only when
 * attach did something else (a draft deleted between the two) is the body
 * rendered again here, in the transaction, bounded by the limits it passed.
 */
export function withAttachedMarkdown(content: PreparedContent, markdown: string, rewritten?: RenderedMarkdown): void {
  if (markdown === content.content_markdown) return;
  const rendered = rewritten?.markdown === markdown ? rewritten : renderMarkdownBody(markdown);
  Object.assign(content, { content_markdown: markdown, ...keptColumns(rendered) });
}

/** Inserts a translation's content, or updates it when it differs; `changed` says whether a new revision is due. */
async function upsertContent(
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
  if (!changed) {
    // Same text, but stored before its rendering was kept (or by another renderer): keep this one.
    if (existing.body_version === content.body_version && existing.content_html !== null) return { row: existing, changed: false, created: false };
    const rendered = { content_html: content.content_html, content_text: content.content_text, body_version: content.body_version, link_targets: content.link_targets };
    await articles.updateTranslation(trx, existing.id, rendered);
    return { row: { ...existing, ...rendered }, changed: false, created: false };
  }
  await articles.updateTranslation(trx, existing.id, { ...content, updated_at: now });
  return { row: { ...existing, ...content, updated_at: now }, changed: true, created: false };
}

/** One translation of a write: its prepared content and the status event its request asks for. */
export interface TranslationWrite {
  readonly content: PreparedContent;
  /** The event of its status field (null: none asked for). */
  readonly event: LifecycleEvent | null;
  /** The field a 422 about its status names. */
  readonly field: string;
}

/**
 * The one step every write of translations takes: attaches the draft images
 * their bodies name to `article` (rewriting the Markdown, `withAttachedMarkdown`),
 * stores each content (a revision is due when it changed), and plans each
 * language's events: `revise` for changed content, then its status event.
 * @returns the plan for `applyPlan`, and the languages that are new.
 */
export async function saveTranslations(
  trx: Executor,
  deps: SaveDeps,
  target: { readonly channel: ChannelRow; readonly article: ArticleRow; readonly now: string },
  writes: readonly TranslationWrite[],
  rewritten: ReadonlyArray<RenderedMarkdown | undefined> = [],
): Promise<{ plan: LanguagePlan; created: Set<string> }> {
  const { article, now } = target;
  // Draft image URLs become the article's own media before the bodies are stored (media rule 3).
  const attached = await attachArticleMedia(trx, deps.media, { channel: target.channel, article, now }, writes.map((w) => w.content.content_markdown));
  attached.forEach((markdown, i) => withAttachedMarkdown(writes[i]!.content, markdown, rewritten[i]));
  const existing = await articles.listTranslations(trx, [article.id]);
  const plan: LanguagePlan = new Map();
  const created = new Set<string>();
  for (const { content, event, field } of writes) {
    const before = existing.find((t) => t.language === content.language);
    const saved = await upsertContent(trx, now, article.id, before, content);
    if (saved.created) created.add(content.language);
    const events: LifecycleEvent[] = saved.changed && before ? [{ type: 'revise' }] : [];
    if (event) events.push(event);
    plan.set(content.language, { row: saved.row, events, field });
  }
  return { plan, created };
}

/** The primary translation's state after `events`, computed without writing. */
function primaryStateAfter(row: TranslationRow, events: readonly LifecycleEvent[], now: string, hasPublic: boolean) {
  let state = { status: row.status, scheduledAt: row.scheduled_at, scheduledPaused: false, hasPublicVersion: hasPublic, pendingRevision: false };
  for (const e of events) state = nextTranslationState(state, e, now).state;
  return state;
}

/** Whether a plan entry asks for a status (more than saving content). */
const asksForStatus = (entry: { events: readonly LifecycleEvent[] } | undefined): boolean => entry?.events.some((e) => e.type !== 'revise') ?? false;

/**
 * Applies per-language events: the primary first, then secondaries (checked
 * against rule 1), then syncs the article record.
 * @param warnings receives `ARTICLE_WITHDRAWN_UNTIL_SCHEDULED` when published content leaves public view to be scheduled.
 */
export async function applyPlan(
  trx: Executor,
  ctx: { now: string; mode: ModerationMode },
  article: ArticleRow,
  plan: LanguagePlan,
  archived: boolean,
  warnings: WriteWarning[] = [],
): Promise<ArticleRow> {
  const primaryEntry = plan.get(article.default_language);
  const all = await articles.listTranslations(trx, [article.id]);
  const primaryRow = primaryEntry?.row ?? all.find((t) => t.language === article.default_language);
  invariant(primaryRow, `article ${article.id} has no primary translation`);
  const primaryWasPublic = primaryRow.published_revision_id !== null;
  const primaryAfter = primaryStateAfter(primaryRow, primaryEntry?.events ?? [], ctx.now, primaryWasPublic);
  // Unpublishing the primary language, or scheduling it while published, takes the article out of view: a
  // secondary is public only while the primary is, so a published or scheduled secondary that was not asked for
  // a status would read "published" while readers get a 404. It becomes a draft.
  const drafted: string[] = [];
  if (primaryEntry?.events.some((e) => e.type === 'save_draft') || (primaryWasPublic && !primaryAfter.hasPublicVersion)) {
    for (const t of all) {
      const entry = plan.get(t.language);
      if (t.language === article.default_language || asksForStatus(entry) || !mustWithdrawWithPrimary(t.status)) continue;
      plan.set(t.language, { row: entry?.row ?? t, events: [...(entry?.events ?? []), { type: 'save_draft' }], field: entry?.field ?? 'status' });
      drafted.push(t.language);
    }
  }
  for (const [language, entry] of plan) {
    if (language === article.default_language) continue;
    const publishes = entry.events.some((e) => e.type === 'publish' || e.type === 'schedule');
    if (publishes) assertSecondaryMayPublish(primaryAfter.status, language, article.default_language, entry.field);
  }
  const applied: AppliedTranslation[] = [];
  const primary = primaryEntry
    ? await applyTranslationEvents(trx, ctx, article, primaryEntry.row, primaryEntry.events)
    : primaryRow;
  if ('row' in primary) applied.push(primary);
  for (const [language, entry] of plan) {
    if (language === article.default_language || entry.events.length === 0) continue;
    applied.push(await applyTranslationEvents(trx, ctx, article, entry.row, entry.events));
  }
  const warning = withdrawnUntilScheduledWarning(all, applied, drafted);
  if (warning) warnings.push(warning);
  return syncArticleRecord(trx, ctx.now, article, primary, archived);
}

/**
 * Marks an article written through the API as API-managed: its content/ file
 * is then reported instead of applied (docs/CONTENT.md, "Precedence").
 */
export async function takeOverFromContent(trx: Executor, article: ArticleRow): Promise<void> {
  if (article.source === 'content') await articles.updateArticle(trx, article.id, { source: 'api', source_hash: null });
}

/** Options of {@link saveArticle} beyond the API input. */
export interface WriteOptions {
  /** `trusted` publishes without moderation (content/ files reviewed in the repository). */
  readonly mode?: ModerationMode;
  /** Marks the article as coming from content/. */
  readonly source?: { kind: 'content'; hash: string };
  /** The bodies, already prepared and rendered (`prepareContents`, before the transaction); prepared here, in this thread, when absent. */
  readonly prepared?: PreparedContents;
}

/**
 * Creates an article, or updates it when the slug exists in the channel.
 * Runs inside the caller's transaction, with access already checked.
 */
export async function saveArticle(
  trx: Executor,
  deps: SaveDeps,
  access: ChannelAccess,
  input: ArticleWriteInput,
  options: WriteOptions = {},
): Promise<{ article: ArticleRow; created: boolean; warnings: WriteWarning[] }> {
  const now = isoNow(deps.clock);
  const { contents, warnings, rewritten } = options.prepared ?? (await prepareContents(undefined, contentRequests(input)));
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
      await announcePublicChange(trx, { kind: 'article', channelId: article.channel_id, articleId: article.id }, now);
    }
    article = { ...article, ...patch };
  }
  // Several translations published together default to all of them (publishing rule 2).
  const publishAll = input.publish_translations ?? true;
  const writes = contents.map((content, i): TranslationWrite => {
    const isPrimary = content.language === input.default_language;
    const own = isPrimary ? null : input.translations[i]!.status;
    const ownRequest = own ? resolveStatusRequest(own, own === 'draft' ? null : input.scheduled_at, now, access.ownerPlan.scheduling) : null;
    const applied = isPrimary
      ? articleRequest
      : ownRequest ?? (articleRequest.kind === 'draft' || publishAll ? articleRequest : { kind: 'none' as const });
    return { content, event: eventFor(applied), field: `translations.${i}.status` };
  });
  const { plan } = await saveTranslations(trx, deps, { channel: access.channel, article, now }, writes, rewritten);
  // Unpublishing the article withdraws translations that were not sent too.
  if (articleRequest.kind === 'draft' && existing) {
    for (const t of await articles.listTranslations(trx, [article.id])) {
      if (!plan.has(t.language)) plan.set(t.language, { row: t, events: [{ type: 'save_draft' }], field: 'status' });
    }
  }
  const archived = article.status === 'archived' && articleRequest.kind === 'none';
  article = await applyPlan(trx, { now, mode: options.mode ?? 'queue' }, article, plan, archived, warnings);
  return { article, created: !existing, warnings };
}


/**
 * `PUT …/pages/{ref}/translations/{language}`: saves one translation of
 * `article` and applies the status it asks for.
 * @throws PressroomError VALIDATION_FAILED when the status cannot apply to this translation alone.
 */
export async function saveTranslation(
  trx: Executor,
  deps: SaveDeps,
  access: ChannelAccess,
  article: ArticleRow,
  input: { readonly language: string; readonly status: TranslationPutInput['status'] },
  prepared: PreparedContents,
): Promise<{ article: ArticleRow; created: boolean; warnings: WriteWarning[] }> {
  const now = isoNow(deps.clock);
  const event = input.status === undefined ? null : eventFor(translationStatusRequest(article, input.language, input.status, now, access));
  const { plan, created } = await saveTranslations(
    trx,
    deps,
    { channel: access.channel, article, now },
    [{ content: prepared.contents[0]!, event, field: 'status' }],
    prepared.rewritten,
  );
  await takeOverFromContent(trx, article);
  const warnings = [...prepared.warnings];
  const updated = await applyPlan(trx, { now, mode: 'queue' }, article, plan, article.status === 'archived', warnings);
  return { article: updated, created: created.has(input.language), warnings };
}

/** The status a single translation's write asks for, checked against its article. */
function translationStatusRequest(
  article: ArticleRow,
  language: string,
  status: NonNullable<TranslationPutInput['status']>,
  now: string,
  access: ChannelAccess,
): StatusRequest {
  if ((status === 'published' || status === 'scheduled') && !mayPublishTranslationAlone(article.status)) {
    throw validationError({
      status: `The article is archived, so its "${language}" translation cannot be ${status === 'published' ? 'published' : 'scheduled'} on its own: nothing of an archived article is public. Bring the article back with PATCH …/pages/{page}/status {"status": "${status}"} (or "draft" to keep it private), or send this translation without status.`,
    });
  }
  const at = status === 'scheduled' ? article.scheduled_at : null;
  if (status === 'scheduled' && at === null) {
    throw validationError({ status: 'The article is not scheduled, so this translation cannot be. Schedule the article with PATCH …/status first.' });
  }
  return resolveStatusRequest(status, at, now, access.ownerPlan.scheduling);
}
