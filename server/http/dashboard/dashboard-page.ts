/**
 * What every dashboard screen shares: the style sheet's address, answering
 * a page with the dashboard's headers, reading form fields, and the error
 * pages.
 * @module
 */
import fs from 'node:fs';
import type { Context } from 'hono';
import { dashboardAsset } from './dashboard-assets.ts';
import { dashboardHeaders, DASHBOARD_PATH, frame, html, type Markup } from './dashboard-layout.ts';

/** The style sheet, as served. */
export const STYLESHEET = fs.readFileSync(new URL('./dashboard.css', import.meta.url), 'utf8');
/** Its address: the content hash in the name, so it is cached for good. */
export const STYLESHEET_HREF = dashboardAsset('dashboard', 'css', STYLESHEET);

/** The script of the article screen's live states (the dashboard's only script). */
export const LIVE_SCRIPT = fs.readFileSync(new URL('./dashboard-live.js', import.meta.url), 'utf8');
/** Its address, by content hash like the style sheet's. */
export const LIVE_SCRIPT_HREF = dashboardAsset('live', 'js', LIVE_SCRIPT);

/** A page answer with the dashboard's headers. */
export function pageAnswer(c: Context, markup: Markup, status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 = 200): Response | Promise<Response> {
  dashboardHeaders(c);
  return c.html(markup, status);
}

/** A form field as text ('' when absent or a file). */
export function field(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** An error page in the dashboard's frame. */
export function problemPage(title: string, message: string, accountName?: string): Markup {
  return frame({ title, stylesheet: STYLESHEET_HREF, accountName }, html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p><a href="${DASHBOARD_PATH}">Back to your channels</a></p>`);
}

/** The 404 page: the same for what does not exist and what the account may not see. */
export function notFoundPage(c: Context, accountName?: string): Response | Promise<Response> {
  return pageAnswer(
    c,
    problemPage('Not found', 'Nothing here is yours to open: the address is wrong, or the channel or article belongs to an account you are not signed in as. Check the address, or sign in with another account.', accountName),
    404,
  );
}
