/**
 * The editor's autosave over real HTTP (issue 37, item 5): "to the draft or
 * the pending revision, never to the live page". A draft is saved through
 * putTranslation (it stays a draft: no moderation, nothing public); any
 * other translation's texts are kept in the account's private slot, which
 * the editor offers to restore or discard and an explicit Save empties,
 * while the live article, its moderation and the public output stay as
 * they are. A save made meanwhile stops autosave (409) and keeps the text;
 * a foreign Origin is refused. The editor's forms take a body as large as
 * the publishing API does; the source editor's script is the dashboard's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteEditor } from '../../server/admin/channel-commands.ts';
import { accountWithPassword, createArticle, createChannel, signIn } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let anaKey: string;
let draftId: number;
let liveId: number;

const signedIn = (account: string) => signIn(t, account);

const editor = (id: number, language = 'en') => `/dashboard/channels/ana-news/pages/${id}/translations/${language}`;
const versionIn = (text: string) => /<input type="hidden" name="version" value="([^"]*)">/.exec(text)?.[1];
const article = async (id: number) => (await t.request('GET', `/api/v1/channels/ana-news/pages/${id}`, { key: anaKey })).json;
const translation = async (id: number, language = 'en') => (await article(id)).translations.find((tr: { language: string }) => tr.language === language);
const texts = (title: string, body: string, version: string) => ({ version, title, excerpt: '', content_markdown: body, seo_title: '', seo_description: '' });
/** What readers get of the live article: the public API's answer and the static page. */
const publicOutput = async () => {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
  const api = await fetch(`${t.url}/api/public/v1/channels/ana-news/articles/live`);
  const page = await fetch(`${t.url}/ana-news/live`);
  return { api: [api.status, await api.text()], page: [page.status, await page.text()] };
};

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true' });
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  await accountWithPassword(t, 'ben', 'pro');
  await createChannel(t, anaKey, 'Ana news');
  await inviteEditor({ db: t.service.db, clock: t.clock }, { channel: 'ana-news', account: 'ben', write: false, manage: false });
  const draft = await createArticle(t, anaKey, 'ana-news', { slug: 'draft', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'A draft', content_markdown: 'Draft text.' }] });
  draftId = draft.id;
  const live = await createArticle(t, anaKey, 'ana-news', { slug: 'live', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Live story', content_markdown: 'What readers read.' }] });
  liveId = live.id;
  await publicOutput();
  expect((await translation(liveId)).status).toBe('published');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('autosave of a draft', () => {
  it('saves the draft itself through putTranslation: it stays a draft, nothing goes to moderation', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', editor(draftId));
    expect(page.text).toMatch(new RegExp(`<form method="post" action="${editor(draftId)}" class="stack wide editor" data-autosave="${editor(draftId)}/autosave">`));
    t.clock.advance(60_000);
    const saved = await ana('POST', `${editor(draftId)}/autosave`, texts('A draft, autosaved', 'Typed *so far*.', versionIn(page.text)!));
    expect(saved.status, saved.text).toBe(200);
    expect(saved.type).toContain('application/json');
    const stored = await translation(draftId);
    expect(saved.json).toEqual({ saved: 'draft', saved_at: '2026-11-22T12:01:00.000Z', version: stored.version });
    expect([stored.title, stored.content_markdown.trim(), stored.status, stored.moderation, stored.pending_revision]).toEqual(['A draft, autosaved', 'Typed *so far*.', 'draft', 'none', null]);
    // Never submitted: no revision, no job.
    expect((await ana('GET', `${editor(draftId)}/revisions`)).text).not.toMatch(/<td>1<\/td>/);
    expect(await t.service.worker.runDue()).toBe(0);
    // The next autosave stands on the version the first one left, as the script keeps it.
    const again = await ana('POST', `${editor(draftId)}/autosave`, texts('A draft, autosaved twice', 'Typed more.', saved.json.version));
    expect([again.status, again.json.saved]).toEqual([200, 'draft']);
    expect((await translation(draftId)).title).toBe('A draft, autosaved twice');
    // Nothing was kept aside, so the editor offers nothing.
    expect((await ana('GET', editor(draftId))).text).not.toContain('Restore the text you were writing');
  });

  it('keeps texts the draft’s rules refuse privately, saying why, and saves nothing', async () => {
    const ana = await signedIn('ana');
    const before = await translation(draftId);
    const refused = await ana('POST', `${editor(draftId)}/autosave`, texts('   ', 'Half a thought', before.version));
    expect(refused.status).toBe(422);
    expect(refused.json.saved).toBe('private');
    expect(refused.json.message).toMatch(/^Title: /);
    expect(await translation(draftId)).toEqual(before);
    const page = await ana('GET', editor(draftId));
    expect(page.text).toContain('Restore the text you were writing (autosaved at 2026-11-22 12:01 UTC)');
    // While the offer stands, autosave waits (it would overwrite the kept text).
    expect(page.text).toContain('data-autosave-paused');
    const discarded = await ana('POST', `${editor(draftId)}/autosave/discard`, {});
    expect([discarded.status, discarded.location]).toEqual([303, `${editor(draftId)}?discarded`]);
    const after = await ana('GET', discarded.location!);
    expect(after.text).toContain('The autosaved text is discarded.');
    expect(after.text).not.toContain('Restore the text you were writing');
  });

  it('stops at a save someone else made meanwhile (409), keeping the text to restore, whose Save meets the conflict page', async () => {
    const ana = await signedIn('ana');
    const base = versionIn((await ana('GET', editor(draftId))).text)!;
    const theirs = await t.request('PUT', `/api/v1/channels/ana-news/pages/${draftId}/translations/en`, { key: anaKey, body: { title: 'Their title', content_markdown: 'Their text.' } });
    expect(theirs.status, theirs.text).toBe(200);
    const stopped = await ana('POST', `${editor(draftId)}/autosave`, texts('My title', 'My text.', base));
    expect(stopped.status).toBe(409);
    expect(stopped.json).toMatchObject({ conflict: true });
    expect(stopped.json.message).toContain('someone else saved this translation');
    expect((await translation(draftId)).title).toBe('Their title');
    const offered = await ana('GET', editor(draftId));
    expect(offered.text).toContain('Restore the text you were writing');
    const restored = await ana('GET', `${editor(draftId)}?restore`);
    expect(restored.text).toContain('value="My title"');
    expect(restored.text).toContain('Restored the text autosaved at');
    expect(versionIn(restored.text)).toBe(base);
    const conflict = await ana('POST', editor(draftId), texts('My title', 'My text.', base));
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('Someone else saved this translation while you were editing it');
    // Saving over theirs on purpose empties the slot.
    expect((await ana('POST', editor(draftId), texts('My title', 'My text.', versionIn(conflict.text)!))).status).toBe(200);
    expect((await ana('GET', editor(draftId))).text).not.toContain('Restore the text you were writing');
  });
});

describe('autosave of a published translation', () => {
  it('keeps the texts privately: the live article, its moderation and the public output stay as they are', async () => {
    const ana = await signedIn('ana');
    const before = await translation(liveId);
    const shown = await publicOutput();
    expect(shown.api[0]).toBe(200);
    expect(shown.page[0]).toBe(200);
    expect(String(shown.page[1])).toContain('What readers read.');
    const page = await ana('GET', editor(liveId));
    t.clock.advance(60_000);
    const kept = await ana('POST', `${editor(liveId)}/autosave`, texts('Live story, rewritten', 'Not for readers yet: SECRET-DRAFT-WORDS.', versionIn(page.text)!));
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json).toEqual({ saved: 'private', saved_at: '2026-11-22T12:02:00.000Z' });
    // Even texts no save would take are kept (the slot is not a save).
    expect((await ana('POST', `${editor(liveId)}/autosave`, texts('', 'Not for readers yet: SECRET-DRAFT-WORDS.', versionIn(page.text)!))).status).toBe(200);
    expect((await ana('POST', `${editor(liveId)}/autosave`, texts('Live story, rewritten', 'Not for readers yet: SECRET-DRAFT-WORDS.', versionIn(page.text)!))).status).toBe(200);
    expect(await translation(liveId)).toEqual(before);
    expect(before.pending_revision).toBeNull();
    expect(await publicOutput()).toEqual(shown);
    expect((await ana('GET', `${editor(liveId)}/revisions`)).text).not.toMatch(/<td>2<\/td>/);
    expect(JSON.stringify(await article(liveId))).not.toContain('SECRET-DRAFT-WORDS');

    // Another account sees nothing of it.
    const ben = await signedIn('ben');
    expect((await ben('GET', editor(liveId))).text).not.toContain('Restore the text you were writing');

    const offered = await ana('GET', editor(liveId));
    expect(offered.text).toContain('Restore the text you were writing (autosaved at 2026-11-22 12:02 UTC)');
    expect(offered.text).toContain('value="Live story"');
    const restored = await ana('GET', `${editor(liveId)}?restore`);
    expect(restored.text).toContain('value="Live story, rewritten"');
    expect(restored.text).toContain('SECRET-DRAFT-WORDS');
    expect(restored.text).not.toContain('data-autosave-paused');

    // The explicit Save makes the revision (for moderation) and empties the slot.
    const saved = await ana('POST', editor(liveId), texts('Live story, rewritten', 'Not for readers yet: SECRET-DRAFT-WORDS.', versionIn(restored.text)!));
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved as a revision');
    const after = await translation(liveId);
    expect([after.status, after.title, after.pending_revision?.title]).toEqual(['published', 'Live story, rewritten', 'Live story, rewritten']);
    expect((await ana('GET', editor(liveId))).text).not.toContain('Restore the text you were writing');
    // Readers still get the published text until moderation passes.
    t.service.staticSite!.queue.kick();
    await t.service.staticSite!.queue.idle();
    expect(await (await fetch(`${t.url}/ana-news/live`)).text()).toContain('What readers read.');
  });

  it('keeps a new language’s texts privately too: nothing is created until Save', async () => {
    const ana = await signedIn('ana');
    const kept = await ana('POST', `${editor(liveId, 'fr')}/autosave`, texts('Histoire', 'Texte.', ''));
    expect([kept.status, kept.json.saved]).toEqual([200, 'private']);
    expect(await translation(liveId, 'fr')).toBeUndefined();
    expect((await ana('GET', editor(liveId, 'fr'))).text).toContain('Restore the text you were writing');
    expect((await ana('POST', `${editor(liveId, 'fr')}/autosave/discard`, {})).status).toBe(303);
  });
});

describe('autosave’s guards', () => {
  it('refuses a foreign Origin, or none, and a member who may not write; saves nothing', async () => {
    const ana = await signedIn('ana');
    const before = await translation(draftId);
    const body = texts('Forged', 'Forged.', before.version);
    const foreign = await ana('POST', `${editor(draftId)}/autosave`, body, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('not from the dashboard');
    const none = await fetch(`${t.url}${editor(draftId)}/autosave`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
    expect(none.status).toBe(403);
    const ben = await signedIn('ben');
    const refused = await ben('POST', `${editor(draftId)}/autosave`, body);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain('can_write_articles');
    const unknown = await ana('POST', `/dashboard/channels/ana-news/pages/999999/translations/en/autosave`, body);
    expect(unknown.status).toBe(404);
    expect(await translation(draftId)).toEqual(before);
  });
});

describe('long texts', () => {
  it('saves a body over 64 KB from the editor (and autosaves it), while other forms keep the 64 KB limit', async () => {
    const ana = await signedIn('ana');
    const long = Array.from({ length: 2000 }, (_, i) => `Paragraph ${i}: ${'words '.repeat(10)}`).join('\n\n');
    expect(long.length).toBeGreaterThan(100 * 1024);
    const version = (await translation(draftId)).version;
    const auto = await ana('POST', `${editor(draftId)}/autosave`, texts('Long', long, version));
    expect([auto.status, auto.json?.saved]).toEqual([200, 'draft']);
    const saved = await ana('POST', editor(draftId), texts('Long, saved', long, auto.json.version));
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Saved.');
    expect((await translation(draftId)).content_markdown.trim()).toBe(long.trim());
    const elsewhere = await ana('POST', '/dashboard/account/keys', { label: 'x'.repeat(70 * 1024) });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.text).toContain('A dashboard form is at most 64 KB');
  });
});

describe('the source editor’s script', () => {
  it('is the dashboard’s own file, at a content-hashed address, cached for good', async () => {
    const ana = await signedIn('ana');
    const page = await ana('GET', editor(draftId));
    const src = /<script src="(\/dashboard\/assets\/source-editor-[0-9a-f]{12}\.js)" defer><\/script>/.exec(page.text)?.[1];
    expect(src).toBeDefined();
    const script = await fetch(`${t.url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toContain('immutable');
    const body = await script.text();
    expect(body).toContain('CodeMirror');
    expect(body.length).toBeGreaterThan(100_000);
    expect((await fetch(`${t.url}/dashboard/assets/source-editor-000000000000.js`)).status).toBe(404);
  });
});
