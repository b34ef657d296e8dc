/**
 * What is scheduled, across every channel the account may use: the
 * articles in the state `scheduled`, soonest first, with their time (UTC)
 * and whether the schedule is paused; and the same as a month calendar
 * (`/scheduled/calendar?month=2026-12`, UTC, Monday first). Read through the
 * publishing API's own `listChannels` and `listArticles`.
 * @module
 */
import type { Hono } from 'hono';
import { listArticles, type ArticleDeps } from '../../domain/article/article.service.ts';
import { listChannels, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { planFeatures } from '../../domain/account/plans.ts';
import type { Principal } from '../../domain/account/account.service.ts';
import { DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { pageAnswer, problemPage, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';
import { pauseReason } from './article-states.ts';
import { addMonths, monthKey, monthName, monthOf, monthWeeks, parseMonth, WEEKDAYS, type Month } from './month-calendar.ts';

/** The most scheduled articles read per channel (ten pages of the API's list). */
const PER_CHANNEL = 1000;
const PAGE = 100;

/** One scheduled article. */
interface ScheduledRow {
  readonly channel: string;
  readonly id: number;
  readonly title: string;
  readonly at: string | null;
  readonly languages: string[];
  readonly paused: string | null;
}

/** Every scheduled article of the account's channels (up to {@link PER_CHANNEL} each), soonest first. */
async function scheduledRows(deps: ArticleDeps & ChannelDeps, session: Principal): Promise<{ rows: ScheduledRow[]; cut: boolean }> {
  const channels = planFeatures(session.plan).apiPublishing ? await listChannels(deps, session) : [];
  const rows: ScheduledRow[] = [];
  let cut = false;
  for (const channel of channels) {
    let cursor: string | undefined;
    for (let read = 0; read < PER_CHANNEL; read += PAGE) {
      const page = await listArticles(deps, session, channel.slug, { status: 'scheduled', limit: PAGE, ...(cursor ? { cursor } : {}) });
      for (const p of page.pages) {
        rows.push({ channel: channel.slug, id: p.id, title: p.title, at: p.scheduled_at, languages: p.languages, paused: p.scheduled_paused ? pauseReason(p.scheduled_pause_reason) : null });
      }
      cursor = page.pagination.next_cursor ?? undefined;
      if (!cursor) break;
    }
    cut ||= cursor !== undefined;
  }
  rows.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '') || a.id - b.id);
  return { rows, cut };
}

const articleLink = (r: ScheduledRow) => html`<a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(r.channel)}/pages/${r.id}" dir="auto">${r.title}</a>`;
const pausedNote = (r: ScheduledRow) => (r.paused ? html` <strong>(paused: ${r.paused})</strong>` : '');
const cutNote = (cut: boolean) => (cut ? html`<p class="muted">Only the first ${PER_CHANNEL} scheduled articles of each channel are shown.</p>` : '');

/** The two views' links, the current one marked. */
function views(current: 'list' | 'calendar'): Markup {
  const link = (view: 'list' | 'calendar', href: string, label: string) => html`<li><a href="${href}"${view === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Views of the schedule"><ul class="filters">${link('list', `${DASHBOARD_PATH}/scheduled`, 'List')}${link('calendar', `${DASHBOARD_PATH}/scheduled/calendar`, 'Month calendar')}</ul></nav>`;
}

/** The month's calendar: a table, a week a row, each day with what is scheduled on it. */
function calendar(month: Month, rows: readonly ScheduledRow[], today: string): Markup {
  const byDay = new Map<string, ScheduledRow[]>();
  for (const r of rows) if (r.at) byDay.set(r.at.slice(0, 10), [...(byDay.get(r.at.slice(0, 10)) ?? []), r]);
  const inMonth = rows.filter((r) => r.at?.startsWith(monthKey(month))).length;
  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  const monthLink = (m: Month | null, label: string, rel: string) =>
    m ? html`<li><a href="${DASHBOARD_PATH}/scheduled/calendar?month=${monthKey(m)}" rel="${rel}">${label} ${monthName(m)}</a></li>` : '';
  return html`<nav aria-label="Months"><ul class="filters">${monthLink(previous, 'Previous:', 'prev')}${monthLink(next, 'Next:', 'next')}</ul></nav>
<div class="table-wrap" role="region" aria-labelledby="calendar-caption" tabindex="0"><table class="calendar">
<caption id="calendar-caption">${monthName(month)}, in UTC: ${inMonth === 0 ? 'nothing scheduled' : `${inMonth} scheduled article${inMonth === 1 ? '' : 's'}`}</caption>
<thead><tr>${WEEKDAYS.map((d) => html`<th scope="col"><abbr title="${d.name}">${d.short}</abbr></th>`)}</tr></thead>
<tbody>
${monthWeeks(month).map(
  (week) =>
    html`<tr>${week.map((day) => {
      if (day === null) return html`<td class="outside"></td>`;
      const scheduled = byDay.get(day) ?? [];
      return html`<td${day === today ? html` aria-current="date"` : ''}><span class="day">${Number(day.slice(8))}</span>${
        scheduled.length > 0
          ? html`<ul class="entries">${scheduled.map((r) => html`<li><time datetime="${r.at}">${r.at!.slice(11, 16)}</time> ${articleLink(r)}${pausedNote(r)} <span class="muted">${r.channel}</span></li>`)}</ul><a class="count" href="#day-${day}">${scheduled.length === 1 ? '1 article' : `${scheduled.length} articles`}</a>`
          : ''
      }</td>`;
    })}</tr>`,
)}
</tbody></table></div>
${dayByDay(month, byDay)}`;
}

/** The month's days that have something scheduled, each with its articles: the calendar's content as a list (what a phone shows best). */
function dayByDay(month: Month, byDay: ReadonlyMap<string, readonly ScheduledRow[]>): Markup {
  const days = monthWeeks(month)
    .flat()
    .filter((day): day is string => day !== null && byDay.has(day));
  if (days.length === 0) return html``;
  return html`<h2>Day by day</h2>
${days.map((day) => {
  const date = new Date(`${day}T00:00:00Z`);
  const label = `${WEEKDAYS[(date.getUTCDay() + 6) % 7]!.name} ${date.getUTCDate()} ${monthName(month)}`;
  return html`<h3 id="day-${day}">${label}</h3>
<ul class="day-list">${byDay.get(day)!.map((r) => html`<li><time datetime="${r.at}">${r.at!.slice(11, 16)} UTC</time> ${articleLink(r)}${pausedNote(r)} <span class="muted">${r.channel}</span></li>`)}</ul>`;
})}`;
}

/** Adds the list and the calendar to the dashboard's app. */
export function scheduledListRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps & ChannelDeps): void {
  app.get('/scheduled', async (c) => {
    const session = c.get('session');
    const { rows, cut } = await scheduledRows(deps, session);
    return pageAnswer(
      c,
      frame(
        { title: 'Scheduled', stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator },
        html`<h1>Scheduled</h1>
${views('list')}
${
  rows.length === 0
    ? html`<p>Nothing is scheduled. Schedule an article from its page, under "Publishing".</p>`
    : html`<div class="table-wrap" role="region" aria-labelledby="scheduled-caption" tabindex="0"><table>
<caption id="scheduled-caption" class="muted">Soonest first, in UTC</caption>
<thead><tr><th scope="col">When</th><th scope="col">Article</th><th scope="col">Channel</th><th scope="col">Languages</th></tr></thead>
<tbody>
${rows.map((r) => html`<tr><td>${when(r.at)}${pausedNote(r)}</td><td>${articleLink(r)}</td><td>${r.channel}</td><td>${r.languages.join(', ')}</td></tr>`)}
</tbody></table></div>`
}
${cutNote(cut)}`,
      ),
    );
  });

  app.get('/scheduled/calendar', async (c) => {
    const session = c.get('session');
    const asked = c.req.query('month');
    const month = asked === undefined || asked === '' ? monthOf(deps.clock.now()) : parseMonth(asked);
    if (!month) {
      return pageAnswer(c, problemPage('No such month', `"${asked}" is not a month. Give it as year and month, such as ${monthKey(monthOf(deps.clock.now()))}.`, session.accountName), 422);
    }
    const { rows, cut } = await scheduledRows(deps, session);
    return pageAnswer(
      c,
      frame(
        { title: `Scheduled in ${monthName(month)}`, stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator },
        html`<h1>Scheduled in ${monthName(month)}</h1>
${views('calendar')}
<p class="muted">Days and times are in UTC; weeks start on Monday. A paused schedule will not publish until it gets a new time or is published by hand.</p>
${calendar(month, rows, deps.clock.now().toISOString().slice(0, 10))}
${cutNote(cut)}`,
      ),
    );
  });
}
