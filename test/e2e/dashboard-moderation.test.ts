/**
 * The dashboard's moderation queue over real HTTP (issue 37, "Moderation
 * queue"): administrators only, what waits with its reason, approve or block
 * with a note through the same decision as `admin moderation`, logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administratorCommand } from '../../server/admin/account-commands.ts';
import { reviewCommand } from '../../server/admin/lifecycle-commands.ts';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { SESSION_COOKIE } from '../../server/http/dashboard/dashboard-session.ts';
import { findAccountByName } from '../../server/store/account.repository.ts';
import { isAdministrator } from '../../server/store/session.repository.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const PASSWORD = 'correct horse battery staple';
let t: TestService;
let anaKey: string;

async function signedIn(account: string) {
  const login = await fetch(`${t.url}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account, password: PASSWORD }).toString(),
  });
  expect(login.status).toBe(303);
  const token = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(login.headers.getSetCookie().join('\n'))![1];
  return async (path: string, form?: Record<string, string>) => {
    const res = await fetch(`${t.url}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: `${SESSION_COOKIE}=${token}`, ...(form ? { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.status, text: await res.text() };
  };
}

const page = async (slug: string) => (await t.request('GET', `/api/v1/channels/ana-news/pages/${slug}`, { key: anaKey })).json;

beforeAll(async () => {
  t = await startTestService();
  anaKey = await t.key('ana', 'pro');
  await t.key('mod', 'free');
  const deps = { db: t.service.db, clock: t.clock };
  for (const name of ['ana', 'mod']) await setPassword(deps, name, PASSWORD);
  expect((await administratorCommand(deps, { account: 'mod', on: true })).stdout).toContain('"mod" is now an administrator');
  await reviewCommand(deps, { account: 'ana', on: true });
  expect((await t.request('POST', '/api/v1/channels', { key: anaKey, body: { default_language: 'en', translations: [{ language: 'en', title: 'Ana news' }] } })).status).toBe(201);
  for (const slug of ['first', 'second']) {
    const created = await t.request('POST', '/api/v1/channels/ana-news/pages', {
      key: anaKey,
      body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `The ${slug} story`, content_markdown: 'Text.' }] },
    });
    expect(created.status, created.text).toBe(201);
  }
  await t.service.worker.runDue();
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the moderation queue', () => {
  it('is for administrators only: the first run makes "local" one, anyone else gets a 404', async () => {
    const local = await findAccountByName(t.service.db, 'local');
    expect(await isAdministrator(t.service.db, local!.id)).toBe(true);
    const ana = await signedIn('ana');
    expect((await ana('/dashboard')).text).not.toContain('/dashboard/moderation');
    expect((await ana('/dashboard/moderation')).status).toBe(404);
    expect((await ana('/dashboard/moderation/decide', { channel: 'ana-news', article: 'first', language: 'en', outcome: 'pass' })).status).toBe(404);
    expect((await page('first')).moderation).toBe('manual_review');
  });

  it('lists what waits with its reason, blocks with a note and approves, once each', async () => {
    const mod = await signedIn('mod');
    const home = await mod('/dashboard');
    expect(home.text).toContain('<a href="/dashboard/moderation">Moderation</a>');
    const queue = await mod('/dashboard/moderation');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain('2 translations wait for a person');
    expect(queue.text).toContain('The first story');
    expect(queue.text).toContain('ana-news / first (en)');
    const blocked = await mod('/dashboard/moderation/decide', { channel: 'ana-news', article: 'first', language: 'en', outcome: 'block', note: 'Unsourced <claims>' });
    expect(blocked.status).toBe(200);
    expect(blocked.text).toContain('Blocked ana-news/first (en).');
    expect(blocked.text).toContain('One translation waits');
    const first = await page('first');
    expect(first.moderation).toBe('blocked');
    expect(first.translations[0].status).toBe('moderation_blocked');
    // The note is the decision's reason, kept with the revision.
    const reasons = await t.service.db.selectFrom('revisions').select(['moderation_state', 'moderation_reason', 'decided_at']).execute();
    expect(reasons).toContainEqual({ moderation_state: 'blocked', moderation_reason: 'manual: Unsourced <claims>', decided_at: t.clock.now().toISOString() });
    const approved = await mod('/dashboard/moderation/decide', { channel: 'ana-news', article: 'second', language: 'en', outcome: 'pass' });
    expect(approved.text).toContain('Approved ana-news/second (en)');
    expect(approved.text).toContain('Nothing waits for a person.');
    expect((await page('second')).status).toBe('published');
    const again = await mod('/dashboard/moderation/decide', { channel: 'ana-news', article: 'second', language: 'en', outcome: 'block' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('someone decided it already');
    expect((await page('second')).status).toBe('published');
    expect((await mod('/dashboard/moderation/decide', { channel: 'ana-news', article: 'second', language: 'en', outcome: 'maybe' })).status).toBe(422);
  });

  it('stops when the administrator is made an ordinary account again', async () => {
    const deps = { db: t.service.db, clock: t.clock };
    expect((await administratorCommand(deps, { account: 'mod', on: false })).stdout).toContain('"mod" is now no administrator');
    const mod = await signedIn('mod');
    expect((await mod('/dashboard/moderation')).status).toBe(404);
  });
});
