/**
 * The dashboard editor's autosave (issue 37, item 5): to the draft or to a
 * private slot, never to the live page.
 *
 * - A translation whose status is `draft` is saved through the same
 *   `putTranslation` as a Save, with the version the editor was based on as
 *   If-Match; a draft's save starts no moderation and publishes nothing, and
 *   `draftOnly` makes sure, in the write's transaction, that it is still one.
 * - Any other translation (published, scheduled, in moderation, blocked), or
 *   a language the article does not have yet, would get a revision that goes
 *   to moderation and may go live: its texts are kept in the account's
 *   private slot instead (`editor_autosaves`, one per account, article and
 *   language), which the editor offers to restore and an explicit Save
 *   empties. Whatever cannot be saved to the draft (refused texts, a save
 *   someone else made meanwhile) is kept there too, so nothing typed is lost.
 *
 * The slot is the account's own: no other account, and nothing public,
 * reads it.
 * @module
 */
import { isoNow } from '../../clock.ts';
import * as articles from '../../store/article.repository.ts';
import * as slots from '../../store/editor-autosave.repository.ts';
import { channelAccess, requireApiPublishing, requireArticleWrite } from '../account/access.ts';
import type { Principal } from '../account/account.service.ts';
import { BODY_LIMITS } from '../body/limits.ts';
import { PressroomError, validationError } from '../errors.ts';
import { findArticle, NotADraft, putTranslation, type ArticleDeps } from './article.service.ts';
import type { TranslationPutInput } from './article.schema.ts';
import type { WriteWarning } from './article-view.ts';
import { translationVersion } from './translation-version.ts';

/** The editor's texts as typed ('' for an empty field). */
export interface EditorTexts {
  readonly title: string;
  readonly excerpt: string;
  readonly content_markdown: string;
  readonly seo_title: string;
  readonly seo_description: string;
}

/** An autosaved slot, as the editor shows it. */
export interface AutosavedTexts {
  readonly texts: EditorTexts;
  /** The translation's version the texts were based on; null for a language the article did not have. */
  readonly basedOn: string | null;
  readonly savedAt: string;
}

/** What an autosave did. */
export type AutosaveOutcome =
  /** Saved to the draft itself: its new version, and the API's warnings about the texts. */
  | { readonly kind: 'draft'; readonly savedAt: string; readonly version: string; readonly warnings: readonly WriteWarning[] }
  /** Kept in the private slot: the translation is not a draft (`refused` absent), or the draft's rules refused the texts. */
  | { readonly kind: 'kept'; readonly savedAt: string; readonly refused?: PressroomError };

/** Where: the channel, the article (id or slug) and the language. */
export interface AutosaveTarget {
  readonly channel: string;
  readonly ref: string;
  readonly language: string;
}

/** The longest title, excerpt or SEO field a slot keeps (the body's limit is the API's: `BODY_LIMITS.markdownChars`). */
export const AUTOSAVE_FIELD_MAX = 10_000;

/** Refuses texts no save could take either: a slot is bounded as the API's bodies are. */
function checkSize(texts: EditorTexts): void {
  const fields: Record<string, string> = {};
  if (texts.content_markdown.length > BODY_LIMITS.markdownChars) {
    fields.content_markdown = `Too long to autosave: at most ${BODY_LIMITS.markdownChars.toLocaleString('en')} characters, as a save accepts. Split the article.`;
  }
  for (const name of ['title', 'excerpt', 'seo_title', 'seo_description'] as const) {
    if (texts[name].length > AUTOSAVE_FIELD_MAX) fields[name] = `Too long to autosave: at most ${AUTOSAVE_FIELD_MAX.toLocaleString('en')} characters. Shorten it.`;
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

/**
 * Autosaves the editor's texts (see the module's comment).
 * @param basedOn the version the editor was loaded at (null: a language the article does not have yet).
 * @param input the texts as a `PUT …/translations/{language}` body, parsed by the caller's rules (it may throw their 422).
 * @throws PressroomError TRANSLATION_CHANGED when the translation is no longer at `basedOn` (the texts are kept in
 *   the slot first, based on `basedOn`, so a Save of them later meets the conflict); the access errors of a save.
 */
export async function autosaveTranslation(
  deps: ArticleDeps,
  principal: Principal,
  target: AutosaveTarget,
  texts: EditorTexts,
  basedOn: string | null,
  input: () => TranslationPutInput,
): Promise<AutosaveOutcome> {
  requireApiPublishing(principal);
  const access = await channelAccess(deps.db, principal, target.channel);
  requireArticleWrite(access);
  checkSize(texts);
  const article = await findArticle(deps.db, access.channel.id, target.channel, target.ref);
  const key = { accountId: principal.accountId, articleId: article.id, language: target.language };
  const keep = async (): Promise<string> => {
    const savedAt = isoNow(deps.clock);
    // Line breaks as stored (a form sends CRLF), so the slot compares with the saved texts.
    const lf = (value: string) => value.replace(/\r\n?/g, '\n');
    await slots.putAutosave(deps.db, {
      account_id: key.accountId,
      article_id: key.articleId,
      language: key.language,
      title: lf(texts.title),
      excerpt: lf(texts.excerpt),
      content_markdown: lf(texts.content_markdown),
      seo_title: lf(texts.seo_title),
      seo_description: lf(texts.seo_description),
      based_on_version: basedOn,
      saved_at: savedAt,
    });
    return savedAt;
  };
  const changed = (current: string | null) =>
    new PressroomError(
      'TRANSLATION_CHANGED',
      `Someone else saved the "${target.language}" translation since this editor opened it, so it was not autosaved over their text; yours is kept privately. Save to see both texts and choose.`,
      { current_version: current },
    );
  const current = (await articles.listTranslations(deps.db, [article.id])).find((t) => t.language === target.language);
  const version = current ? translationVersion(current) : null;
  if (version !== basedOn) {
    await keep();
    throw changed(version);
  }
  if (!current || current.status !== 'draft' || basedOn === null) return { kind: 'kept', savedAt: await keep() };
  try {
    const written = await putTranslation(deps, principal, target.channel, target.ref, target.language, input(), { ifMatch: `"${basedOn}"`, draftOnly: true });
    const saved = written.view.translations.find((t) => t.language === target.language)!;
    await slots.deleteAutosave(deps.db, key);
    return { kind: 'draft', savedAt: isoNow(deps.clock), version: saved.version, warnings: written.view.warnings };
  } catch (error) {
    // Published or sent to moderation between the read above and the write: that save would not be a draft's.
    if (error instanceof NotADraft) return { kind: 'kept', savedAt: await keep() };
    if (!PressroomError.is(error)) throw error;
    if (error.code === 'TRANSLATION_CHANGED') {
      await keep();
      throw changed((error.details?.current_version as string | null | undefined) ?? null);
    }
    if (error.status === 422) return { kind: 'kept', savedAt: await keep(), refused: error };
    throw error;
  }
}

/**
 * The account's autosaved texts of a translation, if any. `articleId` is an article the caller has just read
 * through `getArticleForEditor` (which checked the access); the slot read is the principal's own.
 */
export async function findAutosavedTexts(deps: Pick<ArticleDeps, 'db'>, principal: Principal, articleId: number, language: string): Promise<AutosavedTexts | undefined> {
  const row = await slots.findAutosave(deps.db, { accountId: principal.accountId, articleId, language });
  if (!row) return undefined;
  return {
    texts: { title: row.title, excerpt: row.excerpt, content_markdown: row.content_markdown, seo_title: row.seo_title, seo_description: row.seo_description },
    basedOn: row.based_on_version,
    savedAt: row.saved_at,
  };
}

/**
 * Empties the account's slot of a translation (Discard, and after an explicit Save).
 * @returns whether there was one.
 * @throws PressroomError when the account has no access to the channel, or the article is not there.
 */
export async function discardAutosave(deps: ArticleDeps, principal: Principal, target: AutosaveTarget): Promise<boolean> {
  const access = await channelAccess(deps.db, principal, target.channel);
  const article = await findArticle(deps.db, access.channel.id, target.channel, target.ref);
  return slots.deleteAutosave(deps.db, { accountId: principal.accountId, articleId: article.id, language: target.language });
}
