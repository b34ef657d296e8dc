/**
 * What is scheduled, across every channel the account may use: the
 * articles in the state `scheduled`, soonest first, with their time (UTC)
 * (a paused schedule's reason is on the article's page). Read through the publishing API's own
 * `listChannels` and `listArticles`.
 * @module
 */
import type { Hono } from 'hono';
import { listArticles, type ArticleDeps } from '../../domain/article/article.service.ts';
import { listChannels, type ChannelDeps } from '../../domain/channel/channel.service.ts';
import { planFeatures } from '../../domain/account/plans.ts';
import { DASHBOARD_PATH, frame, html, when } from './dashboard-layout.ts';
import { pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** The most scheduled articles listed per channel. */
const PER_CHANNEL = 100;

/** Adds the list to the dashboard's app. */
export function scheduledListRoutes(app: Hono<DashboardEnv>, deps: ArticleDeps & ChannelDeps): void {
  app.get('/scheduled', async (c) => {
    const session = c.get('session');
    const channels = planFeatures(session.plan).apiPublishing ? await listChannels(deps, session) : [];
    const rows: Array<{ channel: string; id: number; title: string; at: string | null; languages: string[] }> = [];
    let cut = false;
    for (const channel of channels) {
      const page = await listArticles(deps, session, channel.slug, { status: 'scheduled', limit: PER_CHANNEL });
      cut ||= page.pagination.has_more;
      for (const p of page.pages) rows.push({ channel: channel.slug, id: p.id, title: p.title, at: p.scheduled_at, languages: p.languages });
    }
    rows.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '') || a.id - b.id);
    return pageAnswer(
      c,
      frame(
        { title: 'Scheduled', stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: session.administrator },
        html`<h1>Scheduled</h1>
${
  rows.length === 0
    ? html`<p>Nothing is scheduled. Schedule an article from its page, under "Publishing".</p>`
    : html`<div class="table-wrap" role="region" aria-labelledby="scheduled-caption" tabindex="0"><table>
<caption id="scheduled-caption" class="muted">Soonest first, in UTC${cut ? html`; the first ${PER_CHANNEL} of each channel` : ''}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Article</th><th scope="col">Channel</th><th scope="col">Languages</th></tr></thead>
<tbody>
${rows.map((r) => html`<tr><td>${when(r.at)}</td><td dir="auto"><a href="${DASHBOARD_PATH}/channels/${encodeURIComponent(r.channel)}/pages/${r.id}">${r.title}</a></td><td>${r.channel}</td><td>${r.languages.join(', ')}</td></tr>`)}
</tbody></table></div>`
}`,
      ),
    );
  });
}
