/**
 * The dashboard in a real browser, as the Chromium tests drive it: Debian's
 * Chromium (no browser is downloaded) through playwright-core, contexts
 * whose pages' errors and Content-Security-Policy refusals are collected,
 * the sign-in through the form, and axe-core with the project's rules at
 * every window, with nothing wider than the window.
 * @module
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Cookie, type Page } from 'playwright-core';
import { CHROMIUM } from '../validate/check-axe.ts';
import { PASSWORD } from './dashboard-http.ts';

export { CHROMIUM };

/**
 * Whether Chromium is installed, for `describe.skipIf`.
 * @throws in CI when it is missing: there the suite must run, not be skipped.
 */
export function chromiumAvailable(): boolean {
  const available = fs.existsSync(CHROMIUM);
  if (!available && process.env.CI) {
    throw new Error(`${CHROMIUM} is missing: .ci/run must install the Debian package "chromium".`);
  }
  return available;
}

/** Starts headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The flags keep Chromium off the network this machine does not have.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** What `watched` collects, and what it lets pass. */
export interface WatchOptions {
  /** Console errors to let pass (an error status a test provokes on purpose, say). */
  ignore?: RegExp;
  /** The list to collect into (a new one when not given). */
  problems?: string[];
}

/**
 * Collects, on every page of the context, the errors the browser logged, the pages' uncaught errors and the
 * policy's refusals; returns the list they go to.
 */
export async function watched(context: BrowserContext, options: WatchOptions = {}): Promise<string[]> {
  const problems = options.problems ?? [];
  // The browser's own report of each refused resource (an init script is the tester's, not subject to the page's CSP).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  context.on('page', (page) => {
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() !== 'error' || options.ignore?.test(m.text())) return;
      problems.push(`${page.url()}: ${m.text()}`);
    });
  });
  return problems;
}

/** A new context holding `cookies` (a session, say), `watched`. */
export async function watchedContext(
  browser: Browser,
  options: WatchOptions & { cookies?: Cookie[]; context?: BrowserContextOptions } = {},
): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext(options.context);
  if (options.cookies) await context.addCookies(options.cookies);
  const problems = await watched(context, options);
  return { context, problems };
}

/** Signs in through the form on the page, which shows the sign-in page. */
export async function fillSignIn(page: Page, account = 'ana', password = PASSWORD): Promise<void> {
  await page.getByLabel('Account name').fill(account);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Starts headless Chromium and signs `account` in through the form at `url`'s dashboard, in a context of its
 * own; returns the browser and that session's cookies (for the contexts that only look).
 */
export async function launchSignedIn(url: string, account = 'ana', password = PASSWORD): Promise<{ browser: Browser; signedIn: Cookie[] }> {
  const browser = await launchChromium();
  try {
    return { browser, signedIn: await signedInCookies(browser, url, account, password) };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** Signs `account` in through the form at `url`'s dashboard in a context of its own; returns that session's cookies. */
export async function signedInCookies(browser: Browser, url: string, account = 'ana', password = PASSWORD): Promise<Cookie[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/dashboard/login`);
  await fillSignIn(page, account, password);
  await page.waitForURL(`${url}/dashboard`);
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The rules of test/validate/check-axe.ts: WCAG 2.0–2.2 A and AA, and axe's best practices. */
export const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/** Every window: the colours are checked at both widths too, as the dark scheme changes them. */
export const WINDOWS = [
  { width: 1280, colorScheme: 'light' },
  { width: 375, colorScheme: 'light' },
  { width: 1280, colorScheme: 'dark' },
  { width: 375, colorScheme: 'dark' },
] as const;
/** A window's width and colour scheme. */
export interface Window {
  width: number;
  colorScheme: 'light' | 'dark';
}

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/** A context for axe at `window` (800 px high), holding `cookies` when given. */
export async function axeContext(browser: Browser, { width, colorScheme }: Window, cookies?: Cookie[]): Promise<BrowserContext> {
  // The page's CSP forbids injected scripts; axe is the tester's script, not the page's.
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme, bypassCSP: true });
  if (cookies) await context.addCookies(cookies);
  return context;
}

/**
 * What axe (with `TAGS`) finds on the page as it stands, and whether the page is wider than its window;
 * each problem a line that starts with `name`. The page's context must bypass its CSP (`axeContext`).
 */
export async function screenProblems(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = (await page.evaluate(
    (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
    TAGS,
  )) as AxeViolation[];
  for (const v of violations) problems.push(`${name}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scrollWidth > innerWidth) problems.push(`${name}: the page is ${scrollWidth} px wide in a window of ${innerWidth} px`);
  return problems;
}

/** A screen axe checks: its name in the problems, and how a page gets there. */
export interface Screen {
  name: string;
  open: (page: Page) => Promise<unknown>;
}

/**
 * Opens each screen in a page of its own, in one `axeContext` at `window` (with `cookies` when given), and
 * returns what `screenProblems` finds on them; `check` looks at each page once it is open, before axe.
 */
export async function axeScreens(
  browser: Browser,
  window: Window,
  screens: readonly Screen[],
  options: { cookies?: Cookie[]; check?: (page: Page, screen: Screen) => void } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const context = await axeContext(browser, window, options.cookies);
  for (const screen of screens) {
    const page = await context.newPage();
    await screen.open(page);
    options.check?.(page, screen);
    problems.push(...(await screenProblems(page, screen.name)));
    await page.close();
  }
  await context.close();
  return problems;
}
