/**
 * A channel's settings in the dashboard over real HTTP (issue 37,
 * "Channels"): saved through the same update as the publishing API's PATCH,
 * refused with the fields named, and shown with its editors only to those
 * who may manage it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteEditor } from '../../server/admin/channel-commands.ts';
import { accountWithPassword, createChannel, signIn } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let anaKey: string;

/** Signs in and returns a request function carrying the session and the dashboard's Origin. */
const signedIn = (account: string) => signIn(t, account);

const channel = async () => (await t.request('GET', '/api/v1/channels/ana-news', { key: anaKey })).json;

beforeAll(async () => {
  t = await startTestService();
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  await accountWithPassword(t, 'ben', 'pro');
  await createChannel(t, anaKey, 'Ana news', { homepage_enabled: true });
  await inviteEditor({ db: t.service.db, clock: t.clock }, { channel: 'ana-news', account: 'ben', write: true, manage: false });
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe("a channel's settings", () => {
  it('are saved through the publishing API’s own update: titles, descriptions, a new language, the default, the homepage', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', '/dashboard/channels/ana-news/settings');
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Ana news"');
    expect(page.text).toMatch(/<td>ana<\/td><td>owner<\/td>.*<td>ben<\/td><td>editor<\/td><td>yes<\/td><td>no<\/td>/s);
    const saved = await ana('POST', '/dashboard/channels/ana-news/settings', {
      'title.en': 'Ana’s news',
      'description.en': 'Stories <b>from</b> the valley.',
      'new.language': 'ar',
      'new.title': 'أخبار آنا',
      default_language: 'en',
      watermark_enabled: 'on',
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved.');
    // The new language's fields are right to left.
    expect(saved.text).toContain('name="title.ar" lang="ar" dir="rtl"');
    const stored = await channel();
    expect(stored.translations).toEqual([
      { language: 'ar', title: 'أخبار آنا', description: null },
      { language: 'en', title: 'Ana’s news', description: 'Stories <b>from</b> the valley.' },
    ]);
    expect([stored.homepage_enabled, stored.watermark_enabled]).toEqual([false, true]);
    // Escaped when shown again.
    expect(saved.text).toContain('Stories &lt;b&gt;from&lt;/b&gt; the valley.');
  });

  it('refuses an empty title or a new language without one, names the field, and saves nothing', async () => {
    const ana = await signedIn('ana');
    const before = await channel();
    const empty = await ana('POST', '/dashboard/channels/ana-news/settings', { 'title.en': '   ', 'title.ar': 'أخبار', default_language: 'en', homepage_enabled: 'on' });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('Nothing was saved');
    expect(empty.text).toMatch(/name="title\.en"[^>]*aria-invalid="true" aria-describedby="title\.en-problem"/);
    expect(empty.text).toContain('Must not be empty. Give a title.');
    const noTitle = await ana('POST', '/dashboard/channels/ana-news/settings', { 'title.en': 'Ana news', 'title.ar': 'أخبار', 'new.language': 'fr', default_language: 'en' });
    expect(noTitle.status).toBe(422);
    expect(noTitle.text).toContain('aria-describedby="new.title-problem"></label>\n<span class="field-problem" id="new.title-problem">Required for &quot;fr&quot;');
    const badLanguage = await ana('POST', '/dashboard/channels/ana-news/settings', { 'title.en': 'Ana news', 'title.ar': 'أخبار', 'new.language': 'not a language!', 'new.title': 'x', default_language: 'en' });
    expect(badLanguage.status).toBe(422);
    expect(await channel()).toEqual(before);
  });

  it('are not shown to an editor without can_manage_channel, who cannot save them either', async () => {
    const ben = await signedIn('ben');
    const before = await channel();
    const list = await ben('GET', '/dashboard/channels/ana-news');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('/settings');
    const page = await ben('GET', '/dashboard/channels/ana-news/settings');
    expect(page.status).toBe(403);
    expect(page.text).toContain('can_manage_channel');
    expect(page.text).not.toContain('value="');
    const post = await ben('POST', '/dashboard/channels/ana-news/settings', { 'title.en': 'Taken over', default_language: 'en' });
    expect(post.status).toBe(403);
    expect(await channel()).toEqual(before);
  });

  it('refuse a save posted from another origin', async () => {
    const ana = await signedIn('ana');
    const before = await channel();
    const post = await ana('POST', '/dashboard/channels/ana-news/settings', { 'title.en': 'Defaced', default_language: 'en' }, { origin: 'https://evil.example' });
    expect(post.status).toBe(403);
    expect(await channel()).toEqual(before);
  });

  it('invites an editor, changes and removes them; only the owner gives can_manage_channel', async () => {
    await accountWithPassword(t, 'cai', 'pro');
    const ana = await signedIn('ana');
    const invited = await ana('POST', '/dashboard/channels/ana-news/members', { account: 'cai', write: 'on' });
    expect(invited.status).toBe(200);
    expect(invited.text).toContain('Invited &quot;cai&quot; as an editor.');
    expect(invited.text).toMatch(/<td>cai<\/td><td>editor<\/td><td>yes<\/td><td>no<\/td>/);
    const managing = await ana('POST', '/dashboard/channels/ana-news/members', { account: 'cai', write: 'on', manage: 'on' });
    expect(managing.text).toMatch(/<td>cai<\/td><td>editor<\/td><td>yes<\/td><td>yes<\/td>/);
    const unknown = await ana('POST', '/dashboard/channels/ana-news/members', { account: 'nobody-at-all' });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('No account is named &quot;nobody-at-all&quot;');
    const owner = await ana('POST', '/dashboard/channels/ana-news/members', { account: 'ana' });
    expect(owner.status).toBe(422);
    expect(owner.text).toContain('owns the channel');
    // cai may manage now, but gives no one can_manage_channel; an editor without it invites no one.
    const cai = await signedIn('cai');
    expect((await cai('POST', '/dashboard/channels/ana-news/members', { account: 'ben', write: 'on', manage: 'on' })).status).toBe(403);
    const ben = await signedIn('ben');
    expect((await ben('POST', '/dashboard/channels/ana-news/members', { account: 'cai' })).status).toBe(403);
    const removed = await ana('POST', '/dashboard/channels/ana-news/members/remove', { account: 'cai' });
    expect(removed.text).toContain('Removed &quot;cai&quot;');
    expect(removed.text).not.toContain('<td>cai</td>');
    expect((await ana('POST', '/dashboard/channels/ana-news/members/remove', { account: 'ana' })).status).toBe(404);
    expect((await cai('GET', '/dashboard/channels/ana-news')).status).toBe(404);
  });
});
