/**
 * The editor's autosave (`autosave.service.ts`) over a real migrated SQLite
 * file: a draft is saved through putTranslation and stays a draft (no job,
 * no public change); any other translation's texts go to the account's
 * private slot and nothing else changes; `draftOnly` refuses, inside the
 * write, a translation that stopped being a draft.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inviteEditor } from '../../admin/channel-commands.ts';
import { createKey } from '../../admin/key-commands.ts';
import { authenticate, type Principal } from '../account/account.service.ts';
import { createCursorCodec } from '../cursor.ts';
import { createRulePolicy, DEFAULT_MODERATION_RULES } from '../moderation/moderation-policy.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { listJobs } from '../../store/job.repository.ts';
import { listEvents } from '../../store/publication-event.repository.ts';
import { createTestChannel, openTestDeps, type TestDeps } from '../../../test/support/admin-deps.ts';
import { expectError } from '../../../test/support/expect-error.ts';
import { BODY_LIMITS } from '../body/limits.ts';
import { articleWriteSchema, translationPutSchema } from './article.schema.ts';
import { getArticle, NotADraft, putTranslation, upsertArticle, type ArticleDeps } from './article.service.ts';
import { autosaveTranslation, discardAutosave, findAutosavedTexts, type EditorTexts } from './autosave.service.ts';

let t: TestDeps;
let deps: ArticleDeps;
let ana: Principal;
let ben: Principal;
beforeEach(async () => {
  t = await openTestDeps();
  deps = { db: t.db, clock: t.clock, urls: createPublicUrls('https://press.example', 'https://press.example/dashboard'), cursors: createCursorCodec('autosave-test-secret'), moderation: createRulePolicy(DEFAULT_MODERATION_RULES) };
  ana = await authenticate(t, (await createKey(t, { account: 'ana', plan: 'pro' })).key);
  ben = await authenticate(t, (await createKey(t, { account: 'ben', plan: 'pro' })).key);
  await createTestChannel(t, 'ana', 'news');
  await inviteEditor(t, { channel: 'news', account: 'ben', write: true, manage: false });
});
afterEach(async () => t.cleanup());

const create = async (slug: string, status: 'draft' | 'published') =>
  (await upsertArticle(deps, ana, 'news', articleWriteSchema.parse({ slug, default_language: 'en', status, translations: [{ language: 'en', title: 'Title', content_markdown: 'Body.' }] }))).view;
const texts = (title: string, body: string): EditorTexts => ({ title, excerpt: '', content_markdown: body, seo_title: '', seo_description: '' });
const input = (x: EditorTexts) => () => translationPutSchema.parse({ title: x.title, content_markdown: x.content_markdown });
const en = async (slug: string) => (await getArticle(deps, ana, 'news', slug)).translations[0]!;

describe('autosave', () => {
  it('saves a draft through putTranslation: still a draft, no job, no public change, nothing kept aside', async () => {
    const view = await create('draft', 'draft');
    const [jobs, events] = [(await listJobs(t.db, 'pending')).length, (await listEvents(t.db)).length];
    const x = texts('Typed title', 'Typed body.');
    const outcome = await autosaveTranslation(deps, ana, { channel: 'news', ref: 'draft', language: 'en' }, x, view.translations[0]!.version, input(x));
    const after = await en('draft');
    expect(outcome).toMatchObject({ kind: 'draft', version: after.version });
    expect([after.title, after.status, after.moderation]).toEqual(['Typed title', 'draft', 'none']);
    expect((await listJobs(t.db, 'pending')).length).toBe(jobs);
    expect((await listEvents(t.db)).length).toBe(events);
    expect(await findAutosavedTexts(deps, ana, view.id, 'en')).toBeUndefined();
  });

  it('keeps the texts of a translation in moderation privately, for its author only; nothing else changes', async () => {
    const view = await create('sent', 'published');
    const before = await en('sent');
    expect(before.status).toBe('moderation_review');
    const jobs = (await listJobs(t.db, 'pending')).length;
    const x = texts('Not yet', 'Private words.');
    const outcome = await autosaveTranslation(deps, ana, { channel: 'news', ref: 'sent', language: 'en' }, x, before.version, input(x));
    expect(outcome.kind).toBe('kept');
    expect(await en('sent')).toEqual(before);
    expect((await listJobs(t.db, 'pending')).length).toBe(jobs);
    expect(await findAutosavedTexts(deps, ana, view.id, 'en')).toEqual({ texts: x, basedOn: before.version, savedAt: outcome.savedAt });
    expect(await findAutosavedTexts(deps, ben, view.id, 'en')).toBeUndefined();
    expect(await discardAutosave(deps, ana, { channel: 'news', ref: 'sent', language: 'en' })).toBe(true);
    expect(await findAutosavedTexts(deps, ana, view.id, 'en')).toBeUndefined();
  });

  it('refuses, in the write, a save asked only for a draft when the translation is not one', async () => {
    await create('sent', 'published');
    const before = await en('sent');
    await expect(putTranslation(deps, ana, 'news', 'sent', 'en', translationPutSchema.parse({ title: 'Over it', content_markdown: 'No.' }), { draftOnly: true })).rejects.toBeInstanceOf(NotADraft);
    expect(await en('sent')).toEqual(before);
  });

  it('keeps the text and answers TRANSLATION_CHANGED when someone saved meanwhile', async () => {
    const view = await create('draft', 'draft');
    const base = view.translations[0]!.version;
    await putTranslation(deps, ben, 'news', 'draft', 'en', translationPutSchema.parse({ title: 'Ben was here', content_markdown: 'Theirs.' }));
    const x = texts('Mine', 'Mine.');
    await expectError(autosaveTranslation(deps, ana, { channel: 'news', ref: 'draft', language: 'en' }, x, base, input(x)), 'TRANSLATION_CHANGED');
    expect((await en('draft')).title).toBe('Ben was here');
    expect((await findAutosavedTexts(deps, ana, view.id, 'en'))?.basedOn).toBe(base);
  });

  it('refuses a body longer than a save takes, keeping nothing', async () => {
    const view = await create('draft', 'draft');
    const x = texts('Long', 'x'.repeat(BODY_LIMITS.markdownChars + 1));
    await expectError(autosaveTranslation(deps, ana, { channel: 'news', ref: 'draft', language: 'en' }, x, view.translations[0]!.version, input(x)), 'VALIDATION_FAILED');
    expect(await findAutosavedTexts(deps, ana, view.id, 'en')).toBeUndefined();
  });
});
