/**
 * The publishing spec's state table, row by row (server/domain/article/state-table.ts,
 * docs/LIFECYCLE.md), over real HTTP with the moderation rules of
 * docs/moderation.example.json: each row is one article brought into its
 * starting state, written to, moderated, and then asserted in the publishing
 * API (article status, translations[].status, the summary, the warning) and in
 * what readers get (public JSON, Markdown and HTML) together. One service;
 * every row has its own article; the manual clock drives the schedules.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listManualReviews } from '../../server/domain/article/moderation.service.ts';
import { pauseSchedulesIfPlanDisallows } from '../../server/domain/article/schedule.service.ts';
import { WITHDRAWN_UNTIL_SCHEDULED } from '../../server/domain/article/schedule-warning.ts';
import { SCHEDULING_WRITES, STATE_TABLE, type Outcome, type StateTableRow } from '../../server/domain/article/state-table.ts';
import { findAccountByName, updateAccount } from '../../server/store/account.repository.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const HOUR = 3_600_000;
let t: TestService;
let key: string;
let pausedKey: string;
let T0: number;
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

/** Texts the example policy passes, blocks ("casino bonus") and sends to a person ("lawsuit"). */
const TEXT: Record<Outcome, string> = { pass: 'Plain words about gardens.', block: 'Win a casino bonus today.', manual: 'Notes on the lawsuit.', '-': 'Plain words about gardens.' };

interface Case {
  readonly name: string;
  readonly row: StateTableRow;
  readonly slug: string;
  readonly channel: string;
  readonly key: () => string;
  readonly language: string;
  /** The write's answer, once made. */
  response?: { status: number; json: any; text: string };
}

const cases: Case[] = STATE_TABLE.map((row, i) => {
  const paused = row.from === 'scheduled_paused';
  return {
    name: `${i + 1}. ${row.from} | ${row.write} | ${row.outcome} | ${row.role} → ${row.refused ? `422 ${row.refused}` : `${row.status}, article ${row.article}, ${row.public ? 'public' : 'not public'}`}`,
    row,
    slug: `row-${i + 1}`,
    channel: paused ? 'stp' : 'st',
    key: () => (paused ? pausedKey : key),
    language: row.role === 'primary' ? 'en' : 'fr',
  };
});

const item = (language: string, text: string, version = 1) => ({ language, title: `${language} ${version}`, content_markdown: `${text}\n\nVersion ${version}.` });
/** The translations of a case's article, the subject's text chosen by `outcome`. */
function translations(c: Case, outcome: Outcome, version = 1) {
  return c.row.role === 'primary' ? [item('en', TEXT[outcome], version)] : [item('en', TEXT.pass, version), item('fr', TEXT[outcome], version)];
}
const pages = (c: Case) => `/api/v1/channels/${c.channel}/pages`;
const post = (c: Case, body: object) => t.request('POST', pages(c), { key: c.key(), body: { slug: c.slug, default_language: 'en', ...body } });
const patch = (c: Case, body: object) =>
  t.request('PATCH', `${pages(c)}/${c.slug}/status`, { key: c.key(), body: { ...(c.row.role === 'secondary' && { publish_translations: true }), ...body } });
const put = (c: Case, language: string, { language: _omit, ...body }: ReturnType<typeof item>) =>
  t.request('PUT', `${pages(c)}/${c.slug}/translations/${language}`, { key: c.key(), body });

async function ok(res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  expect(r.status, r.text).toBeLessThan(300);
}

async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

/** First step towards the starting state: what needs moderation to have run. */
async function createStart(c: Case): Promise<void> {
  const { from, outcome } = c.row;
  if (from === 'draft') await ok(post(c, { status: 'draft', translations: translations(c, outcome) }));
  if (from === 'scheduled' || from === 'scheduled_paused') await ok(post(c, { status: 'scheduled', scheduled_at: at(2), translations: translations(c, 'pass') }));
  if (from === 'published' || from === 'published_pending' || from === 'archived') await ok(post(c, { status: 'published', translations: translations(c, 'pass') }));
  if (from === 'moderation_blocked') await ok(post(c, { status: 'published', translations: translations(c, 'block') }));
}

/** Second step: what must still wait for moderation when the write comes. */
async function finishStart(c: Case): Promise<void> {
  const { from, outcome } = c.row;
  if (from === 'moderation_review') await ok(post(c, { status: 'published', translations: translations(c, outcome) }));
  if (from === 'published_pending') await ok(put(c, c.language, item(c.language, TEXT[outcome], 2)));
  if (from === 'archived') await ok(patch(c, { status: 'archived' }));
  if (from === 'moderation_blocked' && outcome !== 'block') await ok(put(c, c.language, item(c.language, TEXT[outcome], 2)));
}

async function write(c: Case): Promise<Case['response']> {
  const { write: w, outcome } = c.row;
  switch (w) {
    case 'create_draft':
      return post(c, { status: 'draft', translations: translations(c, outcome) });
    case 'create_publish':
      return post(c, { status: 'published', translations: translations(c, outcome) });
    case 'create_schedule':
      return post(c, { status: 'published', scheduled_at: at(3), translations: translations(c, outcome) });
    case 'upsert_schedule':
      // New content and a schedule in one request: the revision and the withdrawal come in the right order.
      return post(c, { status: 'scheduled', scheduled_at: at(3), translations: translations(c, outcome, 3) });
    case 'publish':
      return patch(c, { status: 'published' });
    case 'publish_at':
      return patch(c, { status: 'published', scheduled_at: at(3) });
    case 'schedule':
      return patch(c, { status: 'scheduled', scheduled_at: at(3) });
    case 'schedule_no_time':
      return patch(c, { status: 'scheduled' });
    case 'request_review':
      return patch(c, { status: 'moderation_review' });
    case 'schedule_primary_only':
      return patch(c, { status: 'scheduled', scheduled_at: at(3), publish_translations: false });
    case 'draft':
      return patch(c, { status: 'draft' });
    case 'draft_primary_only':
      return patch(c, { status: 'draft', publish_translations: false });
    case 'archive':
      return patch(c, { status: 'archived' });
    case 'revise':
      return put(c, c.language, item(c.language, TEXT[outcome], 4));
    case 'time_arrives':
      return undefined;
  }
}

/** The publishing API's answer and what readers get, for one case. */
async function observe(c: Case) {
  const article = (await t.request('GET', `${pages(c)}/${c.slug}`, { key: c.key() })).json;
  const translation = article.translations.find((x: { language: string }) => x.language === c.language);
  const base = `/api/public/v1/channels/${c.channel}/articles/${c.slug}`;
  const [json, md, html] = await Promise.all(
    [`${base}?lang=${c.language}`, `${base}.md?lang=${c.language}`, `/${c.channel}/${c.language}/${c.slug}`].map(async (url) => (await t.request('GET', url)).status),
  );
  return {
    status: translation.status,
    moderation: translation.moderation,
    // Once moderation and the build have run, nothing waits for automatic work.
    settled: article.translation_status_summary.all_translations_settled,
    article: article.status,
    inSummary: article.translation_status_summary[translation.status].includes(c.language),
    public: { json: json === 200, md: md === 200, html: html === 200 },
  };
}

function expectRow(c: Case, seen: Awaited<ReturnType<typeof observe>>): void {
  const { row } = c;
  expect(seen).toEqual({ status: row.status, moderation: row.moderation, settled: true, article: row.article, inSummary: true, public: { json: row.public, md: row.public, html: row.public } });
}

beforeAll(async () => {
  t = await startTestService({
    PRESSROOM_STATIC_BUILD: 'true',
    PRESSROOM_RATE_LIMIT_CONTENT: '0',
    PRESSROOM_MODERATION_FILE: path.resolve('docs/moderation.example.json'),
  });
  T0 = t.clock.now().getTime();
  key = await t.key('table', 'pro');
  pausedKey = await t.key('table-paused', 'pro');
  await ok(t.request('POST', '/api/v1/channels', { key, body: { slug: 'st', default_language: 'en', translations: [{ language: 'en', title: 'State table' }] } }));
  await ok(t.request('POST', '/api/v1/channels', { key: pausedKey, body: { slug: 'stp', default_language: 'en', translations: [{ language: 'en', title: 'Paused' }] } }));

  for (const c of cases) await createStart(c);
  await settle();
  // The paused rows: the owner's plan lost scheduling, then came back; the schedules stay paused.
  const owner = (await findAccountByName(t.service.db, 'table-paused'))!;
  await updateAccount(t.service.db, owner.id, { plan: 'free' });
  await pauseSchedulesIfPlanDisallows(t.service.db, t.clock, owner.id);
  await updateAccount(t.service.db, owner.id, { plan: 'pro' });
  for (const c of cases) await finishStart(c);
  for (const c of cases) c.response = await write(c);
  await settle();
}, 120_000);
afterAll(async () => t?.stop());

describe('the state table over HTTP: the answer to the write', () => {
  it.each(cases.filter((c) => c.row.write !== 'time_arrives').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const res = c.response!;
    if (c.row.refused) {
      expect(res.status, res.text).toBe(422);
      expect(Object.keys(res.json.error.details.fields)).toEqual([c.row.refused]);
      return;
    }
    expect(res.status, res.text).toBeLessThan(300);
    const withdrawn = SCHEDULING_WRITES.has(c.row.write) && c.row.publishedBefore;
    expect(res.json.warnings.map((w: { code: string }) => w.code).includes(WITHDRAWN_UNTIL_SCHEDULED)).toBe(withdrawn);
  });
});

describe('the state table over HTTP: reported and public, after moderation', () => {
  it.each(cases.filter((c) => c.row.write !== 'time_arrives').map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expectRow(c, await observe(c));
  });
});

describe('the state table over HTTP: when the scheduled time arrives', () => {
  it.each(cases.filter((c) => c.row.write === 'time_arrives').map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    // Every other row was asserted before the clock moved (vitest runs these blocks in order).
    if (t.clock.now().getTime() < T0 + 5 * HOUR) {
      t.clock.set(new Date(T0 + 5 * HOUR));
      await settle();
    }
    expectRow(c, await observe(c));
  });
});

describe('a submission dropped by a status change', () => {
  it('is not left waiting for a person: a draft is not in the manual-review list', async () => {
    const c: Case = { ...cases[0]!, slug: 'manual-then-draft' };
    await ok(post(c, { status: 'published', translations: translations(c, 'manual') }));
    await settle();
    expect((await listManualReviews(t.service.db)).map((r) => r.article)).toContain('manual-then-draft');
    await ok(patch(c, { status: 'draft' }));
    await settle();
    expect((await listManualReviews(t.service.db)).map((r) => r.article)).not.toContain('manual-then-draft');
    expect(await observe(c)).toMatchObject({ status: 'draft', article: 'draft', public: { json: false } });
  });
});

describe('scheduling a published article, to its time', () => {
  it('leaves public view at once with a warning, and publishes its latest content (a pending revision) at the time', async () => {
    const c: Case = { ...cases[0]!, slug: 'resched', row: { ...cases[0]!.row, role: 'secondary' }, language: 'fr' };
    // After the clock moved: the schedule is relative to now.
    const now = t.clock.now().getTime();
    const when = new Date(now + 3 * HOUR).toISOString();
    await ok(post(c, { status: 'published', translations: translations(c, 'pass') }));
    await settle();
    await ok(put(c, 'fr', item('fr', 'Fresh words about roses.', 2)));
    const res = await patch(c, { status: 'scheduled', scheduled_at: when });
    expect(res.status, res.text).toBe(200);
    const warning = res.json.warnings.find((w: { code: string }) => w.code === WITHDRAWN_UNTIL_SCHEDULED);
    expect(warning).toMatchObject({ field: 'scheduled_at' });
    expect(warning.message).toContain('"en", "fr"');
    expect(warning.message).toContain(when);
    expect(res.json).toMatchObject({ status: 'moderation_review', scheduled_at: when, published_at: null });
    await settle();
    expect(await observe(c)).toMatchObject({ status: 'scheduled', article: 'scheduled', public: { json: false, md: false, html: false } });
    // Rescheduling goes through moderation again, then waits for the new time.
    const later = new Date(now + 4 * HOUR).toISOString();
    const again = await patch(c, { status: 'scheduled', scheduled_at: later });
    expect(again.json).toMatchObject({ status: 'moderation_review', scheduled_at: later, warnings: [] });
    await settle();
    expect((await t.request('GET', `${pages(c)}/${c.slug}`, { key })).json).toMatchObject({ status: 'scheduled', scheduled_at: later });
    t.clock.set(new Date(now + 3 * HOUR + 1000));
    await settle();
    expect(await observe(c)).toMatchObject({ status: 'scheduled', public: { json: false } });
    t.clock.set(new Date(now + 4 * HOUR + 1000));
    await settle();
    expect(await observe(c)).toMatchObject({ status: 'published', article: 'published', public: { json: true, md: true, html: true } });
    const fr = (await t.request('GET', `/api/public/v1/channels/st/articles/resched?lang=fr`)).json;
    expect(JSON.stringify(fr)).toContain('Fresh words about roses.');
  });
});
