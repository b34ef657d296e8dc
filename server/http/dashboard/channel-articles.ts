/**
 * A channel's articles in the dashboard: the list (the publishing API's
 * `listArticles`), filtered by any state the API reports (`state`: draft,
 * scheduled, paused, moderation pending, manual review, blocked, published,
 * pending revision, archived) and searched by title and slug (`q`), a page
 * of 100 at a time with the API's cursor; each row says its states in words.
 * And "New article", which creates a draft through
 * the same `upsertArticle` as `POST …/pages`, refusing a slug the channel
 * has already rather than updating that article.
 * @module
 */
import type { Context, Hono } from 'hono';
import { listArticles, upsertArticle, type ArticleDeps } from '../../domain/article/article.service.ts';
import { articleListQuerySchema, articleWriteSchema, type ArticleListQuery } from '../../domain/article/article.schema.ts';
import { ARTICLE_LIST_STATES, type ArticleListState } from '../../domain/article/article-status.ts';
import { getChannel, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { textDirection } from '../../domain/language.ts';
import { PressroomError } from '../../domain/errors.ts';
import { parseInput } from '../../domain/validation.ts';
import { DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { field, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { describeStates, LIST_STATE_LABELS } from './article-states.ts';

/** Articles per page of the list. */
const PAGE_SIZE = 100;

const NEW_FIELDS = ['title', 'slug', 'language', 'content_markdown'] as const;

interface NewArticleForm {
  readonly sent?: Record<string, unknown>;
  readonly problems?: ReadonlyMap<string, string>;
}

/** The list's filters from the address: `state` and `q` (and the API's `status`, for older links), with the page's cursor. */
function listQuery(c: Context<DashboardEnv>): ArticleListQuery {
  const given: Record<string, string> = { limit: String(PAGE_SIZE) };
  for (const name of ['status', 'state', 'q', 'cursor']) {
    const value = c.req.query(name);
    if (value !== undefined && value !== '') given[name] = value;
  }
  return parseInput(articleListQuerySchema, given, 'query');
}

async function channelPage(c: Context<DashboardEnv>, deps: ArticleDeps & ChannelDeps, form: NewArticleForm = {}): Promise<Markup> {
  const session = c.get('session');
  const slug = c.req.param('channel') ?? '';
  const query = listQuery(c);
  const list = await listArticles(deps, session, slug, query);
  const channel = await getChannel(deps, session, slug);
  const base = `${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}`;
  /** The list's address with these filters (the cursor only when given). */
  const address = (filters: { status?: string; state?: string; q?: string; cursor?: string }) => {
    const params = new URLSearchParams();
    for (const name of ['state', 'status', 'q', 'cursor'] as const) if (filters[name]) params.set(name, filters[name]);
    return params.size > 0 ? `${base}?${params}` : base;
  };
  const kept = { status: query.status, q: query.q };
  const filter = (state: ArticleListState | undefined, label: string) =>
    html`<li><a href="${address({ ...kept, state })}"${state === query.state ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const value = (name: string, fallback = '') => (form.sent ? field(form.sent, name) : fallback);
  const problem = (name: string) => form.problems?.get(name);
  const invalid = (name: string) => (problem(name) ? html` aria-invalid="true" aria-describedby="new-${name}-problem"` : '');
  const note = (name: string) => (problem(name) ? html`<span class="field-problem" id="new-${name}-problem">${problem(name)}</span>` : '');
  const language = value('language', channel.default_language);
  const what = [query.state ? `in the state \u201c${LIST_STATE_LABELS[query.state]}\u201d` : '', query.status ? `with the status ${query.status}` : '', query.q ? `whose title or slug contains \u201c${query.q}\u201d` : '']
    .filter(Boolean)
    .join(' ');
  return frame(
    {
      title: `Articles of ${slug}`,
      stylesheet: STYLESHEET_HREF,
      accountName: session.accountName,
      administrator: session.administrator,
      notice: c.req.query('created') !== undefined && !form.sent ? `The channel ${slug} is created. Write its first article below, or change its settings.` : undefined,
    },
    html`<h1>Articles of ${slug}</h1>
${channel.can_manage_channel ? html`<p><a href="${base}/settings">Channel settings and editors</a></p>` : ''}
<form method="get" action="${base}" class="search" role="search" aria-label="Search the articles">
${query.state ? html`<input type="hidden" name="state" value="${query.state}">` : ''}${query.status ? html`<input type="hidden" name="status" value="${query.status}">` : ''}
<label for="list-q">Search titles (any language) and slugs <input type="search" id="list-q" name="q" maxlength="200" value="${query.q ?? ''}"></label>
<button type="submit">Search</button>
${query.q ? html`<a href="${address({ status: query.status, state: query.state })}">Clear the search</a>` : ''}
</form>
<nav aria-label="Filter by state"><ul class="filters">${filter(undefined, 'all')}${ARTICLE_LIST_STATES.map((s) => filter(s, LIST_STATE_LABELS[s]))}</ul></nav>
${
  list.pages.length === 0
    ? html`<p>No articles${what ? html` ${what}` : ''}${query.cursor ? ' on this page' : ''}.</p>`
    : html`<p class="muted" id="articles-caption">Articles${what ? html` ${what}` : ''}, newest first${query.cursor ? html`, a later page` : list.pagination.has_more ? html`, the first ${PAGE_SIZE}` : ''}</p>
<div class="table-wrap" role="region" aria-labelledby="articles-caption" tabindex="0"><table class="articles" aria-labelledby="articles-caption">
<thead><tr><th scope="col">Title</th><th scope="col">State</th><th scope="col">Languages</th><th scope="col">Updated</th></tr></thead>
<tbody>
${list.pages.map(
  (p) =>
    html`<tr><td><a href="${base}/pages/${p.id}" dir="auto">${p.title}</a> <span class="muted">${p.slug}</span></td><td><ul class="states">${describeStates(p).map((state) => html`<li>${state}</li>`)}</ul></td><td>${p.languages.join(', ')}</td><td>${when(p.updated_at)}</td></tr>`,
)}
</tbody></table></div>`
}
${
  query.cursor || list.pagination.next_cursor
    ? html`<nav aria-label="Pages of the list"><ul class="filters">${query.cursor ? html`<li><a href="${address({ ...kept, state: query.state })}">First page</a></li>` : ''}${
        list.pagination.next_cursor ? html`<li><a href="${address({ ...kept, state: query.state, cursor: list.pagination.next_cursor })}" rel="next">Next ${PAGE_SIZE} (older)</a></li>` : ''
      }</ul></nav>`
    : ''
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
