/**
 * The moderation queue of the dashboard, for administrators
 * (`admin account admin`): every translation waiting for a person, with the
 * reason the rules gave, to approve or block with a note through the same
 * `decideManualReview` as `admin moderation approve|block`. The decision is
 * kept with the revision (its reason and time) and logged with who made it.
 * Anyone else gets the dashboard's 404.
 * @module
 */
import type { Context, Hono } from 'hono';
import type { Clock } from '../../clock.ts';
import { decideManualReview, listManualReviews } from '../../domain/article/moderation.service.ts';
import { PressroomError } from '../../domain/errors.ts';
import type { Db } from '../../store/database.ts';
import type { Logger } from '../../logger.ts';
import { DASHBOARD_PATH, frame, html, type Markup, when } from './dashboard-layout.ts';
import { field, notFoundPage, pageAnswer, STYLESHEET_HREF } from './dashboard-page.ts';
import type { DashboardEnv } from './dashboard-session.ts';

/** The longest note kept with a block. */
const NOTE_MAX = 500;

async function queuePage(c: Context<DashboardEnv>, deps: { db: Db }, options: { notice?: string; error?: string } = {}): Promise<Markup> {
  const session = c.get('session');
  const items = await listManualReviews(deps.db);
  return frame(
    { title: 'Moderation', stylesheet: STYLESHEET_HREF, accountName: session.accountName, administrator: true, notice: options.notice },
    html`<h1>Moderation</h1>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${
  items.length === 0
    ? html`<p>Nothing waits for a person. Translations the rules send to manual review appear here.</p>`
    : html`<p>${items.length === 1 ? 'One translation waits' : `${items.length} translations wait`} for a person, oldest first. Approving publishes it as its article asked; blocking keeps it off the site, with your note as the reason its editors see.</p>
<ol class="queue">
${items.map(
  (i, n) => html`<li>
<h2 id="item-${n}"><span lang="${i.language}" dir="auto">${i.title}</span></h2>
<dl>
<dt>Where</dt><dd>${i.channel} / ${i.article} (${i.language})</dd>
<dt>Why it waits</dt><dd>${i.reason ?? 'the account is set to have every publication reviewed'}</dd>
<dt>Submitted</dt><dd>${when(i.submittedAt)}</dd>
</dl>
<form method="post" action="${DASHBOARD_PATH}/moderation/decide" class="stack wide" aria-labelledby="item-${n}">
<input type="hidden" name="channel" value="${i.channel}">
<input type="hidden" name="article" value="${i.article}">
<input type="hidden" name="language" value="${i.language}">
<label for="note-${n}">Note (kept with a block) <input type="text" id="note-${n}" name="note" maxlength="${NOTE_MAX}"></label>
<div class="actions"><button type="submit" name="outcome" value="pass">Approve</button> <button type="submit" name="outcome" value="block" class="quiet">Block</button></div>
</form>
</li>`,
)}
</ol>`
}`,
  );
}

/** Adds the queue to the dashboard's app. */
export function moderationQueueRoutes(app: Hono<DashboardEnv>, deps: { db: Db; clock: Clock; log?: Logger }): void {
  const log = deps.log?.child('dashboard');

  app.get('/moderation', async (c) => {
    if (!c.get('session').administrator) return notFoundPage(c, c.get('session').accountName);
    return pageAnswer(c, await queuePage(c, deps));
  });

  app.post('/moderation/decide', async (c) => {
    const session = c.get('session');
    if (!session.administrator) return notFoundPage(c, session.accountName);
    const form = await c.req.parseBody();
    const target = { channel: field(form, 'channel'), article: field(form, 'article'), language: field(form, 'language') };
    const outcome = field(form, 'outcome');
    const note = field(form, 'note').trim().slice(0, NOTE_MAX);
    if (outcome !== 'pass' && outcome !== 'block') {
      return pageAnswer(c, await queuePage(c, deps, { error: 'Choose Approve or Block.' }), 422);
    }
    try {
      const result = await decideManualReview(deps, target, outcome, note || undefined);
      log?.info('moderation decided', { by: session.accountName, ...target, outcome: result, note: note || null });
      const what = `${target.channel}/${target.article} (${target.language})`;
      return pageAnswer(c, await queuePage(c, deps, { notice: result === 'passed' ? `Approved ${what}: it is published in a moment.` : result === 'blocked' ? `Blocked ${what}.` : `Nothing changed for ${what}.` }));
    } catch (error) {
      if (!PressroomError.is(error) || error.code !== 'NOT_FOUND') throw error;
      return pageAnswer(c, await queuePage(c, deps, { error: `Nothing waits for review in ${target.channel}/${target.article} (${target.language}) any more: someone decided it already, or it was changed. The queue below is as it is now.` }), 409);
    }
  });
}
