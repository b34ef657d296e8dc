/**
 * Every moderation outcome is visible at translation level (issue 13, items
 * 1 and 3, and the `moderation` of drafts): over real HTTP, with the rules of
 * docs/moderation.example.json, each case asserts the publishing API's answer
 * and what readers get together.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideManualReview } from '../../server/domain/article/moderation.service.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;

const RULES = path.resolve(import.meta.dirname, '../../docs/moderation.example.json');
const en = (title: string, body = 'Text.') => ({ language: 'en', title, content_markdown: `${title}.\n\n${body}` });
const fr = (title: string, body = 'Texte.') => ({ language: 'fr', title, content_markdown: `${title}.\n\n${body}` });

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_MODERATION_FILE: RULES, PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
  key = await t.key('moderated', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }, { language: 'fr', title: 'Nouvelles' }] },
  });
  expect(ch.status, ch.text).toBe(201);
});
afterAll(async () => t?.stop());

/** Runs the moderation jobs and waits for the build. */
async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

const page = (slug: string) => `/api/v1/channels/news/pages/${slug}`;
const read = async (slug: string) => (await t.request('GET', page(slug), { key })).json;
const tr = (article: any, language: string) => article.translations.find((x: { language: string }) => x.language === language);
const publicJson = (slug: string, language: string) => t.request('GET', `/api/public/v1/channels/news/articles/${slug}?lang=${language}`);
const listItem = async (slug: string) =>
  ((await t.request('GET', '/api/v1/channels/news/pages?limit=100', { key })).json.pages as Array<{ slug: string }>).find((p) => p.slug === slug) as any;

async function create(slug: string, translations: unknown[], status = 'published') {
  const res = await t.request('POST', '/api/v1/channels/news/pages', { key, body: { slug, default_language: 'en', status, translations } });
  expect(res.status, res.text).toBe(201);
  await settle();
  return res.json;
}

describe('a refused revision of published content', () => {
  it.each([
    ['fr', 'secondary'],
    ['en', 'primary'],
  ])('%s (%s): stays published with the public text; pending_revision shows the refusal and why', async (language, role) => {
    const slug = `refused-${role}`;
    await create(slug, [{ ...en('Public title'), excerpt: 'Public excerpt' }, { ...fr('Titre public'), excerpt: 'Public excerpt' }]);
    expect((await read(slug)).status).toBe('published');
    const before = (await publicJson(slug, language)).json;
    const put = await t.request('PUT', `${page(slug)}/translations/${language}`, {
      key,
      body: { title: 'Refused title', excerpt: 'Refused excerpt', content_markdown: 'Win a casino bonus today.' },
    });
    expect(put.status, put.text).toBe(200);
    // While the check is queued, the revision waits and the article is not settled.
    expect(tr(put.json, language).pending_revision).toMatchObject({ status: 'moderation_review', moderation: 'pending', reason: null, decided_at: null });
    expect(put.json.translation_status_summary).toMatchObject({ revisions_in_review: [language], all_translations_settled: false });
    expect(put.json.moderation).toBe('pending');
    await settle();

    const article = await read(slug);
    const translation = tr(article, language);
    expect(translation).toMatchObject({ status: 'published', moderation: 'blocked', title: before.title, excerpt: 'Public excerpt' });
    expect(translation.content_markdown).not.toMatch(/casino/);
    expect(translation.content_html).not.toMatch(/casino/);
    expect(translation.pending_revision).toMatchObject({
      number: 2,
      status: 'moderation_blocked',
      moderation: 'blocked',
      reason: expect.stringMatching(/^blocked_term: "casino bonus"/),
      title: 'Refused title',
      decided_at: expect.any(String),
    });
    expect(article).toMatchObject({ status: 'published', moderation: 'blocked' });
    expect(article.translation_status_summary).toMatchObject({
      published: ['en', 'fr'],
      moderation_blocked: [],
      revisions_blocked: [language],
      revisions_in_review: [],
      all_translations_settled: true,
    });
    expect((await listItem(slug)).moderation).toBe('blocked');
    const after = await publicJson(slug, language);
    expect(after.status).toBe(200);
    expect(after.json.title).toBe(before.title);
    expect(JSON.stringify(after.json)).not.toMatch(/casino|Refused/);

    // The next submission replaces the refused one.
    const edit = await t.request('PUT', `${page(slug)}/translations/${language}`, { key, body: { title: 'Fixed title', content_markdown: 'Fixed.' } });
    expect(edit.status, edit.text).toBe(200);
    await settle();
    const fixed = tr(await read(slug), language);
    expect(fixed).toMatchObject({ status: 'published', moderation: 'passed', pending_revision: null, title: 'Fixed title' });
    expect((await publicJson(slug, language)).json).toMatchObject({ title: 'Fixed title' });
  });

  it('stays until an unpublish, after which the draft reads moderation none', async () => {
    await create('refused-unpublish', [en('Kept')]);
    await t.request('PUT', `${page('refused-unpublish')}/translations/en`, { key, body: { title: 'Kept', content_markdown: 'buy followers now' } });
    await settle();
    expect(tr(await read('refused-unpublish'), 'en').pending_revision).toMatchObject({ status: 'moderation_blocked' });
    const res = await t.request('PATCH', `${page('refused-unpublish')}/status`, { key, body: { status: 'draft' } });
    expect(res.status, res.text).toBe(200);
    const article = await read('refused-unpublish');
    expect(tr(article, 'en')).toMatchObject({ status: 'draft', moderation: 'none', pending_revision: null });
    expect(article.moderation).toBe('none');
  });
});

describe('a translation waiting for a person', () => {
  it('reads manual_review (settled) until an administrator approves it', async () => {
    await create('manual-fr', [en('Clean'), fr('Procès', 'Un lawsuit en cours.')]);
    const article = await read('manual-fr');
    expect(tr(article, 'en')).toMatchObject({ status: 'published', moderation: 'passed' });
    expect(tr(article, 'fr')).toMatchObject({ status: 'moderation_review', moderation: 'manual_review', pending_revision: null });
    expect(article.moderation).toBe('manual_review');
    expect(article.translation_status_summary).toMatchObject({ manual_review: ['fr'], moderation_review: ['fr'], all_translations_settled: true });
    expect((await publicJson('manual-fr', 'fr')).status).toBe(404);

    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'news', article: 'manual-fr', language: 'fr' }, 'pass');
    await settle();
    const approved = await read('manual-fr');
    expect(tr(approved, 'fr')).toMatchObject({ status: 'published', moderation: 'passed' });
    expect(approved).toMatchObject({ moderation: 'passed' });
    expect(approved.translation_status_summary).toMatchObject({ manual_review: [], all_translations_published: true });
    expect((await publicJson('manual-fr', 'fr')).status).toBe(200);
  });

  it('a revision of published content for a person carries its reason; a block shows it refused', async () => {
    await create('manual-revision', [en('Clean')]);
    await t.request('PUT', `${page('manual-revision')}/translations/en`, { key, body: { title: 'Clean', content_markdown: 'About the lawsuit.' } });
    await settle();
    const waiting = await read('manual-revision');
    expect(tr(waiting, 'en').pending_revision).toMatchObject({ status: 'moderation_review', moderation: 'manual_review', reason: expect.stringMatching(/^review_term/) });
    expect(waiting.translation_status_summary).toMatchObject({ manual_review: ['en'], revisions_in_review: ['en'], all_translations_settled: true });

    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'news', article: 'manual-revision', language: 'en' }, 'block', 'not now');
    const blocked = await read('manual-revision');
    expect(tr(blocked, 'en')).toMatchObject({ status: 'published', moderation: 'blocked' });
    expect(tr(blocked, 'en').content_markdown).not.toMatch(/lawsuit/);
    expect(tr(blocked, 'en').pending_revision).toMatchObject({ status: 'moderation_blocked', reason: 'manual: not now' });
  });
});

describe('an approved revision of published content', () => {
  it('becomes the public version', async () => {
    await create('manual-revision-ok', [en('Clean')]);
    await t.request('PUT', `${page('manual-revision-ok')}/translations/en`, { key, body: { title: 'Revised', content_markdown: 'About the lawsuit.' } });
    await settle();
    expect(tr(await read('manual-revision-ok'), 'en').moderation).toBe('manual_review');
    expect((await publicJson('manual-revision-ok', 'en')).json.title).toBe('Clean');
    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'news', article: 'manual-revision-ok', language: 'en' }, 'pass');
    await settle();
    const article = await read('manual-revision-ok');
    expect(tr(article, 'en')).toMatchObject({ status: 'published', moderation: 'passed', pending_revision: null, title: 'Revised' });
    expect(article.translation_status_summary).toMatchObject({ manual_review: [], revisions_in_review: [], revisions_blocked: [] });
    expect((await publicJson('manual-revision-ok', 'en')).json.title).toBe('Revised');
  });
});

describe('a secondary approved while the primary is blocked', () => {
  it('reads waiting_for_primary (settled) and is published with the fixed primary', async () => {
    await create('held', [en('Casino bonus inside'), fr('Propre')]);
    const article = await read('held');
    expect(article).toMatchObject({ status: 'draft', moderation: 'blocked' });
    expect(tr(article, 'en')).toMatchObject({ status: 'moderation_blocked', moderation: 'blocked' });
    expect(tr(article, 'fr')).toMatchObject({ status: 'moderation_review', moderation: 'waiting_for_primary' });
    expect(article.translation_status_summary).toMatchObject({ waiting_for_primary: ['fr'], moderation_blocked: ['en'], all_translations_settled: true });
    expect((await publicJson('held', 'fr')).status).toBe(404);

    const fix = await t.request('PUT', `${page('held')}/translations/en`, { key, body: { title: 'Clean now', content_markdown: 'Clean.', status: 'published' } });
    expect(fix.status, fix.text).toBe(200);
    await settle();
    const out = await read('held');
    expect(out).toMatchObject({ status: 'published', moderation: 'passed' });
    expect(out.translation_status_summary).toMatchObject({ published: ['en', 'fr'], waiting_for_primary: [], all_translations_settled: true });
    expect((await publicJson('held', 'fr')).status).toBe(200);
  });

  it('a secondary approved by a person while the primary is blocked also waits', async () => {
    await create('held-manual', [en('Casino bonus again'), fr('Procès', 'Un lawsuit.')]);
    expect(tr(await read('held-manual'), 'fr').moderation).toBe('manual_review');
    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'news', article: 'held-manual', language: 'fr' }, 'pass');
    const article = await read('held-manual');
    expect(tr(article, 'fr')).toMatchObject({ status: 'moderation_review', moderation: 'waiting_for_primary' });
    expect(article.moderation).toBe('blocked');
  });
});

describe('a draft', () => {
  it('reads moderation none, at article and translation level and in the list', async () => {
    const created = await create('just-a-draft', [en('Draft'), fr('Brouillon')], 'draft');
    expect(created.moderation).toBe('none');
    expect(created.translations.map((x: { moderation: string }) => x.moderation)).toEqual(['none', 'none']);
    expect(created.translation_status_summary).toMatchObject({ all_translations_settled: true, manual_review: [], revisions_blocked: [] });
    expect((await listItem('just-a-draft')).moderation).toBe('none');
  });
});
