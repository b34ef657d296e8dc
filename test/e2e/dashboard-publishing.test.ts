/**
 * Publishing from the dashboard's article screen over real HTTP (issue 37,
 * "Publish, schedule, withdraw, archive"): the same changeStatus and
 * changeSettings as the publishing API, with its rules shown on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { accountWithPassword, createArticle, createChannel, PASSWORD, sessionCookie, signInForVisits } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
const keys: Record<string, string> = {};

const signedIn = (account: string) => signInForVisits(t, account);

/** Creates a channel and a draft article in en + ar for `account`; returns the article's dashboard address. */
async function draft(account: string, channelTitle: string): Promise<{ path: string; api: string }> {
  const channel = await createChannel(t, keys[account]!, channelTitle);
  const created = await createArticle(t, keys[account]!, channel.slug, { slug: 'story', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'Story', content_markdown: 'Text.' }, { language: 'ar', title: 'قصة', content_markdown: 'نص.' }] });
  return { path: new URL(created.edit_url).pathname, api: `/api/v1/channels/${channel.slug}/pages/${created.id}` };
}

/** A session cookie header for `account`. */
const loginCookie = (account: string) => sessionCookie(t, account);

beforeAll(async () => {
  t = await startTestService();
  keys.ana = await accountWithPassword(t, 'ana', 'pro');
  keys.fay = await accountWithPassword(t, 'fay', 'free');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('publishing from the article screen', () => {
  it('publishes every translation through moderation, then takes it back to draft and archives it', async () => {
    const ana = await signedIn('ana');
    const { path, api } = await draft('ana', 'Ana news');
    const screen = await ana(path);
    expect(screen.text).toContain('Every translation (en, ar)');
    const sent = await ana(`${path}/status`, { status: 'published', publish_translations: 'true' });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('Sent to moderation');
    await t.service.worker.runDue();
    const published = (await t.request('GET', api, { key: keys.ana })).json;
    expect(published.translations.map((tr: { status: string }) => tr.status)).toEqual(['published', 'published']);
    const back = await ana(`${path}/status`, { status: 'draft', publish_translations: 'true' });
    expect(back.text).toContain('The article is now draft.');
    expect((await t.request('GET', api, { key: keys.ana })).json.status).toBe('draft');
    const archived = await ana(`${path}/status`, { status: 'archived', publish_translations: 'true' });
    expect(archived.text).toContain('The article is now archived.');
  });

  it('publishes the primary only when asked', async () => {
    const ana = await signedIn('ana');
    const { path, api } = await draft('ana', 'Primary only');
    await ana(`${path}/status`, { status: 'published', publish_translations: 'false' });
    await t.service.worker.runDue();
    const view = (await t.request('GET', api, { key: keys.ana })).json;
    expect(view.translations.map((tr: { language: string; status: string }) => [tr.language, tr.status])).toEqual([['en', 'published'], ['ar', 'draft']]);
  });

  it('schedules at a UTC time, and names the field when the time is missing', async () => {
    const ana = await signedIn('ana');
    const { path, api } = await draft('ana', 'Scheduled');
    const missing = await ana(`${path}/status`, { status: 'scheduled', publish_translations: 'true', scheduled_at: '' });
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(/<input type="datetime-local" id="scheduled_at" name="scheduled_at" step="60" aria-invalid="true" aria-describedby="scheduled_at-problem">/);
    expect((await t.request('GET', api, { key: keys.ana })).json.status).toBe('draft');
    const scheduled = await ana(`${path}/status`, { status: 'scheduled', publish_translations: 'true', scheduled_at: '2026-12-24T09:30' });
    expect(scheduled.status).toBe(200);
    expect(scheduled.text.slice(scheduled.text.indexOf('<main'), scheduled.text.indexOf('<main') + 400)).toContain('once it passes, it is published at 2026-12-24 09:30 UTC.');
    expect((await t.request('GET', api, { key: keys.ana })).json.scheduled_at).toBe('2026-12-24T09:30:00.000Z');
  });

  it("says so when the owner's plan has no scheduling, and changes nothing", async () => {
    const fay = await signedIn('fay');
    const { path, api } = await draft('fay', 'Fay news');
    const refused = await fay(`${path}/status`, { status: 'scheduled', publish_translations: 'true', scheduled_at: '2026-12-24T09:30' });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/<p class="error" role="alert">[^<]*plan/);
    expect((await t.request('GET', api, { key: keys.fay })).json.status).toBe('draft');
  });

  it('asks which translations follow on a multilingual article, as the API does', async () => {
    const ana = await signedIn('ana');
    const { path } = await draft('ana', 'Ask');
    const refused = await ana(`${path}/status`, { status: 'published' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('id="publish_translations-problem"');
  });

  it('hides the article from the homepage', async () => {
    const ana = await signedIn('ana');
    const { path, api } = await draft('ana', 'Homepage');
    const saved = await ana(`${path}/settings`, { homepage_mode: 'hide' });
    expect(saved.text).toContain('Homepage setting saved: hide.');
    expect((await t.request('GET', api, { key: keys.ana })).json.homepage_mode).toBe('hide');
    expect((await ana(`${path}/settings`, { homepage_mode: 'sometimes' })).status).toBe(422);
  });

  it('creates a draft from the channel page, and refuses a slug the channel has rather than updating that article', async () => {
    const ana = await signedIn('ana');
    expect((await t.request('POST', '/api/v1/channels', { key: keys.ana, body: { slug: 'akhbar', default_language: 'ar', translations: [{ language: 'ar', title: 'أخبار' }] } })).status).toBe(201);
    const list = await ana('/dashboard/channels/akhbar');
    expect(list.status).toBe(200);
    // The channel's default language is the new article's, its body right to left.
    expect(list.text).toContain('name="language" required maxlength="35" value="ar"');
    expect(list.text).toContain('name="content_markdown" rows="8" class="source" dir="rtl"');
    const created = await fetch(`${t.url}/dashboard/channels/akhbar/pages`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: (await loginCookie('ana'))!, origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ title: 'خبر', slug: 'first', language: 'ar', content_markdown: 'نص.' }).toString(),
    });
    expect(created.status).toBe(303);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/dashboard\/channels\/akhbar\/pages\/\d+\?created$/);
    expect((await ana(location)).text).toContain('Created as a draft.');
    const stored = (await t.request('GET', '/api/v1/channels/akhbar/pages/first', { key: keys.ana })).json;
    expect([stored.status, stored.translations[0].title]).toEqual(['draft', 'خبر']);
    const again = await ana('/dashboard/channels/akhbar/pages', { title: 'Other', slug: 'first', language: 'ar', content_markdown: 'Other.' });
    expect(again.status).toBe(422);
    expect(again.text).toContain('id="new-slug-problem">The channel has an article with the slug &quot;first&quot; already.');
    expect((await t.request('GET', '/api/v1/channels/akhbar/pages/first', { key: keys.ana })).json.translations[0].title).toBe('خبر');
    const bad = await ana('/dashboard/channels/akhbar/pages', { title: '', slug: 'Not A Slug', language: 'ar', content_markdown: '' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="new-slug-problem"');
    expect(bad.text).toContain('id="new-title-problem"');
  });

  it('streams each state as it changes until every one is final, and stops streaming for an article at rest', async () => {
    const { path } = await draft('ana', 'Live');
    const cookie = (await loginCookie('ana'))!;
    const ana = await signedIn('ana');
    const atRest = await ana(path);
    expect(atRest.text).not.toContain('data-live=');
    await ana(`${path}/status`, { status: 'published', publish_translations: 'true' });
    const waiting = await ana(path);
    expect(waiting.text).toContain(`data-live="${path}/live"`);
    expect(waiting.text).toMatch(/<script src="\/dashboard\/assets\/live-[0-9a-f]{12}\.js" defer><\/script>/);
    const response = await fetch(`${t.url}${path}/live`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(received)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${pattern}: ${received}`);
        received += decoder.decode(value, { stream: true });
      }
    };
    await until(/event: state\ndata: .*"moderation_review"/);
    await t.service.worker.runDue();
    await until(/event: final\ndata: /);
    const events = [...received.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => [m[1], JSON.parse(m[2]!)]);
    const last = events.at(-1)!;
    expect(last[0]).toBe('final');
    expect(last[1].translations.map((tr: { status: string }) => tr.status)).toEqual(['published', 'published']);
    expect((await reader.read()).done).toBe(true);
    // Another account's article streams nothing.
    await setPassword({ db: t.service.db, clock: t.clock }, 'fay', PASSWORD);
    const other = await fetch(`${t.url}${path}/live`, { headers: { cookie: (await loginCookie('fay'))! }, redirect: 'manual' });
    expect(other.status).toBe(404);
    await other.body?.cancel();
  });

  it('lists what is scheduled across the channels, soonest first', async () => {
    const ana = await signedIn('ana');
    const { path } = await draft('ana', 'Sooner');
    await ana(`${path}/status`, { status: 'scheduled', publish_translations: 'true', scheduled_at: '2026-12-20T08:00' });
    await t.service.worker.runDue();
    const list = await ana('/dashboard/scheduled');
    expect(list.status).toBe(200);
    expect(list.text).toContain('<a href="/dashboard/scheduled">Scheduled</a>');
    const times = [...list.text.matchAll(/<tr><td><time datetime="([^"]+)">/g)].map((m) => m[1]);
    expect(times).toEqual(['2026-12-20T08:00:00.000Z', '2026-12-24T09:30:00.000Z']);
    expect(list.text).toMatch(/<td>sooner<\/td>/);
  });
});
