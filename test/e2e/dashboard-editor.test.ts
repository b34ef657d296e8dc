/**
 * The dashboard's translation editor over real HTTP (issue 37, "The
 * editor"): saves go through putTranslation with the loaded version as
 * If-Match, so a save over someone else's is a conflict page showing both
 * texts, never a silent overwrite; the primary beside a translation, marked
 * outdated; a published translation's save waits for moderation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteEditor } from '../../server/admin/channel-commands.ts';
import { accountWithPassword, createArticle, createChannel, signIn } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let anaKey: string;
let id: number;

const signedIn = (account: string) => signIn(t, account);

const editor = (language: string) => `/dashboard/channels/ana-news/pages/${id}/translations/${language}`;
const versionIn = (text: string) => /<input type="hidden" name="version" value="([^"]*)">/.exec(text)?.[1];
const article = async () => (await t.request('GET', `/api/v1/channels/ana-news/pages/${id}`, { key: anaKey })).json;
const translation = async (language: string) => (await article()).translations.find((tr: { language: string }) => tr.language === language);
const texts = (title: string, body: string, version: string) => ({ version, title, excerpt: '', content_markdown: body, seo_title: '', seo_description: '' });

beforeAll(async () => {
  t = await startTestService();
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  await accountWithPassword(t, 'ben', 'pro');
  await createChannel(t, anaKey, 'Ana news');
  await inviteEditor({ db: t.service.db, clock: t.clock }, { channel: 'ana-news', account: 'ben', write: false, manage: false });
  const created = await createArticle(t, anaKey, 'ana-news', {
    slug: 'hello',
    default_language: 'en',
    status: 'draft',
    translations: [
      { language: 'en', title: 'Hello', content_markdown: 'Hi.' },
      { language: 'ar', title: 'مرحبا', content_markdown: 'أهلا.' },
    ],
  });
  id = created.id;
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the translation editor', () => {
  it('opens each translation with its texts and version, and saves through the publishing API’s rules', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', editor('en'));
    expect(page.status).toBe(200);
    expect(versionIn(page.text)).toBe((await translation('en')).version);
    expect(page.text).toContain('<textarea id="content_markdown" name="content_markdown" lang="en" dir="ltr" rows="18" class="source" spellcheck="true">\nHi.\n</textarea>');
    t.clock.advance(60_000);
    const saved = await ana('POST', editor('en'), texts('Hello, world', 'Hi, *world*.', versionIn(page.text)!));
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved.');
    const stored = await translation('en');
    expect([stored.title, stored.content_markdown.trim(), stored.status]).toEqual(['Hello, world', 'Hi, *world*.', 'draft']);
    expect(versionIn(saved.text)).toBe(stored.version);
  });

  it('shows the primary beside a translation, right to left where the language is, and marks it outdated when the primary changed after it', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', editor('ar'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="title" lang="ar" dir="rtl"');
    expect(page.text).toContain('The primary language (en)');
    expect(page.text).toContain('<dd lang="en" dir="ltr">Hello, world</dd>');
    expect(page.text).toContain('<strong>Outdated:</strong>');
    t.clock.advance(60_000);
    expect((await ana('POST', editor('ar'), texts('مرحبا بالعالم', 'أهلا بالعالم.', versionIn(page.text)!))).status).toBe(200);
    expect((await ana('GET', editor('ar'))).text).not.toContain('<strong>Outdated:</strong>');
  });

  it('refuses a save made against an older version with both texts, then saves "mine" on purpose', async () => {
    const one = await signedIn('ana');
    const two = await signedIn('ana');
    const base = versionIn((await one('GET', editor('en'))).text)!;
    expect(versionIn((await two('GET', editor('en'))).text)).toBe(base);
    t.clock.advance(60_000);
    expect((await one('POST', editor('en'), texts('Theirs', 'Their body.', base))).status).toBe(200);
    const conflict = await two('POST', editor('en'), texts('Mine', 'My body.', base));
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('Someone else saved this translation while you were editing it');
    expect(conflict.text).toContain('Their version, saved meanwhile');
    expect(conflict.text).toContain('<dd lang="en" dir="ltr">Theirs</dd>');
    expect(conflict.text).toContain('value="Mine"');
    expect((await translation('en')).title).toBe('Theirs');
    // The form now stands on their version: saving it again is a choice, and it wins.
    const theirVersion = versionIn(conflict.text)!;
    expect(theirVersion).toBe((await translation('en')).version);
    expect((await two('POST', editor('en'), texts('Mine', 'My body.', theirVersion))).status).toBe(200);
    expect((await translation('en')).title).toBe('Mine');
  });

  it('names a refused field beside it and saves nothing', async () => {
    const ana = await signedIn('ana');
    const before = await translation('en');
    const refused = await ana('POST', editor('en'), { ...texts('   ', 'Body.', before.version), excerpt: 'x'.repeat(321) });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Nothing was saved');
    expect(refused.text).toMatch(/id="title" name="title"[^>]* aria-invalid="true" aria-describedby="title-problem"/);
    expect(refused.text).toMatch(/<span class="field-problem" id="excerpt-problem">[^<]*320/);
    expect(await translation('en')).toEqual(before);
  });

  it('adds a translation in a new language as a draft, once: a second "new" form is a conflict', async () => {
    const ana = await signedIn('ana');
    const go = await ana('GET', `/dashboard/channels/ana-news/pages/${id}/translations?language=PT-br`);
    expect([go.status, go.location]).toEqual([303, editor('pt-BR')]);
    const blank = await ana('GET', editor('pt-BR'));
    expect(blank.text).toContain('Add a pt-BR translation');
    expect(versionIn(blank.text)).toBe('');
    expect((await ana('POST', editor('pt-BR'), texts('Olá', 'Oi.', ''))).status).toBe(200);
    expect((await translation('pt-BR')).status).toBe('draft');
    const again = await ana('POST', editor('pt-BR'), texts('Olá de novo', 'Oi de novo.', ''));
    expect(again.status).toBe(409);
    expect((await translation('pt-BR')).title).toBe('Olá');
    const bad = await ana('GET', `/dashboard/channels/ana-news/pages/${id}/translations?language=${encodeURIComponent('not a code')}`);
    expect(bad.status).toBe(303);
    expect((await ana('GET', bad.location!)).text).toContain('That is not a language code');
  });

  it('saves a published translation as a revision for moderation, leaving the published text live', async () => {
    const ana = await signedIn('ana');
    const published = await t.request('PATCH', `/api/v1/channels/ana-news/pages/${id}/status`, { key: anaKey, body: { status: 'published', publish_translations: true } });
    expect(published.status, published.text).toBe(200);
    await t.service.worker.runDue();
    expect((await translation('en')).status).toBe('published');
    const page = await ana('GET', editor('en'));
    expect(page.text).toContain('Saving makes a revision that goes to moderation');
    const saved = await ana('POST', editor('en'), texts('Mine, revised', 'Revised.', versionIn(page.text)!));
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved as a revision');
    const after = await translation('en');
    expect(after.status).toBe('published');
    expect(after.pending_revision?.title).toBe('Mine, revised');
  });

  it('lets a member without can_write_articles read but not save', async () => {
    const ben = await signedIn('ben');
    const before = await translation('ar');
    const page = await ben('GET', editor('ar'));
    expect(page.status).toBe(200);
    const refused = await ben('POST', editor('ar'), texts('Taken over', 'No.', versionIn(page.text)!));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('can_write_articles');
    expect(await translation('ar')).toEqual(before);
  });
});

describe('the revisions of a translation', () => {
  it('lists each submitted version with its outcome, shows what changed between two, and restores one through moderation', async () => {
    const ana = await signedIn('ana');
    // The revised text waiting since the published test passes now.
    await t.service.worker.runDue();
    expect((await translation('en')).title).toBe('Mine, revised');
    const history = await ana('GET', `${editor('en')}/revisions`);
    expect(history.status).toBe(200);
    expect(history.text).toMatch(/<td>2 <strong>\(public\)<\/strong><\/td><td lang="en" dir="auto">Mine, revised<\/td><td>passed/);
    expect(history.text).toMatch(/<td>1<\/td><td lang="en" dir="auto">Mine<\/td>/);
    const diff = await ana('GET', `${editor('en')}/revisions?from=1&to=2`);
    expect(diff.text).toContain('Changes from revision 1 to revision 2');
    expect(diff.text).toMatch(/<ins>[^<]*revised[^<]*<\/ins>/);
    expect(diff.text).toMatch(/<del>My body\.\n<\/del>/);
    const stale = await ana('POST', `${editor('en')}/revisions/1/restore`, { version: '0'.repeat(24) });
    expect(stale.status).toBe(409);
    expect((await translation('en')).pending_revision).toBeNull();
    const restored = await ana('POST', `${editor('en')}/revisions/1/restore`, { version: (await translation('en')).version });
    expect(restored.status).toBe(200);
    expect(restored.text).toContain('Revision 1 restored as a new revision: it goes to moderation');
    const after = await translation('en');
    // The restored texts are the current ones, waiting for moderation; revision 2 stays what readers get.
    expect([after.status, after.title, after.pending_revision?.title]).toEqual(['published', 'Mine', 'Mine']);
    expect((await ana('GET', `${editor('en')}/revisions`)).text).toMatch(/<td>3<\/td><td lang="en" dir="auto">Mine<\/td><td>pending.*<td>2 <strong>\(public\)<\/strong>/s);
    expect((await ana('POST', `${editor('en')}/revisions/99/restore`, { version: after.version })).status).toBe(404);
  });
});
