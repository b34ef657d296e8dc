/**
 * A channel's settings in the dashboard: title and description per
 * language, a new language, the default language, `homepage_enabled` and
 * the watermark, saved through the same `updateChannel` as
 * `PATCH /api/v1/channels/{channel}`; and, for those who may manage the
 * channel, its owner and invited editors. The avatar and cover forms are
 * `image-forms.ts`, their uploads `image-uploads.ts`.
 * @module
 */
import type { Hono } from 'hono';
import { PressroomError } from '../../domain/errors.ts';
import { getChannel, inviteMember, listChannelMembers, removeMember, updateChannel, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { channelUpdateSchema } from '../../domain/channel/channel.schema.ts';
import type { ChannelView } from '../../domain/channel/channel-view.ts';
import { textDirection } from '../../domain/language.ts';
import { parseInput } from '../../domain/validation.ts';
import { DASHBOARD_PATH, frame, html, type Markup, type Viewer, when, yesNo } from './dashboard-layout.ts';
import { field, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { channelImagesSection, IMAGES_SCRIPT_HREF, type ChannelImagePurpose, type UploadFormState } from './image-forms.ts';

/** Field names of the form, per language. */
const titleField = (language: string) => `title.${language}`;
const descriptionField = (language: string) => `description.${language}`;

/**
 * The messages of a refused save, by form field: the API's `details.fields` named as the form names them (the
 * item after the channel's languages is the new one); a message no field shows goes to the top of the form.
 */
function formProblems(error: PressroomError, languages: readonly string[]): Map<string, string> {
  const problems = new Map<string, string>();
  const general: string[] = [];
  const fields = (error.details?.fields ?? {}) as Record<string, string>;
  for (const [name, message] of Object.entries(fields)) {
    const item = /^translations\.(\d+)\.(title|description|language)$/.exec(name);
    const language = item ? languages[Number(item[1])] : undefined;
    if (item && language !== undefined) problems.set(item[2] === 'title' ? titleField(language) : descriptionField(language), message);
    else if (item) problems.set(item[2] === 'title' ? 'new.title' : 'new.language', message);
    else if (name === 'default_language') problems.set(name, message);
    else general.push(message);
  }
  if (general.length > 0 || problems.size === 0) problems.set('form', general.length > 0 ? general.join(' ') : error.message);
  return problems;
}

/** The settings page: the stored values, or what was sent with what was wrong with it. */
function settingsPage(view: ChannelView, viewer: Viewer, options: { sent?: Record<string, unknown>; problems?: Map<string, string>; notice?: string; members?: Markup; images?: Markup } = {}): Markup {
  const sent = options.sent;
  const problems = options.problems ?? new Map<string, string>();
  const value = (name: string, stored: string) => (sent ? field(sent, name) : stored);
  const problem = (name: string) => problems.get(name);
  const described = (name: string) => (problem(name) ? html` aria-invalid="true" aria-describedby="${name}-problem"` : '');
  const note = (name: string) => (problem(name) ? html`<span class="field-problem" id="${name}-problem">${problem(name)}</span>` : '');
  const checked = (name: 'homepage_enabled' | 'watermark_enabled') => (sent ? field(sent, name) === 'on' : view[name]) ? html` checked` : '';
  const slug = view.slug;
  return frame(
    { title: `Settings of ${slug}`, stylesheet: STYLESHEET_HREF, accountName: viewer.accountName, administrator: viewer.administrator, notice: options.notice, scripts: [IMAGES_SCRIPT_HREF] },
    html`<p><a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}">Articles of ${slug}</a></p>
<h1>Settings of ${slug}</h1>
${
  problems.size > 0
    ? html`<div class="error" role="alert"><p>Nothing was saved. Correct the fields below and save again.</p>${problem('form') ? html`<p>${problem('form')}</p>` : ''}</div>`
    : ''
}
<form method="post" action="${DASHBOARD_PATH}/channels/${encodeURIComponent(slug)}/settings" class="stack wide">
${view.translations.map((t) => {
  const dir = textDirection(t.language);
  return html`<fieldset>
<legend>${t.language}${t.language === view.default_language ? ' (default language)' : ''}</legend>
<label for="${titleField(t.language)}">Title <input type="text" id="${titleField(t.language)}" name="${titleField(t.language)}" lang="${t.language}" dir="${dir}" required maxlength="300" value="${value(titleField(t.language), t.title)}"${described(titleField(t.language))}></label>
${note(titleField(t.language))}
<label for="${descriptionField(t.language)}">Description <textarea id="${descriptionField(t.language)}" name="${descriptionField(t.language)}" lang="${t.language}" dir="${dir}" rows="3" maxlength="2000"${described(descriptionField(t.language))}>${value(descriptionField(t.language), t.description ?? '')}</textarea></label>
${note(descriptionField(t.language))}
</fieldset>`;
})}
<fieldset>
<legend>Add a language (optional)</legend>
<label for="new.language"><span>Language code, such as <code>fr</code> or <code>pt-BR</code></span> <input type="text" id="new.language" name="new.language" maxlength="35" value="${sent ? field(sent, 'new.language') : ''}"${described('new.language')}></label>
${note('new.language')}
<label for="new.title">Title in that language <input type="text" id="new.title" name="new.title" maxlength="300" value="${sent ? field(sent, 'new.title') : ''}"${described('new.title')}></label>
${note('new.title')}
</fieldset>
<label for="default_language">Default language <select id="default_language" name="default_language"${described('default_language')}>
${view.translations.map((t) => html`<option value="${t.language}"${(sent ? field(sent, 'default_language') : view.default_language) === t.language ? html` selected` : ''}>${t.language}</option>`)}
</select></label>
${note('default_language')}
<label class="check" for="homepage_enabled"><input type="checkbox" id="homepage_enabled" name="homepage_enabled"${checked('homepage_enabled')}> Show this channel's articles on the site's homepage</label>
<label class="check" for="watermark_enabled"><input type="checkbox" id="watermark_enabled" name="watermark_enabled"${checked('watermark_enabled')}> Watermark the channel's uploaded images</label>
<button type="submit">Save the settings</button>
</form>
${options.images ?? ''}
${options.members ?? ''}`,
  );
}

/** The members table, with the invitation form; `problem`: what a refused invitation said. */
function membersTable(members: Awaited<ReturnType<typeof listChannelMembers>>, view: ChannelView, options: { problem?: string; sent?: Record<string, unknown> } = {}): Markup {
  const base = `${DASHBOARD_PATH}/channels/${encodeURIComponent(view.slug)}/members`;
  const owner = view.role === 'owner';
  return html`<h2 id="members">Owner and editors</h2>
<div class="table-wrap" role="region" aria-labelledby="members" tabindex="0"><table>
<thead><tr><th scope="col">Account</th><th scope="col">Role</th><th scope="col">Write articles</th><th scope="col">Manage channel</th><th scope="col">Since</th><th scope="col">Remove</th></tr></thead>
<tbody>
${members.map(
  (m) => html`<tr><td>${m.account}</td><td>${m.role}</td><td>${yesNo(m.canWriteArticles)}</td><td>${yesNo(m.canManageChannel)}</td><td>${when(m.since)}</td><td>${
    m.role === 'editor'
      ? html`<form method="post" action="${base}/remove" class="inline"><input type="hidden" name="account" value="${m.account}"><button type="submit" class="quiet" aria-label="Remove ${m.account}">Remove</button></form>`
      : ''
  }</td></tr>`,
)}
</tbody></table></div>
<h3 id="invite">Invite an editor, or change an editor's permissions</h3>
${options.problem ? html`<p class="error" role="alert" id="invite-problem">Nothing was changed. ${options.problem}</p>` : ''}
<form method="post" action="${base}" class="stack wide" aria-labelledby="invite">
<label for="invite-account">Account name <input type="text" id="invite-account" name="account" required maxlength="64" value="${options.sent ? field(options.sent, 'account') : ''}"${options.problem ? html` aria-invalid="true" aria-describedby="invite-problem"` : ''}></label>
<label class="check" for="invite-write"><input type="checkbox" id="invite-write" name="write" checked> May write articles</label>
${owner ? html`<label class="check" for="invite-manage"><input type="checkbox" id="invite-manage" name="manage"> May manage the channel (its settings and editors)</label>` : ''}
<button type="submit">Invite or update</button>
</form>`;
}

/** The update a settings form asks for, as the publishing API's PATCH body. */
function updateFrom(form: Record<string, unknown>, view: ChannelView): Record<string, unknown> {
  const translations: Array<Record<string, unknown>> = view.translations.map((t) => {
    const description = field(form, descriptionField(t.language)).trim();
    return { language: t.language, title: field(form, titleField(t.language)), description: description === '' ? null : description };
  });
  const newLanguage = field(form, 'new.language').trim();
  const newTitle = field(form, 'new.title');
  // Without a title the service says what a new language needs (an empty one would only be "must not be empty").
  if (newLanguage !== '') translations.push({ language: newLanguage, ...(newTitle.trim() === '' ? {} : { title: newTitle }) });
  return {
    translations,
    default_language: field(form, 'default_language') || view.default_language,
    homepage_enabled: field(form, 'homepage_enabled') === 'on',
    watermark_enabled: field(form, 'watermark_enabled') === 'on',
  };
}

type Session = DashboardEnv['Variables']['session'];

/** The channel, for one who may manage it. @throws PressroomError CHANNEL_PERMISSION_DENIED for anyone else. */
export async function managedChannel(deps: ChannelDeps, session: Session, slug: string): Promise<ChannelView> {
  const view = await getChannel(deps, session, slug);
  if (!view.can_manage_channel) {
    throw new PressroomError('CHANNEL_PERMISSION_DENIED', `You may not change the settings of the channel "${view.slug}". Ask its owner for the can_manage_channel permission.`);
  }
  return view;
}

/** What a settings page shows besides the stored settings. */
interface ScreenOptions {
  readonly sent?: Record<string, unknown>;
  readonly problems?: Map<string, string>;
  readonly notice?: string;
  /** What a refused invitation said. */
  readonly invite?: Parameters<typeof membersTable>[2];
  /** What the last avatar or cover upload left to show (`image-uploads.ts`). */
  readonly images?: { purpose: ChannelImagePurpose; form: UploadFormState };
}

/** The whole settings page of `view`: the settings form, the avatar and cover forms, the members. */
export async function settingsScreen(deps: ChannelDeps, session: Session, view: ChannelView, options: ScreenOptions = {}): Promise<Markup> {
  const members = view.can_manage_channel ? membersTable(await listChannelMembers(deps, session, view.slug), view, options.invite) : undefined;
  return settingsPage(view, session, { ...options, members, images: channelImagesSection(view, deps.urls, options.images) });
}

/** Adds the settings routes to the dashboard's app. */
export function channelSettingsRoutes(app: Hono<DashboardEnv>, deps: ChannelDeps): void {
  const managed = (session: Session, slug: string) => managedChannel(deps, session, slug);

  app.get('/channels/:channel/settings', async (c) => {
    const session = c.get('session');
    const view = await managed(session, c.req.param('channel'));
    return pageAnswer(c, await settingsScreen(deps, session, view));
  });

  app.post('/channels/:channel/settings', async (c) => {
    const session = c.get('session');
    const view = await managed(session, c.req.param('channel'));
    const form = await c.req.parseBody();
    const body = updateFrom(form, view);
    try {
      const updated = await updateChannel(deps, session, view.slug, parseInput(channelUpdateSchema, body, 'body'));
      return pageAnswer(c, await settingsScreen(deps, session, updated, { notice: 'Saved. The site shows the new settings after its next build, in a moment.' }));
    } catch (error) {
      if (!PressroomError.is(error) || (error.status !== 422 && error.code !== 'CONTENT_REFUSED')) throw error;
      const languages = view.translations.map((t) => t.language);
      return pageAnswer(c, await settingsScreen(deps, session, view, { sent: form, problems: formProblems(error, languages) }), 422);
    }
  });

  app.post('/channels/:channel/members', async (c) => {
    const session = c.get('session');
    const view = await managed(session, c.req.param('channel'));
    const form = await c.req.parseBody();
    const account = field(form, 'account').trim();
    try {
      const { created } = await inviteMember(deps, session, view.slug, { account, write: field(form, 'write') === 'on', manage: field(form, 'manage') === 'on' });
      const notice = created ? `Invited "${account}" as an editor.` : `Changed the permissions of "${account}".`;
      return pageAnswer(c, await settingsScreen(deps, session, view, { notice }));
    } catch (error) {
      if (!PressroomError.is(error) || (error.status !== 422 && error.status !== 403)) throw error;
      const message = String((error.details?.fields as Record<string, string> | undefined)?.account ?? error.message);
      return pageAnswer(c, await settingsScreen(deps, session, view, { invite: { problem: message, sent: form } }), error.status === 403 ? 403 : 422);
    }
  });

  app.post('/channels/:channel/members/remove', async (c) => {
    const session = c.get('session');
    const view = await managed(session, c.req.param('channel'));
    const account = field(await c.req.parseBody(), 'account');
    await removeMember(deps, session, view.slug, account);
    return pageAnswer(c, await settingsScreen(deps, session, view, { notice: `Removed "${account}" from the channel's editors.` }));
  });
}
