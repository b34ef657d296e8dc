/**
 * The dashboard's page frame and its security headers. Pages are rendered
 * on the server with Hono's `html` template (every interpolated value is
 * escaped) and work without script; the scripts that enhance them (live
 * states, the source editor and autosave, the image upload) are files of the
 * dashboard's own, and the CSP allows no other, so an injected `<script>` or
 * inline handler never runs.
 * @module
 */
import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { DASHBOARD_PATH } from '../../urls/public-urls.ts';

export { DASHBOARD_PATH };

/** The style sheet's address: its content hash in the name, so it can be cached for good. */
export type StylesheetHref = string;

/** Markup: what `html` makes. */
export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * The dashboard's CSP: its own style sheet, images and script files (no inline script, no handler
 * attributes), its own event streams, forms only to itself, never framed.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Sets the headers every dashboard answer carries: the CSP, no caching (pages are per person), no framing. */
export function dashboardHeaders(c: Context): void {
  c.header('Content-Security-Policy', DASHBOARD_CSP);
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  c.header('X-Frame-Options', 'DENY');
}

/** Who is signed in, as the header shows it (a session principal is one). */
export interface Viewer {
  readonly accountName: string;
  readonly administrator: boolean;
}

/** What the frame shows around a page's content. */
export interface FrameOptions {
  readonly title: string;
  readonly stylesheet: StylesheetHref;
  /** The signed-in account, for the header (absent on the sign-in page). */
  readonly accountName?: string;
  /** Whether it decides moderation: the header links to the queue. */
  readonly administrator?: boolean;
  /** A line at the top saying what just happened ("Key revoked."). */
  readonly notice?: string;
  /** The addresses of the scripts the page runs (deferred, in order), if any: the dashboard's own assets. */
  readonly scripts?: readonly (string | undefined)[];
}

/** A whole page. */
export function frame(options: FrameOptions, content: Markup): Markup {
  return html`<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${options.title} · Pressroom dashboard</title>
<link rel="stylesheet" href="${options.stylesheet}">
${(options.scripts ?? []).filter((s) => s !== undefined).map((s) => html`<script src="${s}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
<a class="brand" href="${DASHBOARD_PATH}">Pressroom</a>
${
  options.accountName === undefined
    ? ''
    : html`<nav aria-label="Dashboard">
<ul>
<li><a href="${DASHBOARD_PATH}">Channels</a></li>
<li><a href="${DASHBOARD_PATH}/scheduled">Scheduled</a></li>
<li><a href="${DASHBOARD_PATH}/account">Account</a></li>
${options.administrator ? html`<li><a href="${DASHBOARD_PATH}/moderation">Moderation</a></li>` : ''}
</ul>
</nav>
<form method="post" action="${DASHBOARD_PATH}/logout" class="signout"><span class="who">${options.accountName}</span> <button type="submit">Sign out</button></form>`
}
</header>
<main id="main">
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${content}
</main>
</body>
</html>`;
}

/** Text for times: "2026-12-04 10:20 UTC", or a dash. */
export function when(iso: string | null): Markup {
  if (!iso) return html`<span aria-label="never">–</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A yes/no cell. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

export { html, raw };
