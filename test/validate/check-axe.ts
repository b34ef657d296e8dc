/**
 * The accessibility part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): pages served by the bundled server, opened in headless
 * Chromium (Debian's `/usr/bin/chromium`, driven by playwright-core; no
 * browser is downloaded) in the windows of `AXE_WINDOWS`, and checked by axe-core with the WCAG 2.0–2.2 A
 * and AA rules and axe's best practices, once the page's scripts (the
 * Pagefind search box) have run.
 *
 * Returns problems as text ("path @width scheme: rule: help (target)"),
 * empty when everything passes.
 * @module
 */
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

/** Debian's Chromium (package `chromium`). */
export const CHROMIUM = '/usr/bin/chromium';
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/**
 * The windows checked: desktop and phone widths (layout: overflow, reflow)
 * in the light scheme, and the desktop in the dark one (colours: contrast
 * does not depend on the width). Each axe run costs about 1.5 s.
 */
export const AXE_WINDOWS: readonly { width: number; colorScheme: 'light' | 'dark' }[] = [
  { width: 1280, colorScheme: 'light' },
  { width: 375, colorScheme: 'light' },
  { width: 1280, colorScheme: 'dark' },
];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe over each of `paths` on `serverUrl` (see module doc); a missing
 * address is checked as the server sends it to a browser (its 404 page).
 */
export async function checkAxe(serverUrl: string, paths: readonly string[]): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // The flags keep Chromium off the network this machine does not have.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const problems: string[] = [];
  try {
    for (const { width, colorScheme } of AXE_WINDOWS) {
      // The page's CSP forbids injected scripts; axe is the tester's script, not the page's.
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true });
      for (const path of paths) {
        const where = `${path} @${width} ${colorScheme}`;
        const page = await context.newPage();
        await page.goto(`${serverUrl}${path}`, { waitUntil: 'load' });
        // The search page draws its results with a script: check them as readers get them.
        if ((await page.locator('#search-status').count()) > 0 && path.includes('?q=')) {
          // A generous wait: a loaded CI machine loads Pagefind's WebAssembly slowly.
          await page.locator('#search-status').filter({ hasText: /./ }).waitFor({ timeout: 30_000 }).catch(() => problems.push(`${where}: the search page showed no results within 30 s`));
        }
        await page.addScriptTag({ path: AXE_SOURCE });
        const violations = (await page.evaluate(
          (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
          TAGS,
        )) as AxeViolation[];
        for (const v of violations) problems.push(`${where}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        await page.close();
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return problems;
}
