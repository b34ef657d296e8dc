/**
 * The article screen, the page `edit_url` opens: the article's state and
 * each translation's, links to their editors, "add a translation", and the
 * publishing actions (publish, schedule, back to draft, archive; homepage
 * visibility) through the same `changeStatus` and `changeSettings` as
 * `PATCH …/status` and `PATCH …/settings`, with the same rules: a
 * multilingual article says whether every translation follows, scheduling
 * needs a plan that has it, a paused schedule says why.
 * @module
 */
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { changeSettings, changeStatus, getArticle, settleWrite, type ArticleDeps } from '../../domain/article/article.service.ts';
import { settingsChangeSchema, statusChangeSchema } from '../../domain/article/article.schema.ts';
import { HOMEPAGE_MODES } from '../../domain/article/article-status.ts';
import type { ArticleView } from '../../domain/article/article-view.ts';
import { PressroomError } from '../../domain/errors.ts';
import { parseInput } from '../../domain/validation.ts';
import { dashboardHeaders, DASHBOARD_PATH, frame, html, type Markup, type Viewer, when } from './dashboard-layout.ts';
import { field, LIVE_SCRIPT_HREF, notFoundPage, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { editorAddress } from './translation-editor.ts';

/** What the publishing form offers, in its words. */
const ACTIONS = [
  { status: 'published', label: 'Publish now (after moderation)' },
  { status: 'scheduled', label: 'Schedule for the time below' },
  { status: 'draft', label: 'Back to draft (take it off the site)' },
  { status: 'archived', label: 'Archive (take it off the site and out of the lists)' },
] as const;

const HOMEPAGE_LABELS: Record<(typeof HOMEPAGE_MODES)[number], string> = {
  inherit: "as the channel says (inherit)",
  allow: 'on the homepage (allow)',
  hide: 'never on the homepage (hide)',
};

/** How often the live stream looks at the article again, and how long it stays open at most. */
const LIVE_POLL_MS = 500;
const LIVE_MAX_MS = 10 * 60_000;

/** A translation's waiting revision, as its cell says it. */
function revisionText(t: ArticleView['translations'][number]): string {
  const r = t.pending_revision;
  return r ? `revision ${r.number}: ${r.moderation}${r.reason ? ` (${r.reason})` : ''}` : 'none';
}

/**
 * Whether a state of the article is still to change by itself: moderation or the build under way (a translation
 * in moderation review that no person has to decide, or a waiting revision that is pending or passed).
 */
export function settling(view: ArticleView): boolean {
  return view.translations.some(
    (t) => (t.status === 'moderation_review' && t.moderation !== 'manual_review') || (t.pending_revision !== null && (t.pending_revision.moderation === 'pending' || t.pending_revision.moderation === 'passed')),
  );
}

/** What the live stream sends: the states the screen shows, as text. */
function liveState(view: ArticleView) {
  return {
    status: view.status,
    moderation: view.moderation,
    translations: view.translations.map((t) => ({ language: t.language, status: t.status, moderation: t.moderation, revision: revisionText(t) })),
  };
}

interface ScreenOptions {
  readonly notice?: string;
  /** What a refused action said, by form field ('form' for the rest). */
  readonly problems?: ReadonlyMap<string, string>;
  readonly languageProblem?: boolean;
}

function articleScreen(view: ArticleView, viewer: Viewer, options: ScreenOptions = {}): Markup {
  const slug = view.project;
  const primary = view.translations.find((t) => t.language === view.default_language) ?? view.translations[0];
  const base = `${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}/pages/${view.id}`;
  const problem = (name: string) => options.problems?.get(name);
  const note = (name: string) => (problem(name) ? html`<span class="field-problem" id="${name}-problem">${problem(name)}</span>` : '');
  const invalid = (name: string) => (problem(name) ? html` aria-invalid="true" aria-describedby="${name}-problem"` : '');
  const multilingual = view.translations.length > 1;
  return frame(
    { title: primary?.title ?? view.slug, stylesheet: STYLESHEET_HREF, accountName: viewer.accountName, administrator: viewer.administrator, notice: options.notice, scripts: [settling(view) ? LIVE_SCRIPT_HREF : undefined] },
    html`<p><a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}">Articles of ${slug}</a></p>
<h1>${primary?.title ?? view.slug}</h1>
<dl>
<dt>State</dt><dd><span data-cell="article-status">${view.status}</span>${view.scheduled_paused ? html` (paused: ${view.scheduled_pause_reason}; give it a new time or publish it by hand)` : ''}</dd>
<dt>Moderation</dt><dd data-cell="article-moderation">${view.moderation}</dd>
<dt>Scheduled</dt><dd>${when(view.scheduled_at)}</dd>
<dt>Published</dt><dd>${when(view.published_at)}</dd>
<dt>Homepage</dt><dd>${view.homepage_mode}</dd>
<dt>Public address</dt><dd><a href="${view.url}">${view.url}</a></dd>
</dl>
${view.warnings.length > 0 ? html`<ul class="notice" role="status">${view.warnings.map((w) => html`<li>${w.message}</li>`)}</ul>` : ''}
<h2 id="translations">Translations</h2>
<div class="table-wrap" role="region" aria-labelledby="translations" tabindex="0"><table${settling(view) ? html` data-live="${base}/live"` : ''}>
<thead><tr><th scope="col">Language</th><th scope="col">Title</th><th scope="col">State</th><th scope="col">Moderation</th><th scope="col">Revision waiting</th></tr></thead>
<tbody>
${view.translations.map(
  (t) => html`<tr><td lang="${t.language}">${t.language}${t.language === view.default_language ? ' (primary)' : ''}</td><td lang="${t.language}" dir="auto"><a href="${editorAddress(slug, view.id, t.language)}">${t.title}</a></td><td data-cell="status-${t.language}">${t.status}</td><td data-cell="moderation-${t.language}">${t.moderation}</td><td data-cell="revision-${t.language}">${revisionText(t)}</td></tr>`,
)}
</tbody></table></div>
<p>Open a translation's title to edit it.${settling(view) ? ' Moderation and the build are under way: the states above change as they finish.' : ''}</p>
<p class="muted" id="live-status" role="status" aria-live="polite"></p>
<form method="get" action="${base}/translations" class="stack">
${options.languageProblem ? html`<p class="error" role="alert" id="language-problem">That is not a language code. Use one such as <code>fr</code>, <code>ar</code> or <code>pt-BR</code>.</p>` : ''}
<label for="language">Add a translation: language code <input type="text" id="language" name="language" required maxlength="35"${options.languageProblem ? html` aria-invalid="true" aria-describedby="language-problem"` : ''}></label>
<button type="submit">Add the translation</button>
</form>
<h2 id="publishing">Publishing</h2>
<p><a href="${base}/preview">Preview what publishing writes</a>: the page as readers will see it, and each file it adds, changes or deletes.</p>
${problem('form') ? html`<p class="error" role="alert">${problem('form')}</p>` : ''}
<form method="post" action="${base}/status" class="stack wide" aria-labelledby="publishing">
<fieldset${invalid('status')}>
<legend>What should happen to the article</legend>
${ACTIONS.map((a, i) => html`<label class="check" for="status-${a.status}"><input type="radio" id="status-${a.status}" name="status" value="${a.status}"${i === 0 ? html` checked` : ''}> ${a.label}</label>`)}
${note('status')}
</fieldset>
<label for="scheduled_at">Time to publish at, in UTC (for "Schedule") <input type="datetime-local" id="scheduled_at" name="scheduled_at" step="60"${invalid('scheduled_at')}></label>
${note('scheduled_at')}
${
  multilingual
    ? html`<fieldset${invalid('publish_translations')}>
<legend>Which translations follow</legend>
<label class="check" for="every-translation"><input type="radio" id="every-translation" name="publish_translations" value="true" checked> Every translation (${view.translations.map((t) => t.language).join(', ')})</label>
<label class="check" for="primary-only"><input type="radio" id="primary-only" name="publish_translations" value="false"> The primary language (${view.default_language}) only</label>
${note('publish_translations')}
</fieldset>`
    : ''
}
<button type="submit">Apply</button>
</form>
<form method="post" action="${base}/settings" class="stack wide">
<label for="homepage_mode">On the site's homepage <select id="homepage_mode" name="homepage_mode"${invalid('homepage_mode')}>
${HOMEPAGE_MODES.map((m) => html`<option value="${m}"${m === view.homepage_mode ? html` selected` : ''}>${HOMEPAGE_LABELS[m]}</option>`)}
</select></label>
${note('homepage_mode')}
<button type="submit">Save the homepage setting</button>
</form>`,
  );
}

/** A refused action's messages, by the form's fields. */
function problemsOf(error: PressroomError): Map<string, string> {
  const problems = new Map<string, string>();
  const general: string[] = [];
  for (const [name, message] of Object.entries((error.details?.fields ?? {}) as Record<string, string>)) {
    if (['status', 'scheduled_at', 'publish_translations', 'homepage_mode'].includes(name)) problems.set(name, message);
    else general.push(message);
  }
  if (general.length > 0 || problems.size === 0) problems.set('form', general.length > 0 ? general.join(' ') : error.message);
  return problems;
}

/** A `datetime-local` value (no zone) read as UTC, as the label says; anything else is passed on to be refused. */
function scheduledAtOf(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.length === 16 ? `${value}:00` : value}Z` : value;
}

/** Adds the article screen and its actions to the dashboard's app. */
export function articleScreenRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps): void {
  const idOf = (c: Context<DashboardEnv>): string | null => (/^[1-9]\d{0,15}$/.test(c.req.param('id') ?? '') ? c.req.param('id')! : null);

  // The address `edit_url` names.
  app.get('/channels/:channel/pages/:id', async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    if (!id) return notFoundPage(c, session.accountName);
    const view = await getArticle(deps, session, c.req.param('channel'), id);
    const notice = c.req.query('created') !== undefined ? 'Created as a draft. Add translations, then publish it below.' : undefined;
    return pageAnswer(c, articleScreen(view, session, { languageProblem: c.req.query('language_problem') !== undefined, notice }));
  });

  // The article's states as they change, until none is still to change by itself (or ten minutes passed).
  app.get('/channels/:channel/pages/:id/live', async (c) => {
    const session = c.get('session');
    const id = idOf(c);
    if (!id) return notFoundPage(c, session.accountName);
    const channel = c.req.param('channel');
    let view = await getArticle(deps, session, channel, id);
    dashboardHeaders(c);
    return streamSSE(c, async (stream) => {
      let aborted = false;
      stream.onAbort(() => {
        aborted = true;
      });
      const started = Date.now();
      let last = '';
      while (!aborted) {
        const text = JSON.stringify(liveState(view));
        if (text !== last) await stream.writeSSE({ event: 'state', data: text });
        last = text;
        if (!settling(view)) {
          await stream.writeSSE({ event: 'final', data: text });
          return;
        }
        if (Date.now() - started >= LIVE_MAX_MS) return;
        await stream.sleep(LIVE_POLL_MS);
        view = await getArticle(deps, session, channel, id);
      }
    });
  });

  /** Runs an action; a refusal the person can fix is shown on the article screen, with nothing changed. */
  const act = async (c: Context<DashboardEnv>, run: (id: string, form: Record<string, unknown>) => Promise<ArticleView>, notice: (view: ArticleView) => string) => {
    const session = c.get('session');
    const id = idOf(c);
    if (!id) return notFoundPage(c, session.accountName);
    const form = await c.req.parseBody();
    try {
      const view = await run(id, form);
      return pageAnswer(c, articleScreen(view, session, { notice: notice(view) }));
    } catch (error) {
      if (!PressroomError.is(error) || (error.status !== 422 && error.code !== 'PLAN_NO_SCHEDULING' && error.code !== 'CHANNEL_READ_ONLY')) throw error;
      const view = await getArticle(deps, session, c.req.param('channel') ?? '', id);
      return pageAnswer(c, articleScreen(view, session, { problems: problemsOf(error) }), error.status === 422 ? 422 : 403);
    }
  };

  app.post('/channels/:channel/pages/:id/status', (c) =>
    act(
      c,
      async (id, form) => {
        const session = c.get('session');
        const channel = c.req.param('channel');
        const status = field(form, 'status');
        const body: Record<string, unknown> = { status };
        const scheduledAt = scheduledAtOf(field(form, 'scheduled_at'));
        if (status === 'scheduled') body.scheduled_at = scheduledAt ?? null;
        if (field(form, 'publish_translations') !== '') body.publish_translations = field(form, 'publish_translations') === 'true';
        const view = await changeStatus(deps, session, channel, id, parseInput(statusChangeSchema, body, 'body'));
        // A withdrawal answers once readers no longer get the article, as the API's does.
        return settleWrite(deps, session, channel, view);
      },
      (view) => {
        const at = view.scheduled_at ? `${view.scheduled_at.slice(0, 16).replace('T', ' ')} UTC` : null;
        if (view.status === 'moderation_review') {
          return at
            ? `Sent to moderation: once it passes, it is published at ${at}. Reload to see each translation’s state.`
            : 'Sent to moderation: it is published when it passes, in a moment. Reload to see each translation’s state.';
        }
        return view.status === 'scheduled' && at ? `Scheduled for ${at}.` : `The article is now ${view.status}.`;
      },
    ),
  );

  app.post('/channels/:channel/pages/:id/settings', (c) =>
    act(
      c,
      async (id, form) => {
        const session = c.get('session');
        const channel = c.req.param('channel');
        return changeSettings(deps, session, channel, id, parseInput(settingsChangeSchema, { homepage_mode: field(form, 'homepage_mode') }, 'body'));
      },
      (view) => `Homepage setting saved: ${view.homepage_mode}.`,
    ),
  );
}
