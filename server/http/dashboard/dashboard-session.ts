/**
 * The dashboard's cookie and its two guards: every unsafe request must come
 * from the dashboard's own origin (CSRF), and every page but sign-in needs a
 * session. The cookie is `__Host-` prefixed (the browser sends it only to
 * this host, path `/`, over HTTPS or localhost), HttpOnly, Secure and
 * SameSite=Lax. API keys are never read here, and the publishing API never
 * reads this cookie.
 * @module
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Clock } from '../../clock.ts';
import { SESSION_MAX_MS, sessionPrincipal, type SessionPrincipal } from '../../domain/account/session.service.ts';
import type { Db } from '../../store/database.ts';
import { DASHBOARD_PATH } from './dashboard-layout.ts';

/** The session cookie's name. */
export const SESSION_COOKIE = '__Host-pressroom_session';

/** Variables the dashboard's routes read. */
export type DashboardEnv = { Variables: { session: SessionPrincipal } };

/** Puts the new session's token in the browser. */
export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { path: '/', httpOnly: true, secure: true, sameSite: 'Lax', maxAge: Math.floor(SESSION_MAX_MS / 1000) });
}

/** Takes it out again. */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: true });
}

/** The session token the browser sent, if any. */
export function sessionToken(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/**
 * The origins a form may be posted from: the dashboard's configured address (behind a proxy, the one people
 * open) and the address the request was made to.
 */
function allowedOrigins(c: Context, dashboardUrl: string): Set<string> {
  const origins = new Set<string>([new URL(c.req.url).origin]);
  try {
    origins.add(new URL(dashboardUrl).origin);
  } catch {
    // validated at start
  }
  return origins;
}

/** Why an unsafe request was refused, or null when its origin is the dashboard's. */
export function foreignOrigin(c: Context, dashboardUrl: string): string | null {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  const origin = c.req.header('origin');
  if (origin === undefined || origin === 'null') {
    // Browsers send Origin with every form post; a request without one did not come from a dashboard page.
    return 'The request has no Origin header, so it cannot be shown to come from a dashboard page. Submit the form from the dashboard itself.';
  }
  if (!allowedOrigins(c, dashboardUrl).has(origin)) {
    return `The form was sent from ${origin}, not from the dashboard. Open the dashboard at its own address and submit the form there.`;
  }
  return null;
}

/** Where to send a signed-out visitor: the sign-in page, coming back here after. */
export function signInAddress(c: Context): string {
  const here = new URL(c.req.url);
  return `${DASHBOARD_PATH}/login?next=${encodeURIComponent(here.pathname + here.search)}`;
}

/** A `next` address that stays in the dashboard (anything else goes to its home). */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith(`${DASHBOARD_PATH}`) || next.startsWith('//') || /[\\\r\n]/.test(next)) return DASHBOARD_PATH;
  const rest = next.slice(DASHBOARD_PATH.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? next : DASHBOARD_PATH;
}

/** Sets `session` for the routes, or sends a signed-out GET to sign in (anything else gets 401). */
export function requireSession(deps: { db: Db; clock: Clock }, onRefused: (c: Context) => Response | Promise<Response>) {
  return createMiddleware<DashboardEnv>(async (c, next) => {
    const principal = await sessionPrincipal(deps, sessionToken(c));
    if (!principal) {
      if (sessionToken(c) !== undefined) clearSessionCookie(c);
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.redirect(signInAddress(c), 303);
      return onRefused(c);
    }
    c.set('session', principal);
    await next();
  });
}
