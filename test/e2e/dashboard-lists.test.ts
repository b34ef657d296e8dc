/**
 * The dashboard's lists over real HTTP (issue 37): a channel's articles
 * filtered by every state the publishing API reports and searched by title
 * and slug (the same filters on GET …/pages), paged; "New channel" through
 * the API's own createChannel; the schedule's month calendar. Articles are
 * brought into each state through the API, with the moderation rules of
 * docs/moderation.example.json ("casino bonus" blocks, "lawsuit" waits for
 * a person) and a plan that loses scheduling for the paused one.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseSchedulesIfPlanDisallows } from '../../server/domain/article/schedule.service.ts';
import { ARTICLE_LIST_STATES, type ArticleListState } from '../../server/domain/article/article-status.ts';
import { findAccountByName, updateAccount } from '../../server/store/account.repository.ts';
import { accountWithPassword, signInForVisits } from '../helpers/dashboard-http.ts';
import { createOpenApiValidator } from '../helpers/openapi-validator.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

/** The publishing API's document: the list's answers, filtered, must match it. */
const openapi = createOpenApiValidator(path.resolve('docs/openapi/publishing-api.yaml'));
const LIST = '/channels/{channel_slug}/pages';

const PLAIN = 'Plain words about gardens.';
let t: TestService;
let anaKey: string;

/** Signs in and returns a request function carrying the session (and the dashboard's Origin on posts). */
const signedIn = (account: string) => signInForVisits(t, account);

const api = (method: string, urlPath: string, body?: unknown) => t.request(method, `/api/v1/channels/ana-news${urlPath}`, { key: anaKey, body });
async function ok(res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  expect(r.status, r.text).toBeLessThan(300);
}
const en = (title: string, text = PLAIN) => ({ language: 'en', title, content_markdown: text });
const write = (slug: string, body: object) => ok(api('POST', '/pages', { slug, default_language: 'en', ...body }));
const HOUR = 3_600_000;
const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();

/** The slugs of the articles a dashboard list page links to, in order. */
function listedSlugs(text: string): string[] {
  return [...text.matchAll(/<a href="\/dashboard\/channels\/ana-news\/pages\/\d+" dir="auto">[^<]*<\/a> <span class="muted">([^<]+)<\/span>/g)].map((m) => m[1]!);
}

/** Each state's articles, as the task builds them. */
const EXPECTED: Record<ArticleListState, string[]> = {
  // A first publication refused by moderation leaves the article a draft.
  draft: ['ar-draft', 'blocked', 'draft-pct'],
  scheduled: ['sched'],
  paused: ['paused'],
  moderation_pending: ['rev-auto', 'waiting'],
  manual_review: ['rev-x9', 'manual'],
  blocked: ['blocked'],
  published: ['rev-auto', 'rev-x9', 'pub'],
  pending_revision: ['rev-auto', 'rev-x9'],
  archived: ['archived'],
};

/** Whether an article, as the publishing API reports it, is in a state: the filters must agree with this. */
function inState(view: any, state: ArticleListState): boolean {
  const moderation = (m: string) => view.translations.some((tr: any) => tr.moderation === m);
  switch (state) {
    case 'draft':
    case 'published':
    case 'archived':
      return view.status === state;
    case 'scheduled':
      return view.status === 'scheduled' && !view.scheduled_paused;
    case 'paused':
      return view.status === 'scheduled' && view.scheduled_paused;
    case 'moderation_pending':
      return moderation('pending');
    case 'manual_review':
      return moderation('manual_review');
    case 'blocked':
      return moderation('blocked');
    case 'pending_revision':
      return view.translations.some((tr: any) => tr.pending_revision !== null);
  }
}

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_MODERATION_FILE: path.resolve('docs/moderation.example.json') });
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  const benKey = await accountWithPassword(t, 'ben', 'pro');
  await accountWithPassword(t, 'fay', 'free');
  await ok(t.request('POST', '/api/v1/channels', { key: anaKey, body: { default_language: 'en', translations: [{ language: 'en', title: 'Ana news' }] } }));
  await ok(t.request('POST', '/api/v1/channels', { key: benKey, body: { default_language: 'en', translations: [{ language: 'en', title: 'Ben news' }] } }));
  await ok(t.request('POST', '/api/v1/channels/ben-news/pages', { key: benKey, body: { slug: 'bens', default_language: 'en', status: 'draft', translations: [en('Draft of Ben')] } }));

  // Paused first: the plan loses scheduling, then comes back (the pause stays).
  await write('paused', { status: 'scheduled', scheduled_at: at(30), translations: [en('A held story')] });
  await t.service.worker.runDue();
  const ana = (await findAccountByName(t.service.db, 'ana'))!;
  await updateAccount(t.service.db, ana.id, { plan: 'free' });
  expect(await pauseSchedulesIfPlanDisallows(t.service.db, t.clock, ana.id)).toBe(1);
  await updateAccount(t.service.db, ana.id, { plan: 'pro' });

  await write('draft-pct', { status: 'draft', translations: [en('Draft 100% _pure_ notes')] });
  await write('ar-draft', { status: 'draft', translations: [en('Valley notes'), { language: 'ar', title: 'أخبار الوادي الجديدة', content_markdown: 'نص.' }] });
  await write('pub', { status: 'published', translations: [en('Published plainly'), { language: 'fr', title: 'ÉTÉ À Paris', content_markdown: 'Texte.' }] });
  await write('sched', { status: 'scheduled', scheduled_at: at(46), translations: [en('Coming on Tuesday')] });
  await write('blocked', { status: 'published', translations: [en('Offer', 'Win a casino bonus today.')] });
  await write('manual', { status: 'published', translations: [en('Court notes', 'Notes on the lawsuit.')] });
  await write('rev-x9', { status: 'published', translations: [en('Changed later')] });
  await write('rev-auto', { status: 'published', translations: [en('Changed at the end')] });
  await write('archived', { status: 'published', translations: [en('Old story')] });
  await t.service.worker.runDue();
  await ok(api('PATCH', '/pages/archived/status', { status: 'archived' }));
  await ok(api('PUT', '/pages/rev-x9/translations/en', { title: 'Changed later', content_markdown: 'Now about the lawsuit.' }));
  await t.service.worker.runDue();
  // After the last run: what still waits for the automatic check.
  await write('waiting', { status: 'published', translations: [en('Just sent')] });
  await ok(api('PUT', '/pages/rev-auto/translations/en', { title: 'Changed at the end', content_markdown: 'New plain words.' }));
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe("a channel's articles by state", () => {
  it('each state filter lists exactly the articles the publishing API reports in that state', async () => {
    const all = (await api('GET', '/pages?limit=100')).json.pages as Array<{ slug: string }>;
    expect(all).toHaveLength(11);
    const views = await Promise.all(all.map(async (p) => (await api('GET', `/pages/${p.slug}`)).json));
    const ana = await signedIn('ana');
    for (const state of ARTICLE_LIST_STATES) {
      const reported = views.filter((v) => inState(v, state)).map((v) => v.slug).sort();
      expect(reported, `the API's ${state}`).toEqual([...EXPECTED[state]].sort());
      const page = await ana(`/dashboard/channels/ana-news?state=${state}`);
      expect(page.status).toBe(200);
      expect(listedSlugs(page.text).sort(), `the dashboard's ${state}`).toEqual(reported);
      expect(page.text).toMatch(new RegExp(`<a href="/dashboard/channels/ana-news\\?state=${state}" aria-current="page">`));
      // The publishing API has the same filter.
      const listed = await api('GET', `/pages?state=${state}`);
      expect(listed.status).toBe(200);
      openapi.assertResponse('GET', LIST, listed.status, listed.json);
      expect(listed.json.pages.map((p: { slug: string }) => p.slug).sort(), `GET …/pages?state=${state}`).toEqual(reported);
    }
    expect(listedSlugs((await ana('/dashboard/channels/ana-news')).text)).toHaveLength(11);
  });

  it('says each row’s states in words: paused and why, what waits and for whom', async () => {
    const ana = await signedIn('ana');
    const row = (text: string, slug: string) => new RegExp(`<span class="muted">${slug}</span></td><td><ul class="states">(.*?)</ul>`).exec(text)?.[1];
    const text = (await ana('/dashboard/channels/ana-news')).text;
    expect(row(text, 'paused')).toMatch(/<li>scheduled for \d{4}-\d\d-\d\d \d\d:\d\d UTC \(paused: the plan lost scheduling; give it a new time or publish it by hand\)<\/li>/);
    expect(row(text, 'sched')).toBe('<li>scheduled for 2026-11-24 10:00 UTC</li>');
    expect(row(text, 'rev-auto')).toBe('<li>published</li><li>published, revision waiting for moderation (en)</li>');
    expect(row(text, 'rev-x9')).toBe('<li>published</li><li>published, revision waiting for a person (manual review) (en)</li>');
    expect(row(text, 'manual')).toBe('<li>in moderation</li><li>waiting for a person (manual review) (en)</li>');
    expect(row(text, 'waiting')).toBe('<li>in moderation</li><li>waiting for the automatic moderation (en)</li>');
    expect(row(text, 'blocked')).toContain('<li>blocked by moderation (en)</li>');
    expect(row(text, 'ar-draft')).toBe('<li>draft</li>');
  });

  it('searches titles in any language and slugs, case-insensitively, with % and _ taken as typed', async () => {
    const ana = await signedIn('ana');
    const search = async (q: string, state?: string) => {
      const page = await ana(`/dashboard/channels/ana-news?${new URLSearchParams({ q, ...(state ? { state } : {}) })}`);
      expect(page.status).toBe(200);
      return listedSlugs(page.text).sort();
    };
    expect(await search('VALLEY')).toEqual(['ar-draft']);
    expect(await search('الوادي')).toEqual(['ar-draft']);
    // A secondary translation's title, folded beyond ASCII.
    expect(await search('été à paris')).toEqual(['pub']);
    expect(await search('x9')).toEqual(['rev-x9']);
    expect(await search('100%')).toEqual(['draft-pct']);
    expect(await search('%')).toEqual(['draft-pct']);
    expect(await search('_')).toEqual(['draft-pct']);
    expect(await search('Changed')).toEqual(['rev-auto', 'rev-x9']);
    expect(await search('changed', 'manual_review')).toEqual(['rev-x9']);
    const none = await ana('/dashboard/channels/ana-news?q=%3Cnothing%3E&state=draft');
    expect(none.text).toContain('No articles in the state “draft” whose title or slug contains “&lt;nothing&gt;”.');
    // The search box keeps the text and the state; "all" keeps the search.
    expect(none.text).toContain('<input type="hidden" name="state" value="draft">');
    expect(none.text).toContain('value="&lt;nothing&gt;"');
    expect(none.text).toContain('<a href="/dashboard/channels/ana-news?q=%3Cnothing%3E">all</a>');
    expect((await ana('/dashboard/channels/ana-news?q=%20%20')).text).toContain('<span class="muted">pub</span>');
    expect((await ana(`/dashboard/channels/ana-news?q=${'x'.repeat(201)}`)).status).toBe(422);
    expect((await ana('/dashboard/channels/ana-news?state=bogus')).status).toBe(422);
    // The API's search is the same.
    const listed = await api('GET', `/pages?q=${encodeURIComponent('ÉTÉ')}`);
    expect(listed.json.pages.map((p: { slug: string }) => p.slug)).toEqual(['pub']);
  });

  it('answers another account’s channel with the 404 page, filtered or searched', async () => {
    const ana = await signedIn('ana');
    for (const query of ['', '?state=draft', '?q=Ben']) {
      const page = await ana(`/dashboard/channels/ben-news${query}`);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('Draft of Ben');
    }
  });

  it('pages the API’s way: a cursor per filter, refused with another', async () => {
    const first = await api('GET', '/pages?state=published&limit=2');
    expect(first.json.pages.map((p: { slug: string }) => p.slug)).toEqual(['rev-auto', 'rev-x9']);
    expect(first.json.pagination.has_more).toBe(true);
    const cursor = encodeURIComponent(first.json.pagination.next_cursor);
    const second = await api('GET', `/pages?state=published&limit=2&cursor=${cursor}`);
    expect(second.json.pages.map((p: { slug: string }) => p.slug)).toEqual(['pub']);
    expect(second.json.pagination).toMatchObject({ has_more: false, next_cursor: null });
    openapi.assertResponse('GET', LIST, 200, second.json);
    const otherFilter = await api('GET', `/pages?state=draft&limit=2&cursor=${cursor}`);
    expect(otherFilter.status).toBe(422);
    openapi.assertResponse('GET', LIST, 422, otherFilter.json);
    expect(otherFilter.json.error.details.fields).toHaveProperty('cursor');
    const unknown = await api('GET', '/pages?state=someday');
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.details.fields).toHaveProperty('state');
    expect((await api('GET', `/pages?state=published&q=x&limit=2&cursor=${cursor}`)).status).toBe(422);
    const item = first.json.pages[0];
    expect(item).toMatchObject({ scheduled_paused: false, scheduled_pause_reason: null });
    const paused = (await api('GET', '/pages?state=paused')).json.pages[0];
    expect(paused).toMatchObject({ slug: 'paused', scheduled_paused: true, scheduled_pause_reason: 'account_plan' });
  });

  it('shows 100 at a time, with a link to the next hundred and back to the first', async () => {
    for (let i = 0; i < 101; i += 1) await write(`many-${i}`, { status: 'draft', translations: [en(`Many ${i}`)] });
    const ana = await signedIn('ana');
    const first = await ana('/dashboard/channels/ana-news?state=draft&q=many');
    expect(listedSlugs(first.text)).toHaveLength(100);
    expect(first.text).toContain('newest first, the first 100');
    const next = /<a href="([^"]+)" rel="next">Next 100 \(older\)<\/a>/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toMatch(/^\/dashboard\/channels\/ana-news\?state=draft&q=many&cursor=/);
    const second = await ana(next!);
    expect(listedSlugs(second.text)).toEqual(['many-0']);
    expect(second.text).not.toContain('rel="next"');
    expect(second.text).toContain('<a href="/dashboard/channels/ana-news?state=draft&amp;q=many">First page</a>');
  }, 60_000);
});

describe('a new channel', () => {
  it('is created through the API’s own createChannel and opens its page', async () => {
    const ana = await signedIn('ana');
    const home = await ana('/dashboard');
    expect(home.text).toContain('Your plan (Pro) lets you own 50 channels; you own 1.');
    const created = await ana('/dashboard/channels', { title: 'Garden diary', slug: '', default_language: 'en', description: 'What grows <here>.' });
    expect(created.status).toBe(303);
    expect(created.location).toBe('/dashboard/channels/garden-diary?created');
    const page = await ana(created.location!);
    expect(page.text).toContain('The channel garden-diary is created.');
    const stored = await t.request('GET', '/api/v1/channels/garden-diary', { key: anaKey });
    expect(stored.json).toMatchObject({ slug: 'garden-diary', default_language: 'en', translations: [{ language: 'en', title: 'Garden diary', description: 'What grows <here>.' }] });
    // A slug of one's own, in a right-to-left default language.
    const arabic = await ana('/dashboard/channels', { title: 'أخبار', slug: 'akhbar', default_language: 'ar', description: '' });
    expect(arabic.location).toBe('/dashboard/channels/akhbar?created');
    expect((await t.request('GET', '/api/v1/channels/akhbar', { key: anaKey })).json).toMatchObject({ default_language: 'ar', translations: [{ language: 'ar', title: 'أخبار', description: null }] });
  });

  it('is refused with each wrong field named beside it, keeping what was typed, creating nothing', async () => {
    const ana = await signedIn('ana');
    const count = async () => (await t.request('GET', '/api/v1/channels', { key: anaKey })).json.channels.length;
    const before = await count();
    const taken = await ana('/dashboard/channels', { title: 'Another <news>', slug: 'ana-news', default_language: 'en', description: '' });
    expect(taken.status).toBe(422);
    expect(taken.text).toContain('No channel was created.');
    expect(taken.text).toMatch(/id="channel-slug" name="slug" maxlength="100" value="ana-news" aria-invalid="true" aria-describedby="channel-slug-problem"/);
    expect(taken.text).toContain('<span class="field-problem" id="channel-slug-problem">The slug &quot;ana-news&quot; is already taken');
    expect(taken.text).toContain('value="Another &lt;news&gt;"');
    const bad = await ana('/dashboard/channels', { title: '  ', slug: 'Not A Slug', default_language: 'not a language!', description: 'x'.repeat(2001) });
    expect(bad.status).toBe(422);
    for (const name of ['title', 'slug', 'default_language', 'description']) expect(bad.text, name).toContain(`id="channel-${name}-problem"`);
    expect(await count()).toBe(before);
  });

  it('explains the plan’s channel limit, and refuses one past it', async () => {
    const fay = await signedIn('fay');
    expect((await fay('/dashboard')).text).toContain('Your plan (Free) lets you own 3 channels; you own 0.');
    for (const title of ['One', 'Two', 'Three']) expect((await fay('/dashboard/channels', { title, default_language: 'en' })).status).toBe(303);
    const full = await fay('/dashboard');
    expect(full.text).toContain('Your plan (Free) lets you own 3 channels; you own 3. That is the most it allows');
    expect(full.text).not.toContain('Create the channel');
    const refused = await fay('/dashboard/channels', { title: 'Four', default_language: 'en' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('No channel was created. The account already owns 3 channels, the most its &quot;free&quot; plan allows (3).');
    expect((await t.request('GET', '/api/v1/channels', { key: await t.key('fay', 'free') })).json.channels).toHaveLength(3);
  });
});

describe('the schedule', () => {
  it('shows a month calendar in UTC with each scheduled article on its day', async () => {
    const ana = await signedIn('ana');
    const november = await ana('/dashboard/scheduled/calendar');
    expect(november.status).toBe(200);
    expect(november.text).toContain('<caption id="calendar-caption">November 2026, in UTC: 2 scheduled articles</caption>');
    expect(november.text).toContain('<th scope="col"><abbr title="Monday">Mon</abbr></th>');
    const sched = (await api('GET', '/pages/sched')).json;
    const day24 = /<td><span class="day">24<\/span>(.*?)<\/td>/.exec(november.text)?.[1];
    expect(day24).toContain(`<a href="/dashboard/channels/ana-news/pages/${sched.id}" dir="auto">Coming on Tuesday</a>`);
    expect(day24).toContain('<time datetime="2026-11-24T10:00:00.000Z">10:00</time>');
    // The held one on its day, marked paused; today marked.
    expect(november.text).toMatch(/<td><span class="day">23<\/span><ul class="entries"><li><time[^>]*>18:00<\/time> <a [^>]*>A held story<\/a> <strong>\(paused: the plan lost scheduling\)<\/strong>/);
    // Day by day below it, each day linked from its cell (what a phone shows instead of the cells' lists).
    expect(day24).toContain('<a class="count" href="#day-2026-11-24">1 article</a>');
    expect(november.text).toMatch(/<h3 id="day-2026-11-24">Tuesday 24 November 2026<\/h3>\n<ul class="day-list"><li><time datetime="2026-11-24T10:00:00.000Z">10:00 UTC<\/time> <a [^>]*>Coming on Tuesday<\/a>/);
    expect(november.text).toContain('<td aria-current="date"><span class="day">22</span>');
    expect(november.text).toContain('href="/dashboard/scheduled/calendar?month=2026-12" rel="next">Next: December 2026</a>');
    const december = await ana('/dashboard/scheduled/calendar?month=2026-12');
    expect(december.text).toContain('December 2026, in UTC: nothing scheduled');
    expect(december.text).toContain('href="/dashboard/scheduled/calendar?month=2026-11" rel="prev">Previous: November 2026</a>');
    const bad = await ana('/dashboard/scheduled/calendar?month=2026-13');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('is not a month');
    // The list says the same, the pause too; the other account sees none of it.
    const list = await ana('/dashboard/scheduled');
    expect(list.text).toContain('Coming on Tuesday');
    expect(list.text).toContain('(paused: the plan lost scheduling)');
    const ben = await signedIn('ben');
    expect((await ben('/dashboard/scheduled/calendar')).text).toContain('November 2026, in UTC: nothing scheduled');
  });
});
