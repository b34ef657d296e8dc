/**
 * A translation's revisions in the dashboard: every version submitted for
 * moderation with its outcome, a line diff between any two (jsdiff's
 * `diffLines`, shown as insertions and deletions), and "restore", which
 * saves an old revision's texts through the same `putTranslation` as the
 * editor (If-Match the current version): a new save like any other, so a
 * published translation's restore waits for moderation.
 * @module
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import type { Context, Hono } from 'hono';
import { getTranslationHistory, putTranslation, type ArticleDeps, type RevisionView } from '../../domain/article/article.service.ts';
import { translationPutSchema } from '../../domain/article/article.schema.ts';
import { PressroomError } from '../../domain/errors.ts';
import { textDirection } from '../../domain/language.ts';
import { languageSchema } from '../../domain/schema-parts.ts';
import { parseInput } from '../../domain/validation.ts';
import { DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { field, notFoundPage, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { editorAddress } from './translation-editor.ts';

/** One text of two revisions, as marked-up changes. */
function changes(before: string, after: string, language: string, byWords: boolean): Markup {
  const parts = byWords ? diffWordsWithSpace(before, after) : diffLines(before, after);
  return html`<pre class="source diff" lang="${language}" dir="${textDirection(language)}">${parts.map((p) =>
    p.added ? html`<ins>${p.value}</ins>` : p.removed ? html`<del>${p.value}</del>` : html`<span>${p.value}</span>`,
  )}</pre>`;
}

function historyPage(c: Context<DashboardEnv>, data: Awaited<ReturnType<typeof getTranslationHistory>>, language: string, options: { notice?: string; error?: string } = {}): Markup {
  const session = c.get('session');
  const { view, revisions } = data;
  const base = `${editorAddress(view.project, view.id, language)}/revisions`;
  const from = revisions.find((r) => String(r.number) === c.req.query('from'));
  const to = revisions.find((r) => String(r.number) === c.req.query('to'));
  const own = view.translations.find((t) => t.language === language);
  const compare = (r: RevisionView, which: 'from' | 'to', checked: boolean) =>
    html`<label class="check" for="${which}-${r.number}"><input type="radio" id="${which}-${r.number}" name="${which}" value="${r.number}"${checked ? html` checked` : ''}> ${which === 'from' ? 'older' : 'newer'}</label>`;
  return frame(
    { title: `Revisions (${language})`, stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator, notice: options.notice },
    html`<p><a href="${editorAddress(view.project, view.id, language)}">Back to the editor</a></p>
<h1>Revisions of the ${language} translation</h1>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${
  revisions.length === 0
    ? html`<p>No revisions yet: a revision is made each time the translation is published or a published one is changed.</p>`
    : html`<form method="get" action="${base}" class="stack wide">
<div class="table-wrap" role="region" aria-labelledby="revisions-caption" tabindex="0"><table>
<caption id="revisions-caption" class="muted">Newest first. Pick an older and a newer revision to see what changed.</caption>
<thead><tr><th scope="col">Revision</th><th scope="col">Title</th><th scope="col">Moderation</th><th scope="col">Saved</th><th scope="col">Compare</th><th scope="col">Restore</th></tr></thead>
<tbody>
${revisions.map(
  (r, i) => html`<tr><td>${r.number}${r.public ? html` <strong>(public)</strong>` : ''}</td><td lang="${language}" dir="auto">${r.title}</td><td>${r.moderation}${r.reason ? html` (${r.reason})` : ''}</td><td>${when(r.created_at)}</td><td>${compare(r, 'from', from ? from.number === r.number : i === 1)} ${compare(r, 'to', to ? to.number === r.number : i === 0)}</td><td><button type="submit" formmethod="post" formaction="${base}/${r.number}/restore" class="quiet" aria-label="Restore revision ${r.number}">Restore</button></td></tr>`,
)}
</tbody></table></div>
<input type="hidden" name="version" value="${own?.version ?? ''}">
<button type="submit">Show the changes</button>
</form>
${
  from && to
    ? html`<h2>Changes from revision ${from.number} to revision ${to.number}</h2>
<p class="muted">Removed text is struck through, added text underlined.</p>
<h3>Title</h3>${changes(from.title, to.title, language, true)}
<h3>Excerpt</h3>${changes(from.excerpt ?? '', to.excerpt ?? '', language, true)}
<h3>Body</h3>${changes(from.content_markdown, to.content_markdown, language, false)}`
    : ''
}`
}`,
  );
}

/** Adds the history and restore routes to the dashboard's app. */
export function revisionHistoryRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps): void {
  const PATH = '/channels/:channel/pages/:id/translations/:language/revisions';
  const target = (c: Context<DashboardEnv>) => {
    const id = /^[1-9]\d{0,15}$/.test(c.req.param('id') ?? '') ? c.req.param('id')! : null;
    const parsed = languageSchema.safeParse(c.req.param('language'));
    return id && parsed.success ? { id, language: parsed.data, channel: c.req.param('channel') ?? '' } : null;
  };

  app.get(PATH, async (c) => {
    const where = target(c);
    if (!where) return notFoundPage(c, c.get('session').accountName);
    const data = await getTranslationHistory(deps, c.get('session'), where.channel, where.id, where.language);
    return pageAnswer(c, historyPage(c, data, where.language));
  });

  app.post(`${PATH}/:number/restore`, async (c) => {
    const session = c.get('session');
    const where = target(c);
    if (!where) return notFoundPage(c, session.accountName);
    const data = await getTranslationHistory(deps, session, where.channel, where.id, where.language);
    const revision = data.revisions.find((r) => String(r.number) === c.req.param('number'));
    if (!revision) return notFoundPage(c, session.accountName);
    const form = await c.req.parseBody();
    const version = field(form, 'version');
    const body = { title: revision.title, excerpt: revision.excerpt, seo_title: revision.seo_title, seo_description: revision.seo_description, content_markdown: revision.content_markdown };
    try {
      // Against the version the page showed: a save made meanwhile is not overwritten by the restore.
      await putTranslation(deps, session, where.channel, where.id, where.language, parseInput(translationPutSchema, body, 'body'), version ? { ifMatch: `"${version}"` } : {});
    } catch (error) {
      if (!PressroomError.is(error) || error.code !== 'TRANSLATION_CHANGED') throw error;
      const now = await getTranslationHistory(deps, session, where.channel, where.id, where.language);
      return pageAnswer(c, historyPage(c, now, where.language, { error: 'Someone saved this translation after you opened this page, so nothing was restored. Open the editor to see their change, then restore again if you still want to.' }), 409);
    }
    const after = await getTranslationHistory(deps, session, where.channel, where.id, where.language);
    const own = after.view.translations.find((t) => t.language === where.language);
    const notice = own?.pending_revision
      ? `Revision ${revision.number} restored as a new revision: it goes to moderation, and the published text stays live until it passes.`
      : `Revision ${revision.number} restored: the translation has its texts again.`;
    return pageAnswer(c, historyPage(c, after, where.language, { notice }));
  });
}
