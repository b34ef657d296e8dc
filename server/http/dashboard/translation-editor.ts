/**
 * The dashboard's editor of one translation: its texts in a form, the
 * primary language's beside it (marked "outdated" when the primary changed
 * after this translation did), saved through the same `putTranslation` as
 * `PUT …/translations/{language}` with the version the form was loaded at
 * as `If-Match` (`If-None-Match: *` for a new language): a save over
 * someone else's shows both texts and lets the editor keep theirs or
 * overwrite with their own, never silently. A save never changes the
 * translation's state: a published one gets a revision that waits for
 * moderation, while the live page stays as it is.
 *
 * With script (`source-editor.ts`, the dashboard's own bundle), the body is
 * edited in CodeMirror and the texts are autosaved to `…/autosave`: a draft
 * through the same `putTranslation`, any other translation into the
 * account's private slot (`domain/article/autosave.service.ts`), which the
 * editor then offers to restore or discard and a Save empties. The editor's
 * forms take bodies as large as the publishing API does. A conflict page
 * does not autosave: the person chooses there.
 * @module
 */
import type { Context, Hono } from 'hono';
import type { Logger } from '../../logger.ts';
import { getArticleForEditor, putTranslation, type ArticleDeps } from '../../domain/article/article.service.ts';
import { autosaveTranslation, discardAutosave, findAutosavedTexts, type AutosavedTexts } from '../../domain/article/autosave.service.ts';
import { EXCERPT_MAX_LENGTH, translationPutSchema } from '../../domain/article/article.schema.ts';
import type { ArticleView, TranslationView, WriteWarning } from '../../domain/article/article-view.ts';
import { PressroomError } from '../../domain/errors.ts';
import { textDirection } from '../../domain/language.ts';
import { languageSchema } from '../../domain/schema-parts.ts';
import { parseInput } from '../../domain/validation.ts';
import { dashboardHeaders, DASHBOARD_PATH, frame, html, type Markup, type Viewer, when } from './dashboard-layout.ts';
import { field, notFoundPage, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import { sourceEditorScriptHref } from './source-editor-bundle.ts';
import { articleImageSection, IMAGES_SCRIPT_HREF, type UploadFormState } from './image-forms.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** The texts the form edits, as sent or as stored. */
interface Texts {
  readonly title: string;
  readonly excerpt: string;
  readonly seo_title: string;
  readonly seo_description: string;
  readonly content_markdown: string;
}

const TEXT_FIELDS = ['title', 'excerpt', 'seo_title', 'seo_description', 'content_markdown'] as const;

/** Each field's label, for messages that name it. */
const FIELD_NAMES: Record<string, string> = { title: 'Title', excerpt: 'Excerpt', content_markdown: 'Body', seo_title: 'SEO title', seo_description: 'SEO description' };

export function storedTexts(t: TranslationView | undefined): Texts {
  return { title: t?.title ?? '', excerpt: t?.excerpt ?? '', seo_title: t?.seo_title ?? '', seo_description: t?.seo_description ?? '', content_markdown: t?.content_markdown ?? '' };
}

/** The form's texts, with its line breaks as typed (a browser sends a text area's as CRLF). */
function sentTexts(form: Record<string, unknown>): Texts {
  const text = (name: string) => field(form, name).replace(/\r\n?/g, '\n');
  return { title: text('title'), excerpt: text('excerpt'), seo_title: text('seo_title'), seo_description: text('seo_description'), content_markdown: text('content_markdown') };
}

/** The PUT body a form asks for: empty optional fields are cleared. */
function bodyOf(texts: Texts): Record<string, unknown> {
  const orNull = (value: string) => (value.trim() === '' ? null : value);
  return { title: texts.title, excerpt: orNull(texts.excerpt), seo_title: orNull(texts.seo_title), seo_description: orNull(texts.seo_description), content_markdown: texts.content_markdown };
}

/** Texts as a person sees them: line breaks as a form sends them (CRLF) or as stored, and outer spaces, do not count. */
function sameTexts(a: Texts, b: Texts): boolean {
  const plain = (value: string) => value.replace(/\r\n?/g, '\n').trim();
  return TEXT_FIELDS.every((name) => plain(a[name]) === plain(b[name]));
}

/** The addresses whose forms carry a translation's texts: the editor's save and autosave take bodies as large as the API does. */
export const TRANSLATION_TEXT_PATH = /\/channels\/[^/]+\/pages\/[^/]+\/translations\/[^/]+(\/autosave)?$/;

/** Where the editor of a language is. */
export function editorAddress(channel: string, articleId: number, language: string): string {
  return `${DASHBOARD_PATH}/channels/${encodeURIComponent(channel)}/pages/${articleId}/translations/${encodeURIComponent(language)}`;
}

export interface EditorPage {
  readonly view: ArticleView;
  readonly language: string;
  readonly changedAt: ReadonlyMap<string, string>;
  readonly texts: Texts;
  /** The version the form is based on; null for a language the article does not have yet. */
  readonly version: string | null;
  readonly viewer: Viewer;
  readonly problems?: ReadonlyMap<string, string>;
  readonly warnings?: readonly WriteWarning[];
  readonly notice?: string;
  /** Someone else's save, shown beside the editor's own texts. */
  readonly theirs?: TranslationView;
  /** The account's autosaved texts, when they differ from the stored ones: offered to restore or discard. */
  readonly autosaved?: AutosavedTexts;
  /** The source editor's script (CodeMirror and autosave); absent, the page works without it. */
  readonly script?: string;
  /** What the image upload form shows (`image-uploads.ts`). */
  readonly upload?: UploadFormState;
}

/** One text field of the form. */
function textField(name: (typeof TEXT_FIELDS)[number], label: string, value: string, language: string, page: EditorPage, hint?: string): Markup {
  const problem = page.problems?.get(name);
  const warning = page.warnings?.filter((w) => w.field === name || (name === 'content_markdown' && w.field?.endsWith('content_markdown'))).map((w) => w.message);
  const described = [problem ? `${name}-problem` : '', hint ? `${name}-hint` : '', warning?.length ? `${name}-warning` : ''].filter(Boolean).join(' ');
  const attrs = html` id="${name}" name="${name}" lang="${language}" dir="${textDirection(language)}"${problem ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  // The newline after each <textarea> start tag is the one HTML drops, so a text that starts with one keeps it.
  const control =
    name === 'content_markdown'
      ? html`<textarea${attrs} rows="18" class="source" spellcheck="true">
${value}</textarea>`
      : name === 'excerpt' || name === 'seo_description'
        ? html`<textarea${attrs} rows="3"${name === 'excerpt' ? html` maxlength="${EXCERPT_MAX_LENGTH}"` : ''}>
${value}</textarea>`
        : html`<input type="text"${attrs}${name === 'title' ? html` required` : ''} value="${value}">`;
  return html`<label for="${name}"><span id="${name}-label">${label}</span> ${control}</label>
${hint ? html`<span class="muted" id="${name}-hint">${hint}</span>` : ''}
${problem ? html`<span class="field-problem" id="${name}-problem">${problem}</span>` : ''}
${warning?.length ? html`<span class="field-warning" id="${name}-warning">${warning.join(' ')}</span>` : ''}`;
}

/** The texts of a translation, read only (the primary beside the editor, or someone else's save). */
function readOnlyTexts(heading: string, t: TranslationView, note?: Markup): Markup {
  const dir = textDirection(t.language);
  return html`<section class="beside" aria-labelledby="beside-heading">
<h2 id="beside-heading">${heading}</h2>
${note ?? ''}
<dl>
<dt>Title</dt><dd lang="${t.language}" dir="${dir}">${t.title}</dd>
<dt>Excerpt</dt><dd lang="${t.language}" dir="${dir}">${t.excerpt ?? '–'}</dd>
<dt>Body (Markdown)</dt><dd lang="${t.language}" dir="${dir}"><pre class="source">${t.content_markdown}</pre></dd>
</dl>
</section>`;
}

export function editorPage(page: EditorPage): Markup {
  const { view, language } = page;
  const own = view.translations.find((t) => t.language === language);
  const primary = view.translations.find((t) => t.language === view.default_language);
  const isPrimary = language === view.default_language;
  const action = editorAddress(view.project, view.id, language);
  const outdated = !isPrimary && own && primary && (page.changedAt.get(primary.language) ?? '') > (page.changedAt.get(language) ?? '');
  const formProblem = page.problems?.get('form');
  return frame(
    {
      title: `${own?.title ?? 'New translation'} (${language})`,
      stylesheet: STYLESHEET_HREF,
      accountName: page.viewer.accountName,
      administrator: page.viewer.administrator,
      notice: page.notice,
      scripts: [page.script, IMAGES_SCRIPT_HREF],
    },
    html`<p><a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(view.project)}/pages/${view.id}">Back to the article</a></p>
<h1>${own ? html`Edit the ${language} translation` : html`Add a ${language} translation`}</h1>
<p>State: <strong>${own ? own.status : 'new (saved as a draft)'}</strong>${own ? html`, moderation ${own.moderation}` : ''}.${own ? html` <a href="${action}/revisions">Revisions</a> · <a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(view.project)}/pages/${view.id}/preview?language=${encodeURIComponent(language)}">Preview what publishing writes</a>` : ''}
${own && own.status === 'published' ? html` Saving makes a revision that goes to moderation; the published text stays live until it passes.` : ''}</p>
${
  page.problems && page.problems.size > 0
    ? html`<div class="error" role="alert"><p>Nothing was saved. ${formProblem ?? 'Correct the fields marked below and save again.'}</p></div>`
    : ''
}
${
  page.theirs
    ? html`<div class="error" role="alert"><p>Someone else saved this translation while you were editing it, so your save was not made. Their text is shown beside yours. Keep theirs, or save yours over it.</p>
<p><a href="${action}">Keep theirs (discard my changes)</a></p></div>`
    : ''
}
${page.autosaved ? autosavedOffer(action, page.autosaved) : ''}
<div class="${page.theirs || (!isPrimary && primary) ? 'columns' : ''}">
<form method="post" action="${action}" class="stack wide editor"${page.theirs ? '' : html` data-autosave="${action}/autosave"`}${page.autosaved ? html` data-autosave-paused` : ''}>
<input type="hidden" name="version" value="${page.version ?? ''}">
${textField('title', 'Title', page.texts.title, language, page)}
${textField('excerpt', 'Excerpt', page.texts.excerpt, language, page, `At most ${EXCERPT_MAX_LENGTH} characters; empty: cut from the body.`)}
${textField('content_markdown', 'Body (Markdown)', page.texts.content_markdown, language, page)}
${textField('seo_title', 'SEO title', page.texts.seo_title, language, page, 'Empty: the title.')}
${textField('seo_description', 'SEO description', page.texts.seo_description, language, page, 'Empty: the excerpt.')}
<button type="submit">${page.theirs ? 'Save mine over theirs' : 'Save'}</button>
</form>
${
  page.theirs
    ? readOnlyTexts('Their version, saved meanwhile', page.theirs)
    : !isPrimary && primary
      ? readOnlyTexts(
          `The primary language (${primary.language})`,
          primary,
          outdated ? html`<p class="error" id="outdated"><strong>Outdated:</strong> the primary changed after this translation was last saved. Check that it still says the same.</p>` : undefined,
        )
      : ''
}
</div>
${articleImageSection(action, language, page.upload)}`,
  );
}

/** The offer of a slot's texts: restore them into the form (a GET: nothing is saved) or discard them. */
function autosavedOffer(action: string, autosaved: AutosavedTexts): Markup {
  return html`<section class="notice autosaved" aria-labelledby="autosaved-heading">
<h2 id="autosaved-heading">Text you did not submit</h2>
<p>What you were writing here was autosaved at ${when(autosaved.savedAt)} and differs from the saved translation. Restore it into the form (then Save to submit it), or discard it.</p>
<div class="actions">
<a href="${action}?restore">Restore the text you were writing (autosaved at ${autosaved.savedAt.slice(0, 16).replace('T', ' ')} UTC)</a>
<form method="post" action="${action}/autosave/discard" class="inline"><button type="submit" class="quiet">Discard it</button></form>
</div>
</section>`;
}

/** The messages of a refused save, by the form's field names (everything else at the top). */
function problemsOf(error: PressroomError): Map<string, string> {
  const problems = new Map<string, string>();
  const general: string[] = [];
  for (const [name, message] of Object.entries((error.details?.fields ?? {}) as Record<string, string>)) {
    const key = TEXT_FIELDS.find((f) => name === f || name.endsWith(`.${f}`)) ?? (name === 'content_html' ? 'content_markdown' : undefined);
    if (key) problems.set(key, message);
    else general.push(message);
  }
  if (general.length > 0 || problems.size === 0) problems.set('form', general.length > 0 ? general.join(' ') : error.message);
  return problems;
}

/** Adds the editor's routes to the dashboard's app. */
export function translationEditorRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps & { readonly log?: Logger }): void {
  const PATH = '/channels/:channel/pages/:id/translations/:language';

  /** The source editor's script, bundled on first use; without it (a failed bundle, logged) the page works as a plain form. */
  const script = async (): Promise<string | undefined> => {
    try {
      return await sourceEditorScriptHref();
    } catch (error) {
      deps.log?.error('source editor bundle failed', { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  };

  /** The path's language in its canonical form, or null for one that is no language code. */
  const languageOf = (c: Context<DashboardEnv>): string | null => {
    const parsed = languageSchema.safeParse(c.req.param('language'));
    return parsed.success ? parsed.data : null;
  };
  const idOf = (c: Context<DashboardEnv>): string | null => (/^[1-9]\d{0,15}$/.test(c.req.param('id') ?? '') ? c.req.param('id')! : null);

  // "Add a translation" on the article page: a language typed there opens its editor.
  app.get('/channels/:channel/pages/:id/translations', (c) => {
    const id = idOf(c);
    const parsed = languageSchema.safeParse(c.req.query('language') ?? '');
    if (!id) return notFoundPage(c, c.get('session').accountName);
    if (!parsed.success) return c.redirect(`${DASHBOARD_PATH}/channels/${encodeURIComponent(c.req.param('channel'))}/pages/${id}?language_problem=1`, 303);
    return c.redirect(editorAddress(c.req.param('channel'), Number(id), parsed.data), 303);
  });

  app.get(PATH, async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    const language = languageOf(c);
    if (!id || !language) return notFoundPage(c, session.accountName);
    const { view, changedAt } = await getArticleForEditor(deps, session, c.req.param('channel'), id);
    const own = view.translations.find((t) => t.language === language);
    const stored = storedTexts(own);
    const autosaved = await findAutosavedTexts(deps, session, view.id, language);
    const base = { view, language, changedAt, viewer: session, script: await script() };
    if (c.req.query('restore') !== undefined) {
      // The slot's texts in the form, on the version they were based on: a Save of them meets any save made since.
      if (autosaved) {
        const at = `${autosaved.savedAt.slice(0, 16).replace('T', ' ')} UTC`;
        return pageAnswer(c, editorPage({ ...base, texts: autosaved.texts, version: autosaved.basedOn, notice: `Restored the text autosaved at ${at}. It is not submitted yet: press Save to submit it.` }));
      }
      return pageAnswer(c, editorPage({ ...base, texts: stored, version: own?.version ?? null, notice: 'There is no autosaved text to restore any more (it was saved or discarded). The form shows the saved translation.' }));
    }
    const notice = c.req.query('discarded') !== undefined ? 'The autosaved text is discarded. The form shows the saved translation.' : undefined;
    const offer = autosaved && !sameTexts(autosaved.texts, stored) ? autosaved : undefined;
    return pageAnswer(c, editorPage({ ...base, texts: stored, version: own?.version ?? null, autosaved: offer, notice }));
  });

  app.post(PATH, async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    const language = languageOf(c);
    if (!id || !language) return notFoundPage(c, session.accountName);
    const channel = c.req.param('channel');
    const form = await c.req.parseBody();
    const texts = sentTexts(form);
    const version = field(form, 'version');
    try {
      const input = parseInput(translationPutSchema, bodyOf(texts), 'body');
      const written = await putTranslation(deps, session, channel, id, language, input, version ? { ifMatch: `"${version}"` } : { ifNoneMatch: '*' });
      const saved = written.view.translations.find((t) => t.language === language)!;
      // An explicit save supersedes what autosave kept privately.
      await discardAutosave(deps, session, { channel, ref: id, language });
      const { changedAt } = await getArticleForEditor(deps, session, channel, id);
      return pageAnswer(
        c,
        editorPage({
          view: written.view,
          language,
          changedAt,
          texts: storedTexts(saved),
          version: saved.version,
          viewer: session,
          script: await script(),
          warnings: written.view.warnings,
          notice: saved.pending_revision ? 'Saved as a revision: it goes to moderation, and the published text stays live until it passes.' : 'Saved.',
        }),
      );
    } catch (error) {
      if (!PressroomError.is(error)) throw error;
      const { view, changedAt } = await getArticleForEditor(deps, session, channel, id);
      if (error.code === 'TRANSLATION_CHANGED') {
        const theirs = view.translations.find((t) => t.language === language);
        // 409 Conflict: the form's save met another (the API's 412 is about its If-Match header, which a form has not).
        // The form now stands on their version: saving it again overwrites theirs, on purpose.
        return pageAnswer(c, editorPage({ view, language, changedAt, texts, version: theirs?.version ?? null, viewer: session, theirs, script: await script() }), 409);
      }
      if (error.status !== 422) throw error;
      return pageAnswer(c, editorPage({ view, language, changedAt, texts, version: version || null, viewer: session, problems: problemsOf(error), script: await script() }), 422);
    }
  });

  // Autosave, for the editor's script: JSON answers, the same session and Origin checks as every dashboard post.
  app.post(`${PATH}/autosave`, async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    const language = languageOf(c);
    dashboardHeaders(c);
    const nothingHere = () => c.json({ message: 'There is no such translation editor: the address is wrong, or the article is not yours to open. Open the editor again from the article.' }, 404);
    if (!id || !language) return nothingHere();
    const form = await c.req.parseBody();
    const texts = sentTexts(form);
    const version = field(form, 'version') || null;
    try {
      const outcome = await autosaveTranslation(deps, session, { channel: c.req.param('channel'), ref: id, language }, texts, version, () =>
        parseInput(translationPutSchema, bodyOf(texts), 'body'),
      );
      if (outcome.kind === 'draft') {
        const bodyWarning = outcome.warnings.filter((w) => w.field?.endsWith('content_markdown')).map((w) => w.message).join(' ');
        return c.json({ saved: 'draft', saved_at: outcome.savedAt, version: outcome.version, ...(bodyWarning ? { body_warning: bodyWarning } : {}) }, 200);
      }
      if (outcome.refused) {
        const problems = [...problemsOf(outcome.refused)].map(([name, message]) => (name === 'form' ? message : `${FIELD_NAMES[name] ?? name}: ${message}`));
        return c.json({ saved: 'private', saved_at: outcome.savedAt, message: `${problems.join(' ')} Correct it, or press Save to see each problem beside its field.` }, 422);
      }
      return c.json({ saved: 'private', saved_at: outcome.savedAt }, 200);
    } catch (error) {
      if (!PressroomError.is(error)) throw error;
      if (error.code === 'TRANSLATION_CHANGED') {
        return c.json(
          { conflict: true, message: 'Autosave stopped: someone else saved this translation since you opened it. Your text is kept privately; press Save to see both texts and choose.' },
          409,
        );
      }
      if (error.status === 404 || error.code === 'CHANNEL_ACCESS_DENIED') return nothingHere();
      if (error.status === 403 || error.status === 422) return c.json({ message: error.message }, error.status);
      throw error;
    }
  });

  app.post(`${PATH}/autosave/discard`, async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    const language = languageOf(c);
    if (!id || !language) return notFoundPage(c, session.accountName);
    await discardAutosave(deps, session, { channel: c.req.param('channel'), ref: id, language });
    return c.redirect(`${editorAddress(c.req.param('channel'), Number(id), language)}?discarded`, 303);
  });
}
