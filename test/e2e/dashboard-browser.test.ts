/**
 * The dashboard in a real browser (issue 37): headless Chromium (Debian's,
 * driven by playwright-core; no browser is downloaded) signs in through the
 * form from an article's `edit_url`, keeps the `__Host-` session cookie,
 * shows an Arabic title right to left, creates an API key shown once, signs
 * out from the header; the sign-in form is reached in order with Tab; no
 * page logs an error or breaks its Content-Security-Policy; and axe-core
 * finds nothing on any screen at desktop and phone widths, light and dark,
 * with nothing wider than the phone's window.
 */
import { type Browser, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewCommand } from '../../server/admin/lifecycle-commands.ts';
import { setAdministrator } from '../../server/domain/account/session.service.ts';
import { SESSION_COOKIE } from '../../server/http/dashboard/dashboard-session.ts';
import { axeScreens, CHROMIUM, chromiumAvailable, fillSignIn, launchSignedIn, watched, WINDOWS } from '../helpers/dashboard-browser.ts';
import { accountWithPassword, createArticle, createChannel } from '../helpers/dashboard-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const available = chromiumAvailable();
const ARABIC_TITLE = 'مرحبا بالعالم';

describe.skipIf(!available)(available ? 'the dashboard in headless Chromium' : `the dashboard in headless Chromium (skipped: ${CHROMIUM} is not installed)`, () => {
  let t: TestService;
  let browser: Browser;
  let articlePath: string;
  /** The cookies of a browser signed in as ana (its own session), for the contexts that only look. */
  let signedIn: Cookie[];

  let key: string;
  /** Saves the ar translation through the publishing API, as another editor would. */
  const saveArabicElsewhere = async (title: string) => {
    const res = await t.request('PUT', `/api/v1/channels/ana-news/pages/hello/translations/ar`, { key, body: { title, content_markdown: 'مرحبا.' } });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestService();
    key = await accountWithPassword(t, 'ana', 'pro');
    await createChannel(t, key, 'Ana news');
    const created = await createArticle(t, key, 'ana-news', {
      slug: 'hello',
      default_language: 'en',
      status: 'draft',
      translations: [
        { language: 'en', title: 'Hello world', content_markdown: 'Hi.' },
        { language: 'ar', title: ARABIC_TITLE, content_markdown: 'مرحبا.' },
      ],
    });
    articlePath = new URL(created.edit_url).pathname;
    // Something on the schedule's calendar, moderated before ana's articles start waiting for a person.
    await createArticle(t, key, 'ana-news', {
      slug: 'planned',
      default_language: 'en',
      status: 'scheduled',
      scheduled_at: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString(),
      translations: [{ language: 'en', title: 'Planned for later', content_markdown: 'Text.' }],
    });
    await t.service.worker.runDue();
    // ana decides moderation too, and one of her articles waits for a person: the queue has something to show.
    await setAdministrator({ db: t.service.db, clock: t.clock }, 'ana', true);
    await reviewCommand({ db: t.service.db, clock: t.clock }, { account: 'ana', on: true });
    await createArticle(t, key, 'ana-news', { slug: 'waits', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Waits for a person', content_markdown: 'Text.' }] });
    await t.service.worker.runDue();
    ({ browser, signedIn } = await launchSignedIn(t.url));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("signs in through the form from an article's edit_url, keeps the __Host- session cookie and shows the Arabic title right to left", async () => {
    const context = await browser.newContext();
    const problems = await watched(context);
    const page = await context.newPage();
    expect(articlePath).toMatch(/^\/dashboard\/channels\/ana-news\/pages\/\d+$/);
    // The service listens on 127.0.0.1, which Chromium counts as potentially trustworthy: it keeps Secure cookies sent over http there.
    await page.goto(`${t.url}${articlePath}`);
    expect(page.url()).toBe(`${t.url}/dashboard/login?next=${encodeURIComponent(articlePath)}`);
    await expect.poll(() => page.title()).toBe('Sign in · Pressroom dashboard');
    await fillSignIn(page);
    await page.waitForURL(`${t.url}${articlePath}`);
    expect(await page.locator('h1').textContent()).toBe('Hello world');

    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ domain: '127.0.0.1', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(cookie!.value).toMatch(/^prs_/);

    // Each translation's row: the title cell carries the language and dir="auto", so the browser sets its direction.
    const cells = await page.$$eval('tbody td[dir="auto"]', (tds) =>
      tds.map((td) => ({ lang: td.getAttribute('lang'), text: td.textContent, direction: getComputedStyle(td).direction })),
    );
    expect(cells).toEqual([
      { lang: 'en', text: 'Hello world', direction: 'ltr' },
      { lang: 'ar', text: ARABIC_TITLE, direction: 'rtl' },
    ]);
    const states = await page.$$eval('tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)));
    expect(states).toEqual([
      ['en (primary)', 'Hello world', 'draft'],
      ['ar', ARABIC_TITLE, 'draft'],
    ]);

    // The channel's list links to it, and the state filter marks where it is.
    await page.getByRole('link', { name: 'Articles of ana-news' }).click();
    await page.waitForURL(`${t.url}/dashboard/channels/ana-news`);
    await page.getByRole('navigation', { name: 'Filter by state' }).getByRole('link', { name: 'draft' }).click();
    await page.waitForURL(`${t.url}/dashboard/channels/ana-news?state=draft`);
    expect(await page.locator('[aria-current="page"]').textContent()).toBe('draft');
    expect(await page.getByRole('link', { name: 'Hello world' }).getAttribute('href')).toBe(articlePath);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('creates an API key through the form, shows it once, then lists it by its prefix', async () => {
    const context = await browser.newContext();
    const problems = await watched(context);
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/account`);
    await fillSignIn(page);
    await page.waitForURL(`${t.url}/dashboard/account`);
    await page.getByLabel('Label (where the key will be used)').fill('browser test');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.waitForURL(`${t.url}/dashboard/account/keys`);
    const key = (await page.locator('#new-key').textContent())!;
    expect(key).toMatch(/^prk_[A-Za-z0-9_-]+$/);
    expect(await page.getByRole('status').textContent()).toContain('shown only this once');
    expect((await t.request('GET', '/api/v1/channels', { key })).status).toBe(200);
    // Open the account page again (a reload of the form's answer would post the form again).
    await page.goto(`${t.url}/dashboard/account`);
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    const row = page.locator('tbody tr', { hasText: 'browser test' });
    expect(await row.locator('code').textContent()).toBe(`${key.slice(0, 12)}…`);
    expect(await row.getByRole('button', { name: `Revoke the key ${key.slice(0, 12)}` }).count()).toBe(1);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('reaches the skip link, the account field, the password field and the submit button with Tab, in that order', async () => {
    const context = await browser.newContext();
    const problems = await watched(context);
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/login`);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement!;
        return el.id || (el.className ? `${el.tagName.toLowerCase()}.${el.className}` : el.tagName.toLowerCase());
      });
    expect(await focused()).toBe('body');
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
      if (i === 0) {
        // The skip link shows itself when focused.
        const box = await page.locator('a.skip').boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.y).toBeGreaterThanOrEqual(0);
      }
    }
    // The header's "Pressroom" link (to the dashboard's home) comes between the skip link and the form.
    expect(order).toEqual(['a.skip', 'a.brand', 'account', 'password', 'button']);
    expect(await page.evaluate(() => (document.activeElement as HTMLButtonElement).type)).toBe('submit');
    await context.close();
    expect(problems).toEqual([]);
  });

  it('signs out with the button in the header, to the sign-in page saying so', async () => {
    const context = await browser.newContext();
    const problems = await watched(context);
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/login`);
    await fillSignIn(page);
    await page.waitForURL(`${t.url}/dashboard`);
    expect(await page.locator('h1').textContent()).toBe('Your channels');
    expect(await page.getByRole('link', { name: 'Ana news' }).getAttribute('href')).toBe('/dashboard/channels/ana-news');
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/dashboard/login?signed_out`);
    expect(await page.getByRole('status').textContent()).toBe('You are signed out.');
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect((await context.cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);
    // The session is over: the dashboard asks to sign in again.
    await page.goto(`${t.url}/dashboard`);
    expect(page.url()).toBe(`${t.url}/dashboard/login?next=%2Fdashboard`);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('edits a translation beside its primary, and meets another save as a conflict it can resolve', async () => {
    const problems: string[] = [];
    const one = await browser.newContext();
    const two = await browser.newContext();
    for (const context of [one, two]) {
      await context.addCookies(signedIn);
      // The conflict page is a 409, which Chromium reports on the console like any error status: that one is expected.
      context.on('page', (page) => page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 409') && problems.push(m.text())));
    }
    const first = await one.newPage();
    const second = await two.newPage();
    await first.goto(`${t.url}${articlePath}`);
    await first.getByRole('link', { name: ARABIC_TITLE }).click();
    await first.waitForURL(/\/translations\/ar$/);
    expect(await first.locator('#title').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await first.getByRole('heading', { name: 'The primary language (en)' }).count()).toBe(1);
    await second.goto(first.url());
    await first.locator('#title').fill('عنوان الأول');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByText('Saved.').waitFor();
    await second.locator('#title').fill('عنوان الثاني');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByText('Someone else saved this translation').waitFor();
    expect(await second.locator('.beside dd').first().textContent()).toBe('عنوان الأول');
    expect(await second.locator('#title').inputValue()).toBe('عنوان الثاني');
    await second.getByRole('button', { name: 'Save mine over theirs' }).click();
    await second.getByText('Saved.').waitFor();
    const stored = await t.request('GET', '/api/v1/channels/ana-news/pages/hello', { key });
    expect(stored.json.translations.find((tr: { language: string }) => tr.language === 'ar').title).toBe('عنوان الثاني');
    await saveArabicElsewhere(ARABIC_TITLE);
    await one.close();
    await two.close();
    expect(problems).toEqual([]);
  });

  it('shows moderation turning final without a reload, and says so in a live region', async () => {
    const problems: string[] = [];
    const context = await browser.newContext();
    await context.addCookies(signedIn);
    context.on('page', (page) => page.on('console', (m) => m.type() === 'error' && problems.push(m.text())));
    // Moderation by the rules only, so the worker decides it.
    await reviewCommand({ db: t.service.db, clock: t.clock }, { account: 'ana', on: false });
    const created = await t.request('POST', '/api/v1/channels/ana-news/pages', {
      key,
      body: { slug: 'live', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Live story', content_markdown: 'Text.' }] },
    });
    expect(created.status, created.text).toBe(201);
    const page = await context.newPage();
    await page.goto(`${t.url}${new URL(created.json.edit_url).pathname}`);
    expect(await page.locator('[data-cell="status-en"]').textContent()).toBe('moderation_review');
    await page.waitForFunction(() => document.querySelector('[data-live]') !== null);
    await t.service.worker.runDue();
    await page.locator('[data-cell="status-en"]', { hasText: 'published' }).waitFor({ timeout: 30_000 });
    await page.locator('#live-status', { hasText: 'Every state is final.' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#live-status').textContent()).toContain('en: published');
    await reviewCommand({ db: t.service.db, clock: t.clock }, { account: 'ana', on: true });
    await context.close();
    expect(problems).toEqual([]);
  });

  /** The screens axe checks, each opened by `open` in a page whose context holds ana's session (or none, for the sign-in pages). */
  const screens: ReadonlyArray<{ name: string; signedIn: boolean; open: (page: Page) => Promise<unknown> }> = [
    { name: 'sign-in', signedIn: false, open: (page) => page.goto(`${t.url}/dashboard/login`) },
    {
      name: 'sign-in, wrong password',
      signedIn: false,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/login`);
        // Another name than ana's, so her sign-ins are never throttled.
        await fillSignIn(page, 'nobody-here', 'not the password');
        await page.locator('#sign-in-error').waitFor();
      },
    },
    { name: 'signed out', signedIn: false, open: (page) => page.goto(`${t.url}/dashboard/login?signed_out`) },
    { name: 'channels', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard`) },
    { name: 'account', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/account`) },
    {
      name: 'account, a key just created',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/account`);
        await page.getByRole('button', { name: 'Create a key' }).click();
        await page.locator('#new-key').waitFor();
      },
    },
    { name: 'articles', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news`) },
    { name: 'articles, drafts', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news?state=draft`) },
    { name: 'articles, none archived', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news?state=archived`) },
    {
      name: 'articles, searched in manual review',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/channels/ana-news?state=manual_review`);
        await page.getByLabel('Search titles (any language) and slugs').fill('waits');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('link', { name: 'Clear the search' }).waitFor();
        expect(await page.locator('tbody tr').count()).toBe(1);
      },
    },
    { name: 'articles, nothing found', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news?q=${encodeURIComponent('100% _none_')}`) },
    {
      name: 'channels, a new channel refused',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard`);
        // The slug of the channel there already: refused, named, nothing created.
        await page.locator('#channel-title').fill('Again');
        await page.locator('#channel-slug').fill('ana-news');
        await page.getByRole('button', { name: 'Create the channel' }).click();
        await page.locator('#channel-slug-problem').waitFor();
      },
    },
    {
      name: 'scheduled, month calendar',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/scheduled/calendar`);
        await page.getByRole('heading', { name: 'Day by day' }).waitFor();
        // In its day's cell and under "Day by day"; a phone shows the cell's count instead of its list.
        expect(await page.getByRole('link', { name: 'Planned for later' }).count()).toBe(page.viewportSize()!.width > 640 ? 2 : 1);
      },
    },
    { name: 'scheduled, an empty month', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/scheduled/calendar?month=2027-02`) },
    { name: 'article', signedIn: true, open: (page) => page.goto(`${t.url}${articlePath}`) },
    {
      name: 'article, publishing refused',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}${articlePath}`);
        // Schedule without a time: refused, the field named, nothing changed.
        await page.getByLabel('Schedule for the time below').check();
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.locator('#scheduled_at-problem').waitFor();
      },
    },
    {
      name: 'articles, a new article refused',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/channels/ana-news`);
        // The slug of the article there already: refused, named, nothing created.
        await page.locator('#new-title').fill('Another');
        await page.locator('#new-slug').fill('hello');
        await page.getByRole('button', { name: 'Create the draft' }).click();
        await page.locator('#new-slug-problem').waitFor();
      },
    },
    {
      name: 'revisions, compared',
      signedIn: true,
      open: async (page) => {
        const waits = await t.request('GET', '/api/v1/channels/ana-news/pages/waits', { key });
        await page.goto(`${t.url}${new URL(waits.json.edit_url).pathname}/translations/en/revisions?from=1&to=1`);
        await page.getByText('Changes from revision 1 to revision 1').waitFor();
      },
    },
    { name: 'scheduled', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/scheduled`) },
    { name: 'moderation queue', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/moderation`) },
    { name: 'editor, primary beside', signedIn: true, open: (page) => page.goto(`${t.url}${articlePath}/translations/ar`) },
    {
      name: 'editor, conflict',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}${articlePath}/translations/ar`);
        await saveArabicElsewhere(`${ARABIC_TITLE} ${Math.random()}`);
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Someone else saved this translation').waitFor();
      },
    },
    { name: 'channel settings', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/ana-news/settings`) },
    {
      name: 'channel settings, refused',
      signedIn: true,
      open: async (page) => {
        await page.goto(`${t.url}/dashboard/channels/ana-news/settings`);
        // A new language without its title: refused, nothing saved, the field named.
        await page.locator('#new\\.language').fill('fr');
        await page.getByRole('button', { name: 'Save the settings' }).click();
        await page.locator('#new\\.title-problem').waitFor();
      },
    },
    { name: 'not found', signedIn: true, open: (page) => page.goto(`${t.url}/dashboard/channels/no-such`) },
  ];

  it.each(WINDOWS)('passes axe on every screen at $width px, $colorScheme, none wider than the window', async ({ width, colorScheme }) => {
    const problems: string[] = [];
    for (const withSession of [false, true]) {
      problems.push(
        ...(await axeScreens(browser, { width, colorScheme }, screens.filter((s) => s.signedIn === withSession), {
          cookies: withSession ? signedIn : undefined,
          check: (page, screen) => expect(new URL(page.url()).pathname, screen.name).not.toBe(withSession ? '/dashboard/login' : '/dashboard'),
        })),
      );
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
