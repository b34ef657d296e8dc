/**
 * The asynchronous lifecycle over real HTTP: moderation, manual review,
 * scheduling with plan pauses, revisions, unpublishing, and the publication
 * events each public change emits. Jobs run through the real worker
 * (`runDue`) and time moves on the injectable clock: no sleeping.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideManualReview } from '../../server/domain/article/moderation.service.ts';
import { pauseSchedulesIfPlanDisallows } from '../../server/domain/article/schedule.service.ts';
import { findAccountByName, updateAccount } from '../../server/store/account.repository.ts';
import { listEvents } from '../../server/store/publication-event.repository.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
let rulesDir: string;

const HOUR = 3_600_000;
const en = (title: string, body = '## Part\n\nInnocuous text.') => ({ language: 'en', title, content_markdown: body });
const fr = (title: string, body = '## Partie\n\nTexte.') => ({ language: 'fr', title, content_markdown: body });

async function write(slug: string, body: Record<string, unknown>, k = key) {
  const res = await t.request('POST', '/api/v1/channels/life/pages', { key: k, body: { slug, default_language: 'en', ...body } });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json;
}
const read = async (slug: string) => (await t.request('GET', `/api/v1/channels/life/pages/${slug}`, { key })).json;
const status = (slug: string, body: Record<string, unknown>) =>
  t.request('PATCH', `/api/v1/channels/life/pages/${slug}/status`, { key, body });
const runJobs = () => t.service.worker.runDue();

async function publicTitle(slug: string, language = 'en'): Promise<string | null> {
  const row = await t.service.db
    .selectFrom('article_translations')
    .innerJoin('articles', 'articles.id', 'article_translations.article_id')
    .leftJoin('revisions', 'revisions.id', 'article_translations.published_revision_id')
    .select('revisions.title')
    .where('articles.slug', '=', slug)
    .where('article_translations.language', '=', language)
    .executeTakeFirst();
  return row?.title ?? null;
}

beforeAll(async () => {
  rulesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-rules-'));
  const rules = path.join(rulesDir, 'rules.json');
  fs.writeFileSync(rules, JSON.stringify({ blocked_terms: ['forbiddenword'], review_terms: ['needsaperson'] }));
  t = await startTestService({ PRESSROOM_MODERATION_FILE: rules });
  key = await t.key('lifer', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: 'life', default_language: 'en', translations: [{ language: 'en', title: 'Life' }, { language: 'fr', title: 'Vie' }] },
  });
  expect(ch.status).toBe(201);
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(rulesDir, { recursive: true, force: true });
});

describe('moderation outcomes, polled over HTTP', () => {
  it('innocuous content passes and is published', async () => {
    const created = await write('clean', { status: 'published', translations: [en('Clean'), fr('Propre')] });
    expect(created.status).toBe('moderation_review');
    expect(created.moderation).toBe('pending');
    await runJobs();
    const article = await read('clean');
    expect(article).toMatchObject({ status: 'published', moderation: 'passed' });
    expect(article.published_at).toBe(t.clock.now().toISOString());
    expect(article.translation_status_summary).toMatchObject({ published: ['en', 'fr'], all_translations_published: true });
    expect(article.translations.map((x: { status: string }) => x.status)).toEqual(['published', 'published']);
    expect(await publicTitle('clean', 'fr')).toBe('Propre');
  });

  it('a blocked term blocks the translation, reported in the summary', async () => {
    await write('blocked', { status: 'published', translations: [en('Blocked', 'Text with forbiddenword inside.')] });
    await runJobs();
    const article = await read('blocked');
    expect(article).toMatchObject({ status: 'draft', moderation: 'blocked' });
    expect(article.translation_status_summary.moderation_blocked).toEqual(['en']);
    expect(article.translations[0].status).toBe('moderation_blocked');
    expect(await publicTitle('blocked')).toBeNull();
  });

  it('a review term waits for a person, who can approve it', async () => {
    await write('review', { status: 'published', translations: [en('Review', 'This needsaperson to look.')] });
    await runJobs();
    expect(await read('review')).toMatchObject({ status: 'moderation_review', moderation: 'manual_review' });
    await runJobs(); // Nothing is re-run while it waits.
    expect((await read('review')).moderation).toBe('manual_review');
    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'life', article: 'review', language: 'en' }, 'pass');
    expect(await read('review')).toMatchObject({ status: 'published', moderation: 'passed' });
  });

  it('an account flagged for review waits for a person, who can block it', async () => {
    const flaggedKey = await t.key('flagged', 'pro');
    const account = (await findAccountByName(t.service.db, 'flagged'))!;
    await updateAccount(t.service.db, account.id, { review_required: 1 });
    const ch = await t.request('POST', '/api/v1/channels', { key: flaggedKey, body: { slug: 'flagged', default_language: 'en', translations: [{ language: 'en', title: 'F' }] } });
    expect(ch.status).toBe(201);
    await t.request('POST', '/api/v1/channels/flagged/pages', { key: flaggedKey, body: { slug: 'f1', default_language: 'en', status: 'published', translations: [en('F1')] } });
    await runJobs();
    const waiting = await t.request('GET', '/api/v1/channels/flagged/pages/f1', { key: flaggedKey });
    expect(waiting.json.moderation).toBe('manual_review');
    await decideManualReview({ db: t.service.db, clock: t.clock }, { channel: 'flagged', article: 'f1', language: 'en' }, 'block', 'off-topic');
    const blocked = await t.request('GET', '/api/v1/channels/flagged/pages/f1', { key: flaggedKey });
    expect(blocked.json.translation_status_summary.moderation_blocked).toEqual(['en']);
  });
});

describe('scheduling', () => {
  it('moderates at once, then publishes when the time comes, not before', async () => {
    const at = new Date(t.clock.now().getTime() + HOUR).toISOString();
    await write('sched', { status: 'scheduled', scheduled_at: at, translations: [en('Sched'), fr('Planifié')] });
    await runJobs();
    expect(await read('sched')).toMatchObject({ status: 'scheduled', scheduled_at: at, scheduled_paused: false });
    expect((await read('sched')).translation_status_summary.all_translations_scheduled).toBe(true);
    t.clock.advance(HOUR - 1000);
    await runJobs();
    expect((await read('sched')).status).toBe('scheduled');
    expect(await publicTitle('sched')).toBeNull();
    t.clock.advance(1000);
    await runJobs();
    const article = await read('sched');
    expect(article).toMatchObject({ status: 'published', scheduled_at: null, published_at: at });
    expect(article.translation_status_summary.published).toEqual(['en', 'fr']);
  });

  it('a plan that loses scheduling pauses the schedule; it is never published retroactively', async () => {
    const planKey = await t.key('downgrader', 'pro');
    await t.request('POST', '/api/v1/channels', { key: planKey, body: { slug: 'plans', default_language: 'en', translations: [{ language: 'en', title: 'P' }] } });
    const at = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const get = async () => (await t.request('GET', '/api/v1/channels/plans/pages/p1', { key: planKey })).json;
    await t.request('POST', '/api/v1/channels/plans/pages', { key: planKey, body: { slug: 'p1', default_language: 'en', status: 'scheduled', scheduled_at: at, translations: [en('P1')] } });
    await runJobs();
    expect((await get()).status).toBe('scheduled');

    const account = (await findAccountByName(t.service.db, 'downgrader'))!;
    await updateAccount(t.service.db, account.id, { plan: 'free' });
    expect(await pauseSchedulesIfPlanDisallows(t.service.db, t.clock, account.id)).toBe(1);
    expect(await get()).toMatchObject({ status: 'scheduled', scheduled_paused: true, scheduled_pause_reason: 'account_plan' });

    t.clock.advance(2 * HOUR);
    await runJobs();
    await updateAccount(t.service.db, account.id, { plan: 'pro' });
    await runJobs();
    expect(await get()).toMatchObject({ status: 'scheduled', scheduled_paused: true, published_at: null });

    // After the upgrade, a manual publish is what brings it out.
    const res = await t.request('PATCH', '/api/v1/channels/plans/pages/p1/status', { key: planKey, body: { status: 'published' } });
    expect(res.json).toMatchObject({ status: 'moderation_review', scheduled_paused: false });
    await runJobs();
    expect((await get()).status).toBe('published');
  });

  it('the schedule pauses by itself when the plan changed without the pause step', async () => {
    const k = await t.key('silent-downgrade', 'pro');
    await t.request('POST', '/api/v1/channels', { key: k, body: { slug: 'silent', default_language: 'en', translations: [{ language: 'en', title: 'S' }] } });
    const at = new Date(t.clock.now().getTime() + HOUR).toISOString();
    await t.request('POST', '/api/v1/channels/silent/pages', { key: k, body: { slug: 's1', default_language: 'en', status: 'scheduled', scheduled_at: at, translations: [en('S1')] } });
    await runJobs();
    const account = (await findAccountByName(t.service.db, 'silent-downgrade'))!;
    await updateAccount(t.service.db, account.id, { plan: 'free' });
    t.clock.advance(HOUR);
    await runJobs();
    const article = (await t.request('GET', '/api/v1/channels/silent/pages/s1', { key: k })).json;
    expect(article).toMatchObject({ status: 'scheduled', scheduled_paused: true, scheduled_pause_reason: 'account_plan', published_at: null });
  });
});

describe('revisions of published content', () => {
  it('keeps the published version public until the revision passes', async () => {
    await write('rev', { status: 'published', translations: [en('Rev v1')] });
    await runJobs();
    const put = await t.request('PUT', '/api/v1/channels/life/pages/rev/translations/en', { key, body: { title: 'Rev v2', content_markdown: 'New text.' } });
    expect(put.status).toBe(200);
    expect(put.json.translations[0]).toMatchObject({ status: 'published', title: 'Rev v2' });
    expect(put.json.translations[0].pending_revision).toMatchObject({ number: 2, status: 'moderation_review', moderation: 'pending', title: 'Rev v2' });
    expect(await publicTitle('rev')).toBe('Rev v1');
    await runJobs();
    const after = await read('rev');
    expect(after.translations[0].pending_revision).toBeNull();
    expect(await publicTitle('rev')).toBe('Rev v2');
  });

  it('a blocked revision leaves the public version untouched', async () => {
    await write('rev-block', { status: 'published', translations: [en('Good v1')] });
    await runJobs();
    await t.request('PUT', '/api/v1/channels/life/pages/rev-block/translations/en', { key, body: { title: 'Bad v2', content_markdown: 'forbiddenword' } });
    await runJobs();
    const after = await read('rev-block');
    expect(after).toMatchObject({ status: 'published', moderation: 'blocked' });
    // Issue 13: the refusal is reported in pending_revision, and the translation shows the public version.
    expect(after.translations[0].pending_revision).toMatchObject({ number: 2, status: 'moderation_blocked', moderation: 'blocked', title: 'Bad v2' });
    expect(after.translations[0]).toMatchObject({ status: 'published', moderation: 'blocked', title: 'Good v1' });
    expect(await publicTitle('rev-block')).toBe('Good v1');
  });
});

describe('publication events (outbox)', () => {
  it('emits one event per public change: pass, schedule, revision, unpublish, archive, channel change', async () => {
    const before = (await listEvents(t.service.db)).length;
    await write('events', { status: 'published', translations: [en('Events'), fr('Événements')] });
    await runJobs(); // both languages pass
    await t.request('PUT', '/api/v1/channels/life/pages/events/translations/en', { key, body: { title: 'Events v2', content_markdown: 'Changed.' } });
    await runJobs(); // revision accepted
    await status('events', { status: 'draft', publish_translations: true }); // unpublish both
    await write('archived', { status: 'published', translations: [en('Archived')] });
    await runJobs();
    await status('archived', { status: 'archived' });
    await t.request('PATCH', '/api/v1/channels/life', { key, body: { homepage_enabled: false } });

    const events = (await listEvents(t.service.db)).slice(before).map((e) => `${e.kind}:${e.articleId === null ? '-' : 'a'}:${e.languages.join(',')}`);
    expect(events).toEqual([
      'article_public_changed:a:en',
      'article_public_changed:a:fr',
      'article_public_changed:a:en',
      'article_public_changed:a:en',
      'article_public_changed:a:fr',
      'article_public_changed:a:en',
      'article_public_changed:a:en',
      'channel_changed:-:',
    ]);
  });

  it('a draft change emits nothing: nothing public changed', async () => {
    const before = (await listEvents(t.service.db)).length;
    await write('quiet', { translations: [en('Quiet')] });
    await write('quiet', { translations: [en('Quiet 2')] });
    await runJobs();
    expect((await listEvents(t.service.db)).length).toBe(before);
  });
});
