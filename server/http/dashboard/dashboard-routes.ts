/**
 * The editor dashboard under `/dashboard` (issue 37): sign-in, the channels
 * the account may use, its articles and each translation's state, and the
 * account's settings (plan, API keys). Routes are thin: every read and
 * write goes through the same domain services as the publishing API, with
 * the session's account as the caller.
 * @module
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { createOwnKey, listOwnKeys, revokeOwnKey } from '../../domain/account/account.service.ts';
import { createLoginThrottle, type LoginThrottle } from '../../domain/account/login-throttle.ts';
import { planFeatures } from '../../domain/account/plans.ts';
import { sessionPrincipal, signIn, signOut, signOutEverywhere } from '../../domain/account/session.service.ts';
import type { ArticleDeps } from '../../domain/article/article.service.ts';
import type { ChannelDeps } from '../../domain/channel/channel.service.ts';
import { PressroomError } from '../../domain/errors.ts';
import { clientAddress } from '../middleware/rate-limit.ts';
import { dashboardHeaders, DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { field, notFoundPage, pageAnswer, problemPage, STYLESHEET_HREF } from './dashboard-page.ts';
import { findDashboardAsset } from './dashboard-assets.ts';
import { channelSettingsRoutes } from './channel-settings.ts';
import { TRANSLATION_TEXT_PATH, translationEditorRoutes } from './translation-editor.ts';
import { articleScreenRoutes } from './article-screen.ts';
import { channelArticlesRoutes } from './channel-articles.ts';
import { channelListRoutes } from './channel-list.ts';
import { moderationQueueRoutes } from './moderation-queue.ts';
import { revisionHistoryRoutes } from './revision-history.ts';
import { scheduledListRoutes } from './scheduled-list.ts';
import { publishPreviewRoutes, type PreviewDeps } from './publish-preview.ts';
import { imageUploadRoutes, isDashboardUploadPath } from './image-uploads.ts';
import type { MediaKit } from '../../domain/media/media-kit.ts';
import type { UploadReceiver } from '../upload-receiver.ts';
import {
  clearSessionCookie,
  foreignOrigin,
  requireSession,
  safeNext,
  sessionToken,
  setSessionCookie,
  type DashboardEnv,
} from './dashboard-session.ts';

/** What the dashboard needs: the domain's dependencies and where it is published. */
export interface DashboardDeps extends ArticleDeps, ChannelDeps, PreviewDeps {
  readonly clock: Clock;
  /** The dashboard's public address (`PRESSROOM_DASHBOARD_URL`): forms posted from its origin are accepted. */
  readonly dashboardUrl: string;
  /** Proxies in front of the server, to find the client's address for the sign-in throttle. */
  readonly trustProxyHops: number;
  /** The sign-in throttle; one of the dashboard's own when absent. */
  readonly loginThrottle?: LoginThrottle;
  /** Where decisions made in the dashboard are logged. */
  readonly log?: Logger;
  /** The largest request body the publishing API accepts (`PRESSROOM_MAX_BODY_MB`): the editor's forms take as much. */
  readonly maxBodyBytes: number;
  /** The media folder, processor and limits, for the image uploads. */
  readonly media: MediaKit;
  /** The app's one receiver of uploads, shared with the publishing API's POST …/media. */
  readonly uploads: UploadReceiver;
}

/** The largest form the dashboard reads. */
const FORM_LIMIT_BYTES = 64 * 1024;


/** The sign-in page, with what went wrong if anything. */
function signInPage(options: { next: string; accountName?: string; error?: string; notice?: string }): Markup {
  return frame(
    { title: 'Sign in', stylesheet: STYLESHEET_HREF, notice: options.notice },
    html`<h1>Sign in</h1>
${options.error ? html`<p class="error" role="alert" id="sign-in-error">${options.error}</p>` : ''}
<form method="post" action="${DASHBOARD_PATH}/login" class="stack"${options.error ? html` aria-describedby="sign-in-error"` : ''}>
<input type="hidden" name="next" value="${options.next}">
<label for="account">Account name <input type="text" id="account" name="account" autocomplete="username" required maxlength="64" value="${options.accountName ?? ''}"></label>
<label for="password">Password <input type="password" id="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
<p class="muted">No password yet? An administrator sets one with <code>npm run admin -- account password --account NAME</code>.</p>`,
  );
}

/** Creates the dashboard's routes, mounted at {@link DASHBOARD_PATH}. */
export function dashboardRoutes(deps: DashboardDeps): Hono<DashboardEnv> {
  const throttle = deps.loginThrottle ?? createLoginThrottle(deps.clock);
  const app = new Hono<DashboardEnv>();
  const signedInName = (c: Context<DashboardEnv>) => c.get('session')?.accountName;

  app.onError((err, c) => {
    if (PressroomError.is(err)) {
      if (err.status === 404 || err.code === 'CHANNEL_ACCESS_DENIED') return notFoundPage(c, signedInName(c));
      const status = err.status === 403 || err.status === 422 ? err.status : null;
      if (status) return pageAnswer(c, problemPage(status === 403 ? 'Not allowed' : 'Check the form', err.message, signedInName(c)), status);
    }
    throw err;
  });

  app.get('/assets/:file', async (c) => {
    const asset = await findDashboardAsset(`${DASHBOARD_PATH}/assets/${c.req.param('file')}`);
    if (!asset) return notFoundPage(c);
    c.header('Content-Type', asset.type);
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(asset.body);
  });

  // Every unsafe request, signed in or not (sign-in too: a foreign page must not sign the browser in either).
  const formLimit = bodyLimit({ maxSize: FORM_LIMIT_BYTES, onError: (c) => pageAnswer(c, problemPage('Form too large', `A dashboard form is at most ${FORM_LIMIT_BYTES / 1024} KB. Send less text.`), 422) });
  // A translation's texts may be as large as the publishing API takes them.
  const textLimit = bodyLimit({ maxSize: deps.maxBodyBytes, onError: (c) => pageAnswer(c, problemPage('Too much text', `A translation's texts are at most ${Math.floor(deps.maxBodyBytes / 1024 / 1024)} MB, as the publishing API accepts. Split the article.`), 422) });
  // The image uploads carry the image's limit instead (image-uploads.ts).
  app.use('*', (c, next) => (isDashboardUploadPath(c.req.path) ? next() : (TRANSLATION_TEXT_PATH.test(c.req.path) ? textLimit : formLimit)(c, next)));
  app.use('*', async (c, next) => {
    const refused = foreignOrigin(c, deps.dashboardUrl);
    if (refused) return pageAnswer(c, problemPage('Refused: not sent from the dashboard', refused), 403);
    await next();
  });

  app.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    if (await sessionPrincipal(deps, sessionToken(c))) return c.redirect(next, 303);
    const notice = c.req.query('signed_out') === 'everywhere' ? 'You are signed out on every device.' : c.req.query('signed_out') !== undefined ? 'You are signed out.' : undefined;
    return pageAnswer(c, signInPage({ next, notice }));
  });

  app.post('/login', async (c) => {
    const form = await c.req.parseBody();
    const accountName = field(form, 'account').trim();
    const password = field(form, 'password');
    const next = safeNext(field(form, 'next'));
    const client = clientAddress(c, deps.trustProxyHops);
    const wait = throttle.waitSeconds(accountName, client);
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      return pageAnswer(c, signInPage({ next, accountName, error: `Too many failed sign-ins. Wait ${wait} seconds, then try again; if you forgot the password, an administrator can set a new one.` }), 429);
    }
    const result = await signIn(deps, accountName, password);
    if (!result.ok) {
      throttle.failed(accountName, client);
      return pageAnswer(c, signInPage({ next, accountName, error: 'The account name or the password is wrong. Check both (the password is case-sensitive) and try again.' }), 401);
    }
    throttle.succeeded(accountName);
    // A session the browser held before is ended: the new token replaces it (no fixation).
    const before = await sessionPrincipal(deps, sessionToken(c));
    if (before) await signOut(deps, before);
    setSessionCookie(c, result.token);
    dashboardHeaders(c);
    return c.redirect(next, 303);
  });

  const signedIn = requireSession(deps, (c) => {
    dashboardHeaders(c);
    clearSessionCookie(c);
    return c.html(signInPage({ next: DASHBOARD_PATH, error: 'You are signed out (the session ended or was never made). Sign in again, then repeat what you were doing.' }), 401);
  });
  app.use('*', signedIn);

  app.post('/logout', async (c) => {
    await signOut(deps, c.get('session'));
    clearSessionCookie(c);
    return c.redirect(`${DASHBOARD_PATH}/login?signed_out`, 303);
  });

  app.post('/logout-everywhere', async (c) => {
    await signOutEverywhere(deps, c.get('session'));
    clearSessionCookie(c);
    return c.redirect(`${DASHBOARD_PATH}/login?signed_out=everywhere`, 303);
  });

  app.get('/account', async (c) => accountPage(c));

  /** The account page, with a key just created shown once. */
  const accountPage = async (c: Context<DashboardEnv>, created?: { key: string; prefix: string }, notice?: string) => {
    const session = c.get('session');
    const plan = planFeatures(session.plan);
    const keys = await listOwnKeys(deps, session);
    return pageAnswer(
      c,
      frame(
        { title: 'Account', stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator, notice },
        html`<h1>Account ${session.accountName}</h1>
<h2>Plan</h2>
<dl>
<dt>Plan</dt><dd>${plan.label} (<code>${session.plan}</code>)</dd>
<dt>Publishing API</dt><dd>${plan.apiPublishing ? 'included' : 'not included: keys of this account are refused'}</dd>
<dt>Scheduled publishing</dt><dd>${plan.scheduling ? 'included' : 'not included'}</dd>
<dt>Channels you may own</dt><dd>${plan.channelLimit}</dd>
</dl>
<h2>API keys</h2>
${
  created
    ? html`<div class="notice" role="status"><p>Your new key, <strong>shown only this once</strong>. Copy it now and keep it secret; only its hash is stored, so it cannot be shown again.</p><p class="secret" id="new-key">${created.key}</p></div>`
    : ''
}
<form method="post" action="${DASHBOARD_PATH}/account/keys" class="stack">
<label for="label">Label (where the key will be used) <input type="text" id="label" name="label" maxlength="100"></label>
<button type="submit">Create a key</button>
</form>
${
  keys.length === 0
    ? html`<p>No keys yet.</p>`
    : html`<div class="table-wrap"><table>
<caption class="muted">Keys are listed by their first characters; a revoked key is refused at once</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>
${keys.map(
  (k) => html`<tr><td><code>${k.prefix}…</code></td><td>${k.label ?? ''}</td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td><td>${
    k.revokedAt
      ? html`revoked ${when(k.revokedAt)}`
      : html`<form method="post" action="${DASHBOARD_PATH}/account/keys/${k.id}/revoke" class="inline"><button type="submit" class="quiet" aria-label="Revoke the key ${k.prefix}">Revoke</button></form>`
  }</td></tr>`,
)}
</tbody></table></div>`
}
<h2>Sessions</h2>
<form method="post" action="${DASHBOARD_PATH}/logout-everywhere"><button type="submit">Sign out everywhere</button></form>
<p class="muted">Ends every session of this account, on every device, this one included.</p>`,
      ),
    );
  };

  app.post('/account/keys', async (c) => {
    const form = await c.req.parseBody();
    const created = await createOwnKey(deps, c.get('session'), field(form, 'label'));
    return accountPage(c, created);
  });

  app.post('/account/keys/:id/revoke', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id)) return notFoundPage(c, signedInName(c));
    await revokeOwnKey(deps, c.get('session'), id);
    return accountPage(c, undefined, 'The key is revoked: the publishing API refuses it from now on.');
  });

  imageUploadRoutes(app, deps);
  channelListRoutes(app, deps);
  channelArticlesRoutes(app, deps);
  articleScreenRoutes(app, deps);
  channelSettingsRoutes(app, deps);
  translationEditorRoutes(app, deps);
  moderationQueueRoutes(app, deps);
  revisionHistoryRoutes(app, deps);
  scheduledListRoutes(app, deps);
  publishPreviewRoutes(app, deps);

  app.all('*', (c) => notFoundPage(c, signedInName(c)));
  return app;
}
