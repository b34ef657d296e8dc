/**
 * The generated Cloudflare Pages worker (`_worker.js`) served by
 * Cloudflare's own local emulator, `wrangler pages dev` (workerd), from a
 * real `dist/` on loopback: the `Link` header on article pages and only
 * there, 404s, and the public API's addresses with the bundled server's
 * bytes. Pagination and `?lang=` on every host: test/hosts/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { startWrangler, type WranglerHost } from '../helpers/wrangler-host.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

let t: TestService;
let host: WranglerHost | undefined;
let base: string;

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${base}${p}`, { redirect: 'manual', headers });

describe('Cloudflare Pages (wrangler pages dev) serving dist/', () => {
  beforeAll(async () => {
    t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') });
    await t.service.staticSite!.builder.applyEvents();
    await t.service.staticSite!.search.idle();
    host = await startWrangler(t.config.outputDir);
    base = host.url;
  }, 180_000);

  afterAll(async () => {
    await host?.stop();
    await t?.stop();
  });

  it('sends the Link header to the exact Markdown and JSON on article pages', async () => {
    const md = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome.md${lang}>; rel="alternate"; type="text/markdown"`;
    const json = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome${lang}>; rel="alternate"; type="application/json"`;
    expect((await get('/pressroom-journal/welcome')).headers.get('link')).toBe(`${md('')}, ${json('')}`);
    expect((await get('/pressroom-journal/ar/welcome')).headers.get('link')).toBe(`${md('?lang=ar')}, ${json('?lang=ar')}`);
    // The pages' security headers, as the bundled server sends them.
    const page = await get('/pressroom-journal/welcome');
    const fromNode = await fetch(`${t.url}/pressroom-journal/welcome`);
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options', 'content-type']) {
      expect(page.headers.get(name), name).toBe(fromNode.headers.get(name));
    }
    // (Vary: the bundled server adds Accept-Encoding for its own compression; Cloudflare's edge compresses and adds its own.)
    expect(page.headers.get('vary')).toBe('Accept');
    // An agent that prefers Markdown gets the exact Markdown document, as from the bundled server.
    const agent = await fetch(`${base}/pressroom-journal/welcome`, { headers: { accept: 'text/markdown, text/html;q=0.5' } });
    expect(agent.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await agent.text()).toBe(await (await fetch(`${t.url}/api/public/v1/channels/pressroom-journal/articles/welcome.md`)).text());
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

  it('answers 404 (the site\'s 404 page for a browser, in the address\'s language), never 200 with the homepage, for what is not published', async () => {
    const home = await (await get('/')).text();
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const p of ['/pressroom-journal/no-such-article', '/no-such-channel/', '/pressroom-journal/ar/no-such-article', '/404', '/404.html', '/pressroom-journal/index', '/index.html', '/pressroom-journal/welcome/']) {
      const res = await get(p, browser);
      const body = await res.text();
      expect([p, res.status, body === home]).toEqual([p, 404, false]);
      expect(body).toContain(p.includes('/ar/') ? 'الصفحة غير موجودة' : 'Page not found');
      // A program gets the JSON error body.
      const program = await get(p);
      expect([p, program.status, program.headers.get('content-type')]).toEqual([p, 404, 'application/json; charset=utf-8']);
      await program.body?.cancel();
    }
    // Under the API, the JSON error body.
    const api = await get('/api/public/v1/channels/no-such-channel');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('maps the public API\'s addresses onto their files, ?lang= included, the same bytes as the bundled server', async () => {
    for (const p of ['/api/public/v1/channels', '/api/public/v1/channels/pressroom-journal', '/api/public/v1/channels/pressroom-journal/articles', '/api/public/v1/channels/pressroom-journal/articles/welcome', '/api/public/v1/channels/pressroom-journal/articles/welcome.md', '/api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar', '/api/public/v1/channels/pressroom-journal/articles/welcome?lang=ar', '/api/public/v1/channels?lang=ar', '/pressroom-journal/welcome?lang=ar', '/pressroom-journal/rss.xml?lang=ar']) {
      const [fromPages, fromNode] = await Promise.all([get(p), fetch(`${t.url}${p}`)]);
      expect([p, fromPages.status]).toEqual([p, 200]);
      expect(await fromPages.text(), p).toBe(await fromNode.text());
    }
  });
});
