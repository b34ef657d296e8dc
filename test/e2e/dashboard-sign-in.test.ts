/**
 * Signing in to the dashboard over real HTTP (issue 37, "Accounts that sign
 * in"): sessions in a `__Host-` cookie, CSRF refused from a foreign Origin,
 * sign-in throttled, sessions and API keys never standing for each other,
 * another account's article a 404, `edit_url` opening the article after
 * sign-in, sign-out and sign-out everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../server/domain/account/session.service.ts';
import { SESSION_COOKIE } from '../../server/http/dashboard/dashboard-session.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const PASSWORD = 'correct horse battery staple';

let t: TestService;
let anaKey: string;
let articleId: number;
let editUrl: string;

/** A browser's cookie jar of one cookie, and requests as a browser on the dashboard sends them. */
function browser(origin = t.url) {
  let cookie: string | undefined;
  const send = async (method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
        ...(method === 'GET' ? {} : { origin }),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (name === SESSION_COOKIE) cookie = value || undefined;
    }
    return { status: response.status, location: response.headers.get('location'), headers: response.headers, setCookie: response.headers.getSetCookie(), text: await response.text() };
  };
  return {
    send,
    get: (path: string) => send('GET', path),
    post: (path: string, form: Record<string, string> = {}, headers?: Record<string, string>) => send('POST', path, form, headers),
    signIn: (account: string, password = PASSWORD, next?: string) => send('POST', '/dashboard/login', { account, password, ...(next ? { next } : {}) }),
    get cookie() {
      return cookie;
    },
    set cookie(value: string | undefined) {
      cookie = value;
    },
  };
}

beforeAll(async () => {
  t = await startTestService();
  anaKey = await t.key('ana', 'pro');
  await t.key('ben', 'pro');
  await setPassword({ db: t.service.db, clock: t.clock }, 'ana', PASSWORD);
  await setPassword({ db: t.service.db, clock: t.clock }, 'ben', PASSWORD);
  expect((await t.request('POST', '/api/v1/channels', { key: anaKey, body: { default_language: 'en', translations: [{ language: 'en', title: 'Ana news' }] } })).status).toBe(201);
  const created = await t.request('POST', '/api/v1/channels/ana-news/pages', {
    key: anaKey,
    body: { slug: 'hello', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: 'Hello <world>', content_markdown: 'Hi.' }] },
  });
  expect(created.status).toBe(201);
  articleId = created.json.id;
  editUrl = created.json.edit_url;
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the dashboard sign-in', () => {
  it('sends a signed-out visitor of edit_url to sign in, and back to the article after', async () => {
    const path = new URL(editUrl).pathname;
    expect(path).toBe(`/dashboard/channels/ana-news/pages/${articleId}`);
    const b = browser();
    const first = await b.get(path);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/dashboard/login?next=${encodeURIComponent(path)}`);
    const form = await b.get(first.location!);
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.text).toContain(`name="next" value="${path}"`);
    const signedIn = await b.signIn('ana', PASSWORD, path);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(path);
    const cookie = signedIn.setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Domain=/);
    const article = await b.get(path);
    expect(article.status).toBe(200);
    // Escaped, as every value the pages show.
    expect(article.text).toContain('<h1>Hello &lt;world&gt;</h1>');
    expect(article.text).toContain('draft');
  });

  it('answers a wrong password or an unknown name alike, with a page that says what to do', async () => {
    const b = browser();
    const wrong = await b.signIn('ana', 'not the password at all');
    const unknown = await b.signIn('nobody-here', PASSWORD);
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.text).toContain('The account name or the password is wrong');
      expect(answer.setCookie).toEqual([]);
    }
  });

  it('throttles failed sign-ins to a name, then says how long to wait', async () => {
    const b = browser();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await b.signIn('ben', `wrong password ${i}`));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers[5]!.status).toBe(429);
    expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[5]!.text).toContain('Too many failed sign-ins');
    // Even the right password waits out the window: guessing cannot go on.
    expect((await b.signIn('ben', PASSWORD)).status).toBe(429);
    t.clock.advance(15 * 60_000);
    expect((await b.signIn('ben', PASSWORD)).status).toBe(303);
  });

  it('refuses a form posted from a foreign Origin, or with none, even with a valid session (CSRF)', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const before = (await b.get('/dashboard/account')).text.match(/<code>prk_/g)?.length ?? 0;
    const evil = browser('https://evil.example');
    evil.cookie = b.cookie;
    const refused = await evil.post('/dashboard/account/keys', { label: 'planted' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('not from the dashboard');
    const noOrigin = await fetch(`${t.url}/dashboard/account/keys`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${b.cookie}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'label=planted',
    });
    expect(noOrigin.status).toBe(403);
    // A foreign page cannot sign a browser in either (login CSRF).
    expect((await browser('https://evil.example').signIn('ana')).status).toBe(403);
    expect((await b.get('/dashboard/account')).text.match(/<code>prk_/g)?.length ?? 0).toBe(before);
  });

  it('never takes a session for an API key, nor an API key for a session', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const withCookie = await fetch(`${t.url}/api/v1/channels`, { headers: { cookie: `${SESSION_COOKIE}=${b.cookie}` } });
    expect(withCookie.status).toBe(401);
    const asBearer = await fetch(`${t.url}/api/v1/channels`, { headers: { authorization: `Bearer ${b.cookie}` } });
    expect(asBearer.status).toBe(401);
    const keyHeaders: Array<Record<string, string>> = [{ authorization: `Bearer ${anaKey}` }, { 'x-api-key': anaKey }, { cookie: `${SESSION_COOKIE}=${anaKey}` }];
    for (const headers of keyHeaders) {
      const answer = await fetch(`${t.url}/dashboard/account`, { headers, redirect: 'manual' });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toMatch(/^\/dashboard\/login\?next=/);
    }
  });

  it("answers 404 for another account's article and channel, as for one that does not exist", async () => {
    const b = browser();
    expect((await b.signIn('ben')).status).toBe(303);
    const paths = [`/dashboard/channels/ana-news/pages/${articleId}`, '/dashboard/channels/ana-news', '/dashboard/channels/no-such/pages/1', `/dashboard/channels/ana-news/pages/${articleId + 100}`, '/dashboard/nothing-here'];
    for (const path of paths) {
      const answer = await b.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).toContain('Nothing here is yours to open');
      expect(answer.text).not.toContain('Hello');
    }
  });

  it('makes a new session at each sign-in: a token held before never becomes signed in (fixation)', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const first = b.cookie!;
    expect((await b.signIn('ana')).status).toBe(303);
    expect(b.cookie).not.toBe(first);
    const old = browser();
    old.cookie = first;
    expect((await old.get('/dashboard')).status).toBe(303);
    // A token the visitor made up is no session, and is cleared.
    const planted = browser();
    planted.cookie = `prs_${'A'.repeat(43)}`;
    const answer = await planted.get('/dashboard');
    expect(answer.status).toBe(303);
    expect(answer.setCookie.some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
  });

  it('signs out this browser, then every browser of the account', async () => {
    const one = browser();
    const two = browser();
    expect((await one.signIn('ana')).status).toBe(303);
    expect((await two.signIn('ana')).status).toBe(303);
    const token = one.cookie;
    const out = await one.post('/dashboard/logout');
    expect([out.status, out.location]).toEqual([303, '/dashboard/login?signed_out']);
    const stale = browser();
    stale.cookie = token;
    expect((await stale.get('/dashboard')).status).toBe(303);
    expect((await two.get('/dashboard')).status).toBe(200);
    expect((await one.signIn('ana')).status).toBe(303);
    const everywhere = await one.post('/dashboard/logout-everywhere');
    expect([everywhere.status, everywhere.location]).toEqual([303, '/dashboard/login?signed_out=everywhere']);
    expect((await two.get('/dashboard')).status).toBe(303);
    // A post with a session that ended: 401 and the sign-in form, nothing done.
    const late = await two.post('/dashboard/account/keys', { label: 'late' });
    expect(late.status).toBe(401);
    expect(late.text).toContain('You are signed out');
  });

  it('ends a session after a week unused', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    t.clock.advance(6 * 24 * 3_600_000);
    expect((await b.get('/dashboard')).status).toBe(200);
    t.clock.advance(7 * 24 * 3_600_000 + 1);
    expect((await b.get('/dashboard')).status).toBe(303);
  });
});

describe('the account settings', () => {
  it('shows the plan, creates a key shown once that the publishing API takes, lists it by prefix and revokes it', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const page = await b.get('/dashboard/account');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pro (<code>pro</code>)');
    expect(page.text).toContain('<dt>Channels you may own</dt><dd>50</dd>');
    const created = await b.post('/dashboard/account/keys', { label: 'my laptop' });
    expect(created.status).toBe(200);
    const key = /<p class="secret" id="new-key">(prk_[A-Za-z0-9_-]+)<\/p>/.exec(created.text)?.[1];
    expect(key).toBeDefined();
    expect((await t.request('GET', '/api/v1/channels', { key })).status).toBe(200);
    const listed = await b.get('/dashboard/account');
    expect(listed.text).not.toContain(key!);
    expect(listed.text).toContain(`<code>${key!.slice(0, 12)}…</code>`);
    expect(listed.text).toContain('my laptop');
    const id = new RegExp(`/dashboard/account/keys/(\\d+)/revoke" class="inline"><button type="submit" class="quiet" aria-label="Revoke the key ${key!.slice(0, 12)}"`).exec(listed.text)?.[1];
    expect(id).toBeDefined();
    const revoked = await b.post(`/dashboard/account/keys/${id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('The key is revoked');
    expect((await t.request('GET', '/api/v1/channels', { key })).status).toBe(401);
    // Another account's key is not this one's to revoke.
    const ben = browser();
    expect((await ben.signIn('ben')).status).toBe(303);
    const anas = /\/dashboard\/account\/keys\/(\d+)\/revoke/.exec((await b.get('/dashboard/account')).text)?.[1];
    expect((await ben.post(`/dashboard/account/keys/${anas}/revoke`)).status).toBe(404);
    expect((await t.request('GET', '/api/v1/channels', { key: anaKey })).status).toBe(200);
  });

  it('refuses a label that is too long with a page that says so', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const answer = await b.post('/dashboard/account/keys', { label: 'x'.repeat(101) });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('at most 100 characters');
  });

  it('lists the channels with role and permissions', async () => {
    const b = browser();
    expect((await b.signIn('ana')).status).toBe(303);
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toMatch(/<a href="\/dashboard\/channels\/ana-news">Ana news<\/a>.*<td>owner<\/td><td>yes<\/td><td>yes<\/td>/s);
    const channel = await b.get('/dashboard/channels/ana-news?status=draft');
    expect(channel.status).toBe(200);
    expect(channel.text).toContain(`/dashboard/channels/ana-news/pages/${articleId}`);
    expect((await b.get('/dashboard/channels/ana-news?status=bogus')).status).toBe(422);
  });
});
