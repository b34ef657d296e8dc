/**
 * The generated Cloudflare Pages configuration (`_headers`, `_redirects`)
 * served by Cloudflare's own local emulator, `wrangler pages dev` (workerd),
 * from a real `dist/` on loopback. Issue 14 grows this into the four-server
 * comparison; for now: the `Link` header is on article pages, and only there.
 *
 * wrangler is a dev dependency pinned at 4.86.0, the last release that runs
 * on Node 20 (later ones refuse at start); its workerd supports compatibility
 * dates up to 2026-05-03, hence the fixed `--compatibility-date`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCloudflareHeaders, renderCloudflareRedirects } from '../../server/hosting/cloudflare-config.ts';
import { PROJECT_ROOT } from '../../server/main.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const WRANGLER = path.join(PROJECT_ROOT, 'node_modules/wrangler/bin/wrangler.js');
const COMPATIBILITY_DATE = '2026-04-01';

let t: TestService;
let wrangler: ChildProcess | undefined;
let base: string;
let log = '';
let home: string;

const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' });


async function waitUntilServing(ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (wrangler?.exitCode !== null && wrangler?.exitCode !== undefined) throw new Error(`wrangler exited with ${wrangler.exitCode}:\n${log}`);
    const status = await fetch(`${base}/`).then((r) => (void r.body?.cancel(), r.status)).catch(() => 0);
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`wrangler pages dev did not answer within ${ms} ms:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Cloudflare Pages (wrangler pages dev) serving dist/', () => {
  beforeAll(async () => {
    t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') });
    await t.service.staticSite!.builder.applyEvents();
    await t.service.staticSite!.search.idle();
    const dist = t.config.outputDir;
    fs.writeFileSync(path.join(dist, '_headers'), renderCloudflareHeaders());
    fs.writeFileSync(path.join(dist, '_redirects'), renderCloudflareRedirects());
    if (!fs.existsSync(WRANGLER)) throw new Error(`${WRANGLER} is missing: run npm install (wrangler is a dev dependency).`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Its own home: wrangler writes logs and settings there, and must not read a developer's account.
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-wrangler-'));
    wrangler = spawn(process.execPath, [WRANGLER, 'pages', 'dev', dist, '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', COMPATIBILITY_DATE, '--persist-to', path.join(home, 'state')], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
    wrangler.stdout!.on('data', keep);
    wrangler.stderr!.on('data', keep);
    await waitUntilServing(90_000);
  }, 180_000);

  afterAll(async () => {
    const child = wrangler;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await t?.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('sends the Link header to the exact Markdown and JSON on article pages', async () => {
    const md = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome.md${lang}>; rel="alternate"; type="text/markdown"`;
    const json = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome${lang}>; rel="alternate"; type="application/json"`;
    expect((await get('/pressroom-journal/welcome')).headers.get('link')).toBe(`${md('')}, ${json('')}`);
    expect((await get('/pressroom-journal/ar/welcome')).headers.get('link')).toBe(`${md('?lang=ar')}, ${json('?lang=ar')}`);
  });

  it('sends no Link header on anything that is not an article page (it named files such as …/_astro/articles/site.css.md)', async () => {
    const dist = t.config.outputDir;
    const astro = fs.readdirSync(path.join(dist, '_astro')).filter((f) => f.endsWith('.css') || f.endsWith('.js'));
    const paths = [
      ...astro.map((f) => `/_astro/${f}`),
      '/pressroom-journal/rss.xml',
      '/pressroom-journal/feed.json',
      '/pressroom-journal/ar/rss.xml',
      '/pressroom-journal/llms.txt',
      '/pressroom-journal/llms-1.txt',
      '/pressroom-journal/sitemap.xml',
      '/pressroom-journal/sitemap-1.xml',
      '/pressroom-journal/',
      '/pressroom-journal/index',
      '/pagefind/pagefind-ui.js',
      '/favicon.svg',
      '/llms.txt',
    ];
    expect(astro.length).toBeGreaterThan(0);
    const answers: string[] = [];
    for (const p of paths) {
      const res = await get(p);
      await res.body?.cancel();
      answers.push(`${p} ${res.status < 400 ? 'ok' : res.status} ${res.headers.get('link') ?? 'no Link'}`);
    }
    expect(answers).toEqual(paths.map((p) => `${p} ok no Link`));
  });

  it('answers 404 (the site\'s 404 page), never 200 with the homepage, for what is not published', async () => {
    const home = await (await get('/')).text();
    // (`/404` itself is the one exception: Pages serves the file there with 200, and its rules cannot answer a 404;
    // docs/HOSTING.md lists it. The bundled server and nginx answer 404.)
    for (const p of ['/pressroom-journal/no-such-article', '/no-such-channel/', '/pressroom-journal/ar/no-such-article', '/api/public/v1/channels/no-such-channel']) {
      const res = await get(p);
      const body = await res.text();
      expect([p, res.status, body === home]).toEqual([p, 404, false]);
      expect(body).toContain('Page not found');
    }
  });

  it('maps the public API\'s default addresses onto their files (_redirects), the same bytes as the bundled server', async () => {
    for (const p of ['/api/public/v1/channels', '/api/public/v1/channels/pressroom-journal', '/api/public/v1/channels/pressroom-journal/articles', '/api/public/v1/channels/pressroom-journal/articles/welcome', '/api/public/v1/channels/pressroom-journal/articles/welcome.md']) {
      const [fromPages, fromNode] = await Promise.all([get(p), fetch(`${t.url}${p}`)]);
      expect([p, fromPages.status]).toEqual([p, 200]);
      expect(await fromPages.text(), p).toBe(await fromNode.text());
    }
  });
});
