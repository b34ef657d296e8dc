/**
 * A channel's articles in the dashboard: the list by state (the publishing
 * API's `listArticles`), and "New article", which creates a draft through
 * the same `upsertArticle` as `POST …/pages`, refusing a slug the channel
 * has already rather than updating that article.
 * @module
 */
import type { Context, Hono } from 'hono';
import { listArticles, upsertArticle, type ArticleDeps } from '../../domain/article/article.service.ts';
import { articleListQuerySchema, articleWriteSchema } from '../../domain/article/article.schema.ts';
import { getChannel, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { textDirection } from '../../domain/language.ts';
import { PressroomError } from '../../domain/errors.ts';
import { parseInput } from '../../domain/validation.ts';
import { DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { field, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** The states the article list filters by (those the publishing API lists by). */
const LIST_STATES = ['draft', 'moderation_review', 'scheduled', 'published', 'archived'] as const;

const NEW_FIELDS = ['title', 'slug', 'language', 'content_markdown'] as const;

interface NewArticleForm {
  readonly sent?: Record<string, unknown>;
  readonly problems?: ReadonlyMap<string, string>;
}

async function channelPage(c: Context<DashboardEnv>, deps: ArticleDeps & ChannelDeps, form: NewArticleForm = {}): Promise<Markup> {
  const session = c.get('session');
  const slug = c.req.param('channel') ?? '';
  const status = c.req.query('status');
  const query = parseInput(articleListQuerySchema, { limit: '100', ...(status ? { status } : {}) }, 'query');
  const list = await listArticles(deps, session, slug, query);
  const channel = await getChannel(deps, session, slug);
  const base = `${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}`;
  const filter = (state: string | undefined, label: string) =>
    html`<li><a href="${base}${state ? `?status=${state}` : ''}"${state === query.status ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const value = (name: string, fallback = '') => (form.sent ? field(form.sent, name) : fallback);
  const problem = (name: string) => form.problems?.get(name);
  const invalid = (name: string) => (problem(name) ? html` aria-invalid="true" aria-describedby="new-${name}-problem"` : '');
  const note = (name: string) => (problem(name) ? html`<span class="field-problem" id="new-${name}-problem">${problem(name)}</span>` : '');
  const language = value('language', channel.default_language);
  return frame(
    { title: `Articles of ${slug}`, stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator },
    html`<h1>Articles of ${slug}</h1>
${channel.can_manage_channel ? html`<p><a href="${base}/settings">Channel settings and editors</a></p>` : ''}
<nav aria-label="Filter by state"><ul class="filters">${filter(undefined, 'all')}${LIST_STATES.map((s) => filter(s, s.replace('_', ' ')))}</ul></nav>
${
  list.pages.length === 0
    ? html`<p>No articles${query.status ? html` in the state ${query.status}` : ''}.</p>`
    : html`<div class="table-wrap"><table>
<caption class="muted">Newest first${list.pagination.has_more ? ', the first 100' : ''}</caption>
<thead><tr><th scope="col">Title</th><th scope="col">State</th><th scope="col">Moderation</th><th scope="col">Languages</th><th scope="col">Updated</th></tr></thead>
<tbody>
${list.pages.map(
  (p) => html`<tr><td><a href="${base}/pages/${p.id}">${p.title}</a></td><td>${p.status}${p.scheduled_at ? html` (${when(p.scheduled_at)})` : ''}</td><td>${p.moderation}</td><td>${p.languages.join(', ')}</td><td>${when(p.updated_at)}</td></tr>`,
)}
</tbody></table></div>`
}
${
  channel.can_write_articles
    ? html`<h2 id="new-article">New article</h2>
${problem('form') ? html`<p class="error" role="alert">Nothing was created. ${problem('form')}</p>` : form.problems?.size ? html`<p class="error" role="alert">Nothing was created. Correct the fields marked below.</p>` : ''}
<form method="post" action="${base}/pages" class="stack wide" aria-labelledby="new-article">
<label for="new-title">Title <input type="text" id="new-title" name="title" required maxlength="300" value="${value('title')}"${invalid('title')}></label>
${note('title')}
<label for="new-slug">Slug: its address, lower-case letters, digits and hyphens <input type="text" id="new-slug" name="slug" required maxlength="100" value="${value('slug')}"${invalid('slug')}></label>
${note('slug')}
<label for="new-language">Language <input type="text" id="new-language" name="language" required maxlength="35" value="${language}"${invalid('language')}></label>
${note('language')}
<label for="new-content_markdown">Body (Markdown) <textarea id="new-content_markdown" name="content_markdown" rows="8" class="source" dir="${textDirection(language)}"${invalid('content_markdown')}>\n${value('content_markdown')}</textarea></label>
${note('content_markdown')}
<button type="submit">Create the draft</button>
</form>`
    : ''
}`,
  );
}

/** A refused creation's messages, by the form's fields. */
function problemsOf(error: PressroomError): Map<string, string> {
  const problems = new Map<string, string>();
  const general: string[] = [];
  for (const [name, message] of Object.entries((error.details?.fields ?? {}) as Record<string, string>)) {
    const key =
      name === 'slug' ? 'slug' : name === 'default_language' || name.endsWith('.language') ? 'language' : NEW_FIELDS.find((f) => name.endsWith(`.${f}`)) ?? (name.endsWith('content_html') ? 'content_markdown' : undefined);
    if (key) problems.set(key, message);
    else general.push(message);
  }
  if (general.length > 0 || problems.size === 0) problems.set('form', general.length > 0 ? general.join(' ') : error.message);
  return problems;
}

/** Adds the channel's article list and "New article" to the dashboard's app. */
export function channelArticlesRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps & ChannelDeps): void {
  app.get('/channels/:channel', async (c) => pageAnswer(c, await channelPage(c, deps)));

  app.post('/channels/:channel/pages', async (c) => {
    const session = c.get('session');
    const channel = c.req.param('channel');
    const form = await c.req.parseBody();
    const language = field(form, 'language').trim();
    const body = {
      slug: field(form, 'slug').trim(),
      default_language: language,
      status: 'draft',
      translations: [{ language, title: field(form, 'title'), content_markdown: field(form, 'content_markdown') }],
    };
    try {
      const written = await upsertArticle(deps, session, channel, parseInput(articleWriteSchema, body, 'body'), { createOnly: true });
      return c.redirect(`${DASHBOARD_PATH}/channels/${encodeURIComponent(channel)}/pages/${written.view.id}?created`, 303);
    } catch (error) {
      if (!PressroomError.is(error) || error.status !== 422) throw error;
      return pageAnswer(c, await channelPage(c, deps, { sent: form, problems: problemsOf(error) }), 422);
    }
  });
}
