/**
 * The dashboard's moderation queue over real HTTP (issue 37, "Moderation
 * queue"): administrators only, what waits with its reason, approve or block
 * with a note through the same decision as `admin moderation`, logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administratorCommand } from '../../server/admin/account-commands.ts';
import { reviewCommand } from '../../server/admin/lifecycle-commands.ts';
import { findAccountByName } from '../../server/store/account.repository.ts';
import { isAdministrator } from '../../server/store/session.repository.ts';
import { accountWithPassword, createArticle, createChannel, signInForVisits } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let anaKey: string;

const signedIn = (account: string) => signInForVisits(t, account);

const page = async (slug: string) => (await t.request('GET', `/api/v1/channels/ana-news/pages/${slug}`, { key: anaKey })).json;

beforeAll(async () => {
  t = await startTestService();
  anaKey = await accountWithPassword(t, 'ana', 'pro');
  await accountWithPassword(t, 'mod', 'free');
  const deps = { db: t.service.db, clock: t.clock };
  expect((await administratorCommand(deps, { account: 'mod', on: true })).stdout).toContain('"mod" is now an administrator');
  await reviewCommand(deps, { account: 'ana', on: true });
  await createChannel(t, anaKey, 'Ana news');
  for (const slug of ['first', 'second']) {
    await createArticle(t, anaKey, 'ana-news', { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `The ${slug} story`, content_markdown: 'Text.' }] });
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
