/**
 * The dashboard's home: the channels the account owns or was invited to
 * (the publishing API's `listChannels`), and "New channel", which creates
 * one through the same `createChannel` as `POST /api/v1/channels`: the
 * plan's channel limit, the slug rules and the moderation of public texts
 * are that function's, each refused field named beside it.
 * @module
 */
import type { Context, Hono } from 'hono';
import { planFeatures } from '../../domain/account/plans.ts';
import { createChannel, listChannels, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { channelCreateSchema } from '../../domain/channel/channel.schema.ts';
import { PressroomError } from '../../domain/errors.ts';
import { textDirection } from '../../domain/language.ts';
import { parseInput } from '../../domain/validation.ts';
import { DASHBOARD_PATH, frame, html, type Markup, yesNo } from './dashboard-layout.ts';
import { field, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** The form's fields. */
const FIELDS = ['title', 'slug', 'default_language', 'description'] as const;
type FieldName = (typeof FIELDS)[number];

/** What a refused creation sent, and what was wrong, by field (`form`: the rest). */
interface NewChannelForm {
  readonly sent?: Record<string, unknown>;
  readonly problems?: ReadonlyMap<FieldName | 'form', string>;
}

/**
 * The messages of a refused creation by form field: `createChannel`'s
 * `details.fields` (`translations.0.title`, `slug`, …) named as the form
 * names them; one no field shows goes above the form.
 */
export function channelFormProblems(error: PressroomError): Map<FieldName | 'form', string> {
  const problems = new Map<FieldName | 'form', string>();
  const general: string[] = [];
  for (const [name, message] of Object.entries((error.details?.fields ?? {}) as Record<string, string>)) {
    const item = /^translations\.0\.(title|description|language)$/.exec(name);
    const key: FieldName | undefined = item ? (item[1] === 'language' ? 'default_language' : (item[1] as FieldName)) : name === 'slug' || name === 'default_language' ? name : undefined;
    if (key && !problems.has(key)) problems.set(key, message);
    else general.push(message);
  }
  if (general.length > 0 || problems.size === 0) problems.set('form', general.length > 0 ? general.join(' ') : error.message);
  return problems;
}

async function channelsPage(c: Context<DashboardEnv>, deps: ChannelDeps, form: NewChannelForm = {}): Promise<Markup> {
  const session = c.get('session');
  const plan = planFeatures(session.plan);
  const channels = plan.apiPublishing ? await listChannels(deps, session) : [];
  const owned = channels.filter((ch) => ch.role === 'owner').length;
  const sent = form.sent;
  const value = (name: FieldName, fallback = '') => (sent ? field(sent, name) : fallback);
  const problem = (name: FieldName | 'form') => form.problems?.get(name);
  const invalid = (name: FieldName) => (problem(name) ? html` aria-invalid="true" aria-describedby="channel-${name}-problem"` : '');
  const note = (name: FieldName) => (problem(name) ? html`<span class="field-problem" id="channel-${name}-problem">${problem(name)}</span>` : '');
  const language = value('default_language', 'en');
  const dir = textDirection(language.trim() || 'en');
  const limitText = `Your plan (${plan.label}) lets you own ${plan.channelLimit} channel${plan.channelLimit === 1 ? '' : 's'}; you own ${owned}.`;
  const newChannel = !plan.apiPublishing
    ? html`<p>Your plan (${plan.label}) does not include publishing, so you cannot create channels. Ask an administrator to change the plan.</p>`
    : owned >= plan.channelLimit && !form.problems
      ? html`<p>${limitText} That is the most it allows: remove a channel you no longer need (with the API's <code>DELETE /api/v1/channels/{channel}</code>), reuse one, or ask an administrator to upgrade the plan.</p>`
      : html`<p class="muted" id="channel-limit">${limitText} Channels you were invited to do not count.</p>
${
  form.problems
    ? html`<div class="error" role="alert"><p>No channel was created.${problem('form') ? html` ${problem('form')}` : html` Correct the fields marked below and create it again.`}</p></div>`
    : ''
}
<form method="post" action="${DASHBOARD_PATH}/channels" class="stack wide" aria-labelledby="new-channel" aria-describedby="channel-limit">
<label for="channel-title">Title <input type="text" id="channel-title" name="title" required maxlength="300" dir="${dir}" value="${value('title')}"${invalid('title')}></label>
${note('title')}
<label for="channel-slug">Slug, its address: lower-case letters, digits and hyphens; leave it empty to have one made from the title <input type="text" id="channel-slug" name="slug" maxlength="100" value="${value('slug')}"${invalid('slug')}></label>
${note('slug')}
<label for="channel-default_language"><span>Default language, such as <code>en</code>, <code>ar</code> or <code>pt-BR</code></span> <input type="text" id="channel-default_language" name="default_language" required maxlength="35" value="${language}"${invalid('default_language')}></label>
${note('default_language')}
<label for="channel-description">Description (optional) <textarea id="channel-description" name="description" rows="3" maxlength="2000" dir="${dir}"${invalid('description')}>${value('description')}</textarea></label>
${note('description')}
<button type="submit">Create the channel</button>
</form>`;
  return frame(
    { title: 'Channels', stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator },
    html`<h1>Your channels</h1>
${
  channels.length === 0
    ? html`<p>You have no channels yet. Create one below, or ask a channel's owner to invite you.</p>`
    : html`<div class="table-wrap"><table>
<caption class="muted">Channels you own or were invited to, with what you may do in each</caption>
<thead><tr><th scope="col">Channel</th><th scope="col">Role</th><th scope="col">Write articles</th><th scope="col">Manage channel</th><th scope="col">State</th></tr></thead>
<tbody>
${channels.map(
  (ch) => html`<tr><td><a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(ch.slug)}">${ch.title}</a> <span class="muted">${ch.slug}</span></td><td>${ch.role}</td><td>${yesNo(ch.can_write_articles)}</td><td>${yesNo(ch.can_manage_channel)}</td><td>${ch.read_only ? 'read-only: past the plan\u2019s channel limit' : ch.status}</td></tr>`,
)}
</tbody></table></div>`
}
<h2 id="new-channel">New channel</h2>
${newChannel}`,
  );
}

/** Adds the channels page and "New channel" to the dashboard's app. */
export function channelListRoutes(app: Hono<DashboardEnv>, deps: ChannelDeps): void {
  app.get('/', async (c) => pageAnswer(c, await channelsPage(c, deps)));

  app.post('/channels', async (c) => {
    const session = c.get('session');
    const form = await c.req.parseBody();
    const language = field(form, 'default_language').trim();
    const slug = field(form, 'slug').trim();
    const description = field(form, 'description').trim();
    const body = {
      ...(slug ? { slug } : {}),
      default_language: language,
      translations: [{ language, title: field(form, 'title'), ...(description ? { description } : {}) }],
    };
    try {
      const created = await createChannel(deps, session, parseInput(channelCreateSchema, body, 'body'));
      return c.redirect(`${DASHBOARD_PATH}/channels/${encodeURIComponent(created.slug)}?created`, 303);
    } catch (error) {
      // The plan's limit (403) and refused fields (422) come back on the form, with what was typed; anything else is the app's.
      if (!PressroomError.is(error) || !(error.status === 422 || error.code === 'CHANNEL_LIMIT_REACHED')) throw error;
      return pageAnswer(c, await channelsPage(c, deps, { sent: form, problems: channelFormProblems(error) }), error.status === 422 ? 422 : 403);
    }
  });
}
