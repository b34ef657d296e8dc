/**
 * The dashboard's image uploads (issue 37): an article image from the
 * translation editor, and a channel's avatar and cover from its settings.
 * Each is received by the app's one `UploadReceiver` (the publishing API's
 * own: the account's upload slots, the image's size limit, the parse off
 * the request thread) and made by the same `uploadMedia` as
 * `POST /api/v1/channels/{channel}/media`, with the session's account as
 * the caller: the form cannot choose the purpose or the article, the path
 * does. A refused upload is the same page again with the message beside its
 * field and the API's status (413, 415, 422, 429), nothing stored.
 *
 * These paths take the image's body limit instead of the forms' 64 KB
 * ({@link isDashboardUploadPath}), and their pages, like the editor's and
 * the settings', may show `blob:` images: the picker's preview of the file
 * chosen, which never leaves the browser ({@link IMAGE_PAGES_CSP}).
 * @module
 */
import type { Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { getArticleForEditor, type ArticleDeps } from '../../domain/article/article.service.ts';
import type { ChannelDeps } from '../../domain/channel/channel.service.ts';
import { PressroomError } from '../../domain/errors.ts';
import { languageSchema } from '../../domain/schema-parts.ts';
import { uploadMedia, type MediaDeps } from '../../domain/media/media.service.ts';
import type { UploadInput } from '../../domain/media/upload-input.ts';
import type { UploadReceiver } from '../upload-receiver.ts';
import { managedChannel, settingsScreen } from './channel-settings.ts';
import { DASHBOARD_CSP, DASHBOARD_PATH } from './dashboard-layout.ts';
import { notFoundPage, pageAnswer } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { dashboardMediaSrc, UPLOAD_FIELDS, type ChannelImagePurpose, type UploadFormState } from './image-forms.ts';
import { editorPage, storedTexts } from './translation-editor.ts';

/** The dashboard's CSP with `blob:` images: the picker's preview of a chosen file (an object URL of the page's own). */
export const IMAGE_PAGES_CSP = DASHBOARD_CSP.replace("img-src 'self' data:", "img-src 'self' data: blob:");
if (IMAGE_PAGES_CSP === DASHBOARD_CSP) throw new Error('image-uploads.ts: the dashboard CSP has no "img-src \'self\' data:" to extend');

const EDITOR = '/channels/:channel/pages/:id/translations/:language';
const SETTINGS = '/channels/:channel/settings';

/** True for the dashboard's upload paths, which carry the image's body limit instead of the forms' one. */
export function isDashboardUploadPath(path: string): boolean {
  const rest = path.startsWith(`${DASHBOARD_PATH}/`) ? path.slice(DASHBOARD_PATH.length) : null;
  return rest !== null && /^\/channels\/[^/]+\/(?:settings\/(?:avatar|cover)|pages\/[^/]+\/translations\/[^/]+\/images)$/.test(rest);
}

/** What the upload routes need. */
export type ImageUploadDeps = ArticleDeps & ChannelDeps & MediaDeps & { readonly uploads: UploadReceiver };

/** Statuses a refused upload answers with, as the API would. */
const UPLOAD_STATUSES = new Set([400, 413, 415, 422, 429]);

/** A refusal of the upload itself (too large, not an image, a bad field, too many at once), shown on the form. */
function isUploadRefusal(error: unknown): error is PressroomError {
  return PressroomError.is(error) && UPLOAD_STATUSES.has(error.status);
}

/** Refusals of the file itself, shown beside the file field. */
const FILE_REFUSALS: ReadonlySet<string> = new Set(['IMAGE_TOO_LARGE', 'IMAGE_TOO_MANY_PIXELS', 'IMAGE_UNREADABLE', 'IMAGE_TOO_COMPLEX', 'IMAGE_FORMAT_UNSUPPORTED']);

/** The messages of a refusal by the form's field names; anything else goes to the top of the form. */
function uploadProblems(error: PressroomError): Map<string, string> {
  const problems = new Map<string, string>();
  const general: string[] = [];
  const fields = (error.details?.fields ?? {}) as Record<string, string>;
  for (const [name, message] of Object.entries(fields)) {
    if ((UPLOAD_FIELDS as readonly string[]).includes(name)) problems.set(name, message);
    else general.push(`${name}: ${message}`);
  }
  if (FILE_REFUSALS.has(error.code)) problems.set('image', error.message);
  else if (Object.keys(fields).length === 0) general.push(error.message);
  if (general.length > 0) problems.set('form', general.join(' '));
  return problems;
}

/**
 * Receives the request's upload and has `uploadMedia` make it, with the purpose and article the path names
 * (the form's own `purpose` or `page_slug`, if any, are not used).
 * @returns the image, or the refusal with the text fields as sent.
 */
async function upload(
  c: Context<DashboardEnv>,
  deps: ImageUploadDeps,
  channel: string,
  target: { purpose: 'article'; page: string } | { purpose: ChannelImagePurpose },
): Promise<{ ok: true; form: UploadFormState } | { ok: false; status: number; form: UploadFormState; retryAfter?: number }> {
  const session = c.get('session');
  let sent: Record<string, string> = {};
  try {
    const view = await deps.uploads.receive(c.req.raw, session.accountId, (input) => {
      sent = Object.fromEntries(Object.entries(input.fields).map(([name, values]) => [name, values[0] ?? '']));
      const fields: UploadInput['fields'] = {
        ...Object.fromEntries(Object.entries(input.fields).filter(([name]) => name !== 'purpose' && name !== 'page_slug')),
        purpose: [target.purpose],
        ...(target.purpose === 'article' ? { page_slug: [target.page] } : {}),
      };
      return uploadMedia(deps, session, channel, { fields, files: input.files }, { altRequired: true });
    });
    return { ok: true, form: { uploaded: { view, src: dashboardMediaSrc(view.url, deps.urls) } } };
  } catch (error) {
    if (!isUploadRefusal(error)) throw error;
    const retry = error.details?.retry_after_seconds;
    return { ok: false, status: error.status, form: { sent, problems: uploadProblems(error) }, retryAfter: typeof retry === 'number' ? retry : undefined };
  }
}

function answer(c: Context<DashboardEnv>, markup: Parameters<typeof pageAnswer>[1], status: number, retryAfter?: number) {
  if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  return pageAnswer(c, markup, status as Parameters<typeof pageAnswer>[2]);
}

/** Adds the upload routes, and the image pages' CSP, to the dashboard's app (before the editor's and the settings' routes). */
export function imageUploadRoutes(app: Hono<DashboardEnv>, deps: ImageUploadDeps): void {
  // The pages with a picker may show the preview of a chosen file; every other page keeps the CSP without blob:.
  const previews = createMiddleware<DashboardEnv>(async (c, next) => {
    await next();
    if (c.res.headers.get('Content-Security-Policy') === DASHBOARD_CSP) c.res.headers.set('Content-Security-Policy', IMAGE_PAGES_CSP);
  });
  for (const path of [EDITOR, `${EDITOR}/images`, SETTINGS, `${SETTINGS}/avatar`, `${SETTINGS}/cover`]) app.use(path, previews);

  app.post(`${EDITOR}/images`, async (c) => {
    const session = c.get('session');
    const id = c.req.param('id');
    const language = languageSchema.safeParse(c.req.param('language'));
    if (!/^[1-9]\d{0,15}$/.test(id) || !language.success) return notFoundPage(c, session.accountName);
    const channel = c.req.param('channel');
    // The article first: another account's is a 404 before a byte of the upload is read.
    const { view } = await getArticleForEditor(deps, session, channel, id);
    const result = await upload(c, deps, view.project, { purpose: 'article', page: view.slug });
    const { view: now, changedAt } = await getArticleForEditor(deps, session, channel, id);
    const own = now.translations.find((t) => t.language === language.data);
    const page = editorPage({
      view: now,
      language: language.data,
      changedAt,
      texts: storedTexts(own),
      version: own?.version ?? null,
      viewer: session,
      upload: result.form,
      notice: result.ok ? 'The image is uploaded. Copy its Markdown (below the editor) into the body where the image goes, then save.' : undefined,
    });
    return result.ok ? answer(c, page, 200) : answer(c, page, result.status, result.retryAfter);
  });

  for (const purpose of ['channel_avatar', 'channel_cover'] as const) {
    app.post(`${SETTINGS}/${purpose === 'channel_avatar' ? 'avatar' : 'cover'}`, async (c) => {
      const session = c.get('session');
      // A manager's channel first: anyone else is answered before the upload is read.
      const view = await managedChannel(deps, session, c.req.param('channel'));
      const result = await upload(c, deps, view.slug, { purpose });
      const name = purpose === 'channel_avatar' ? 'avatar' : 'cover';
      const now = await managedChannel(deps, session, view.slug);
      const notice = result.ok
        ? `The new ${name} is uploaded${purpose === 'channel_avatar' ? ', cropped to a square around the focal point' : ', cropped around the focal point'}. The site shows it after its next build, in a moment.`
        : undefined;
      return answer(c, await settingsScreen(deps, session, now, { notice, images: { purpose, form: result.ok ? {} : result.form } }), result.ok ? 200 : result.status, result.ok ? undefined : result.retryAfter);
    });
  }
}
