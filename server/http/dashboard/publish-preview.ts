/**
 * The preview of a publish in the dashboard (issue 37): what publishing the
 * article now, every translation with its current texts, would write,
 * rendered by the builder's own plans and renderers (`publish/preview.ts`),
 * compared with the output folder. The screen lists the files publishing
 * writes (new or changed) or deletes, a diff of each changed text file
 * (jsdiff's `structuredPatch`), and the page itself, served at its own
 * address inside a sandboxed frame. Nothing is written to the output, and
 * the preview is never cached or indexed. Access is the article's
 * (`getArticleForEditor`): anyone else gets the dashboard's 404.
 * @module
 */
import { structuredPatch } from 'diff';
import type { Context, Hono } from 'hono';
import { getArticleForEditor, type ArticleDeps } from '../../domain/article/article.service.ts';
import type { ArticleView } from '../../domain/article/article-view.ts';
import { languageSchema } from '../../domain/schema-parts.ts';
import type { ArticlePreview, ArticlePreviewer } from '../../publish/preview.ts';
import { countChanges, isTextFile, type FileChange, type OutputChange } from '../../publish/preview-compare.ts';
import { CONTENT_SECURITY_POLICY } from '../../serving/security-headers.ts';
import { dashboardHeaders, DASHBOARD_CSP, DASHBOARD_PATH, frame, html, type Markup, type Viewer, when } from './dashboard-layout.ts';
import { notFoundPage, pageAnswer, problemPage, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** What the preview screen needs besides the article service. */
export interface PreviewDeps extends ArticleDeps {
  /** The builder's preview; absent when the static build is off. */
  readonly preview?: ArticlePreviewer;
}

/** The screen's CSP: the dashboard's, and frames of its own address (the previewed page). */
export const PREVIEW_SCREEN_CSP = `${DASHBOARD_CSP}; frame-src 'self'`;

/**
 * The previewed page's CSP: the site's pages' own (the same style sheets and images), framed only by the
 * dashboard, and sandboxed even when opened alone: no script runs, and it has an origin of its own.
 */
export const PREVIEW_PAGE_CSP = `${CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'")}; sandbox`;

/** Text files larger than this (before and after together) are listed without a diff. */
export const DIFF_MAX_BYTES = 512 * 1024;

/** The address of an article's preview screen. */
export function previewAddress(channel: string, id: number): string {
  return `${DASHBOARD_PATH}/channels/${encodeURIComponent(channel)}/pages/${id}/preview`;
}

const CHANGE_WORDS: Readonly<Record<FileChange, string>> = { new: 'written (new)', changed: 'changed', deleted: 'deleted', unchanged: 'unchanged' };

/** Whose file it is, in words. */
function ownerWords(owner: string): string {
  if (owner.startsWith('article:')) return 'the article';
  if (owner.startsWith('channel:')) return 'the channel';
  if (owner.startsWith('pages:')) return "the channel's list pages";
  return 'the site';
}

/**
 * A file's text as compared: JSON indented (the output is compact, one line), HTML and XML with a line break
 * between tags, so a change shows as the lines it touches rather than the whole document.
 */
export function comparable(path: string, bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  if (path.endsWith('.json')) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  if (/\.(html|xml|svg)$/.test(path)) return text.replace(/>\s*</g, '>\n<');
  return text;
}

/** The changes of one text file, as unified hunks (three lines of context). */
function fileDiff(file: OutputChange): Markup {
  if (!file.before || !file.after) return html``;
  if (file.before.byteLength + file.after.byteLength > DIFF_MAX_BYTES) return html`<p class="muted">Too large to compare here (${Math.round((file.before.byteLength + file.after.byteLength) / 1024)} KB).</p>`;
  const patch = structuredPatch(file.path, file.path, comparable(file.path, file.before), comparable(file.path, file.after), 'live now', 'after publishing', { context: 3 });
  return html`<pre class="source diff" dir="ltr">${patch.hunks.map(
    (h) => html`<span class="hunk">@@ lines ${h.oldStart}–${h.oldStart + Math.max(h.oldLines - 1, 0)} live, ${h.newStart}–${h.newStart + Math.max(h.newLines - 1, 0)} after @@</span>${h.lines.map((line) => (line.startsWith('+') ? html`<ins>${line}</ins>\n` : line.startsWith('-') ? html`<del>${line}</del>\n` : line.startsWith('\\') ? '' : html`<span>${line}</span>\n`))}`,
  )}</pre>`;
}

function previewScreen(view: ArticleView, viewer: Viewer, preview: ArticlePreview, shown: string): Markup {
  const slug = view.project;
  const base = previewAddress(slug, view.id);
  const article = `${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}/pages/${view.id}`;
  const languages = preview.article.translations.map((t) => t.language);
  const title = preview.article.translations[0]?.title ?? view.slug;
  const counts = countChanges(preview.files);
  const changing = preview.files.filter((f) => f.change !== 'unchanged');
  const unchanged = preview.files.filter((f) => f.change === 'unchanged');
  const diffs = changing.filter((f) => f.change === 'changed' && isTextFile(f.path));
  const page = preview.article.translations.find((t) => t.language === shown)!;
  return frame(
    { title: `Preview: ${title}`, stylesheet: STYLESHEET_HREF, accountName: viewer.accountName, administrator: viewer.administrator },
    html`<p><a href="${article}">Back to the article</a></p>
<h1>What publishing writes: <span lang="${preview.article.defaultLanguage}" dir="auto">${title}</span></h1>
<p>This is what publishing the article now with <strong>every translation (${languages.join(', ')})</strong> and their current texts would write to the site, made by the same renderers as the build, compared with the files readers get now. Nothing is published or written by looking. It assumes moderation passes; times not known yet (first publication, the moderation decision) are taken as now, ${when(preview.at)}.</p>
<p>${
      preview.changedLanguages.length === 0
        ? 'Every translation is as readers have it: publishing would write nothing new.'
        : html`Texts not yet public: ${preview.changedLanguages.join(', ')}.`
    }${preview.buildPending ? ' A build is under way: the files readers get may change before you publish; look again in a moment.' : ''}</p>
<h2 id="page-heading">The page as readers will see it</h2>
${
  languages.length > 1
    ? html`<nav aria-label="Languages of the preview"><ul class="filters">${languages.map((l) => html`<li><a href="${base}?language=${encodeURIComponent(l)}" lang="${l}"${l === shown ? html` aria-current="page"` : ''}>${l}</a></li>`)}</ul></nav>`
    : ''
}
<p><a href="${base}/${encodeURIComponent(shown)}.html">Open the ${shown} page alone</a> (scripts do not run in the preview).</p>
<iframe class="preview-frame" sandbox src="${base}/${encodeURIComponent(shown)}.html" title="${page.title}: the ${shown} page as publishing writes it" lang="${shown}"></iframe>
<h2 id="files-heading">Files</h2>
<p>${counts.new} written new, ${counts.changed} changed, ${counts.deleted} deleted; ${counts.unchanged} stay as they are.</p>
${
  changing.length === 0
    ? html`<p>Publishing would write or delete no file.</p>`
    : html`<div class="table-wrap" role="region" aria-labelledby="files-heading" tabindex="0"><table>
<thead><tr><th scope="col">File</th><th scope="col">Whose</th><th scope="col">What happens</th></tr></thead>
<tbody>
${changing.map((f) => html`<tr><td><code>${f.path}</code></td><td>${ownerWords(f.owner)}</td><td>${CHANGE_WORDS[f.change]}${f.change === 'changed' && isTextFile(f.path) ? html` (<a href="#diff-${diffs.indexOf(f)}">what changes</a>)` : ''}</td></tr>`)}
</tbody></table></div>`
}
${
  unchanged.length === 0
    ? ''
    : html`<details><summary>The ${unchanged.length} files that stay as they are</summary><ul class="files">${unchanged.map((f) => html`<li><code>${f.path}</code></li>`)}</ul></details>`
}
<p class="muted">Left out of the list: the search index (<code>pagefind/</code>, made again after each build) and a static host's own files (<code>PRESSROOM_STATIC_HOST</code>), which follow the build; the site's style sheets, its API documents and the channel list's later pages, which no article changes.</p>
${
  diffs.length === 0
    ? ''
    : html`<h2 id="changes-heading">What changes in each file</h2>
<p class="muted">Removed lines are struck through, added lines underlined; JSON is shown indented and HTML with a line per tag, for the comparison only. The article's own files are open; open the others by their name.</p>
${diffs.map((f, i) => html`<details class="file-diff" id="diff-${i}"${f.owner.startsWith('article:') ? html` open` : ''}><summary><code>${f.path}</code> <span class="muted">(${ownerWords(f.owner)})</span></summary>${fileDiff(f)}</details>`)}`
}`,
  );
}

/** Adds the preview screen and the previewed page to the dashboard's app. */
export function publishPreviewRoutes(app: Hono<DashboardEnv>, deps: PreviewDeps): void {
  const PATH = '/channels/:channel/pages/:id/preview';
  const target = (c: Context<DashboardEnv>) => {
    const id = /^[1-9]\d{0,15}$/.test(c.req.param('id') ?? '') ? c.req.param('id')! : null;
    return id ? { id, channel: c.req.param('channel') ?? '' } : null;
  };
  const noPreview = (c: Context<DashboardEnv>) =>
    pageAnswer(c, problemPage('No preview here', 'Previews are made by the static build, and it is off on this server (PRESSROOM_STATIC_BUILD=false). Turn it on to preview what publishing writes.', c.get('session').accountName), 404);

  app.get(PATH, async (c) => {
    const session = c.get('session');
    const where = target(c);
    if (!where) return notFoundPage(c, session.accountName);
    // Access first: another account's article is the same 404 as one that does not exist.
    const { view } = await getArticleForEditor(deps, session, where.channel, where.id);
    if (!deps.preview) return noPreview(c);
    const preview = await deps.preview.preview(view.id);
    if (!preview) return pageAnswer(c, problemPage('No preview', `Publishing this article would write nothing: the channel "${view.project}" is not public, or the article has no text in its primary language (${view.default_language}). Preview it again once the channel is active and the primary language has a translation.`, session.accountName), 404);
    const asked = c.req.query('language');
    const shown = preview.article.translations.some((t) => t.language === asked) ? asked! : preview.article.defaultLanguage;
    dashboardHeaders(c);
    c.header('Content-Security-Policy', PREVIEW_SCREEN_CSP);
    return c.html(previewScreen(view, session, preview, shown));
  });

  app.get(`${PATH}/:page`, async (c) => {
    const session = c.get('session');
    const where = target(c);
    const page = /^(.+)\.html$/.exec(c.req.param('page') ?? '');
    const language = page ? languageSchema.safeParse(page[1]) : null;
    if (!where || !language?.success) return notFoundPage(c, session.accountName);
    const { view } = await getArticleForEditor(deps, session, where.channel, where.id);
    if (!deps.preview) return noPreview(c);
    const bytes = await deps.preview.page(view.id, language.data);
    if (!bytes) return notFoundPage(c, session.accountName);
    c.header('Content-Type', 'text/html; charset=utf-8');
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    c.header('Content-Security-Policy', PREVIEW_PAGE_CSP);
    c.header('X-Frame-Options', 'SAMEORIGIN');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'same-origin');
    return c.body(bytes as Uint8Array<ArrayBuffer>);
  });
}
