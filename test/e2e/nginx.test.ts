/**
 * The generated nginx configuration, served by a real nginx (the Debian
 * package, installed by `.ci/run`) from a real `dist/` on loopback: content
 * types, the Link header of article pages, 304s on If-None-Match, `?lang=`,
 * the JSON 404 body, and that nothing unpublished is there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderNginxConfig, renderStandaloneNginxConfig } from '../../server/hosting/nginx-config.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const NGINX = '/usr/sbin/nginx';
const haveNginx = fs.existsSync(NGINX);

if (!haveNginx && process.env.CI) {
  describe('nginx serving dist/', () => {
    it('needs nginx', () => {
      throw new Error(`${NGINX} is missing: .ci/run must install the Debian package nginx (DEBIAN_PACKAGES).`);
    });
  });
}

const suite = haveNginx ? describe : describe.skip;
const reason = haveNginx ? '' : ` (skipped: ${NGINX} not found; apt-get install nginx to run it)`;

let t: TestService;
let key: string;
let dir: string;
let nginx: ChildProcess | undefined;
let base: string;
let nginxLog = '';

const ARTICLE = '/api/public/v1/channels/pressroom-journal/articles/welcome';
const get = (p: string, headers: Record<string, string> = {}) => fetch(`${base}${p}`, { headers, redirect: 'manual' });


async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (nginx?.exitCode !== null && nginx?.exitCode !== undefined) throw new Error(`nginx exited with ${nginx.exitCode}:\n${nginxLog}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nginx did not listen on ${port} within ${ms} ms:\n${nginxLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopNginx(): Promise<void> {
  const child = nginx;
  nginx = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

suite(`nginx serving dist/${reason}`, () => {
  beforeAll(async () => {
    t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') });
    key = t.service.newDevKey!;
    // A draft: it must not exist in the output, so nginx must answer 404.
    const draft = await t.request('POST', '/api/v1/channels/pressroom-journal/pages', {
      key,
      body: { slug: 'not-yet', default_language: 'en', translations: [{ language: 'en', title: 'Not yet', content_markdown: 'Draft.' }] },
    });
    expect(draft.status).toBe(201);
    await t.service.staticSite!.builder.applyEvents();

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-nginx-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    fs.writeFileSync(path.join(dir, 'pressroom.conf'), renderNginxConfig({ root: path.resolve(t.config.outputDir), listen: `127.0.0.1:${port}` }));
    const tmp = (name: string) => path.join(dir, name);
    fs.writeFileSync(tmp('nginx.conf'), renderStandaloneNginxConfig({ prefix: dir, include: tmp('pressroom.conf') }));
    // Validate first, for a readable error when the generated config is wrong.
    nginx = spawn(NGINX, ['-t', '-q', '-c', tmp('nginx.conf'), '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let check = '';
    nginx.stderr!.on('data', (d: Buffer) => (check += d.toString()));
    const code = await new Promise<number | null>((resolve) => nginx!.once('exit', resolve));
    nginx = undefined;
    expect(code, check).toBe(0);

    nginx = spawn(NGINX, ['-c', tmp('nginx.conf'), '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stdout!.on('data', (d: Buffer) => (nginxLog += d.toString()));
    nginx.stderr!.on('data', (d: Buffer) => (nginxLog += d.toString()));
    try {
      await waitForPort(port, 10_000);
    } catch (error) {
      await stopNginx();
      throw error;
    }
  }, 180_000);

  afterAll(async () => {
    await stopNginx();
    await t?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['/', 'text/html; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/', 'text/html; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/?lang=ar', 'text/html; charset=utf-8', 'dir="rtl"'],
    ['/pressroom-journal/ar/', 'text/html; charset=utf-8', 'dir="rtl"'],
    ['/pressroom-journal/welcome', 'text/html; charset=utf-8', 'lang="en"'],
    ['/pressroom-journal/en/welcome', 'text/html; charset=utf-8', 'lang="en"'],
    ['/pressroom-journal/ar/welcome', 'text/html; charset=utf-8', 'lang="ar"'],
    ['/pressroom-journal/welcome?lang=ar', 'text/html; charset=utf-8', 'lang="ar"'],
    ['/pressroom-journal/rss.xml', 'application/rss+xml; charset=utf-8', '<rss'],
    ['/pressroom-journal/ar/feed.json', 'application/feed+json; charset=utf-8', '"language": "ar"'],
    ['/api/public/v1/channels', 'application/json; charset=utf-8', '"channels"'],
    [ARTICLE, 'application/json; charset=utf-8', '"language": "en"'],
    [`${ARTICLE}?lang=ar`, 'application/json; charset=utf-8', '"language": "ar"'],
    [`${ARTICLE}.md`, 'text/markdown; charset=utf-8', 'language: "en"'],
    [`${ARTICLE}.md?lang=ar`, 'text/markdown; charset=utf-8', 'language: "ar"'],
    ['/api/public/v1/channels/pressroom-journal/articles?lang=ar', 'application/json; charset=utf-8', '"language": "ar"'],
    ['/api/public/v1/channels?lang=ar', 'application/json; charset=utf-8', '"language": "ar"'],
    ['/sitemap.xml', 'application/xml; charset=utf-8', '<sitemapindex'],
    ['/pressroom-journal/sitemap.xml', 'application/xml; charset=utf-8', '<urlset'],
    ['/pressroom-journal/sitemap-1.xml', 'application/xml; charset=utf-8', '/pressroom-journal/ar/welcome</loc>'],
    ['/robots.txt', 'text/plain; charset=utf-8', 'Content-Signal:'],
    ['/llms.txt', 'text/plain; charset=utf-8', 'Pressroom Journal'],
    ['/pressroom-journal/llms.txt', 'text/plain; charset=utf-8', '/pressroom-journal/llms-1.txt)'],
    ['/pressroom-journal/llms-1.txt', 'text/plain; charset=utf-8', 'welcome.md?lang=ar)'],
  ])('%s', async (address, type, needle) => {
    const res = await get(address);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain(needle);
  });

  it('answers each address with the same bytes as the bundled server', async () => {
    for (const address of ['/pressroom-journal/welcome?lang=ar', `${ARTICLE}?lang=ar`, `${ARTICLE}.md?lang=ar`, '/pressroom-journal/?lang=ar', '/pressroom-journal/rss.xml?lang=ar', '/pressroom-journal/feed.json?lang=en']) {
      const [fromNginx, fromNode] = await Promise.all([get(address), fetch(`${t.url}${address}`)]);
      expect(await fromNginx.text(), address).toBe(await fromNode.text());
    }
  });

  it('answers a feed with ?lang= with that language\'s feed, never the unfiltered one', async () => {
    const ar = await get('/pressroom-journal/rss.xml?lang=ar');
    expect(ar.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(await ar.text()).toBe(await (await get('/pressroom-journal/ar/rss.xml')).text());
    expect(await (await get('/pressroom-journal/feed.json?lang=ar')).text()).toBe(await (await get('/pressroom-journal/ar/feed.json')).text());
  });

  it('sends the Link header to the exact Markdown and JSON on article pages', async () => {
    const md = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome.md${lang}>; rel="alternate"; type="text/markdown"`;
    const json = (lang: string) => `</api/public/v1/channels/pressroom-journal/articles/welcome${lang}>; rel="alternate"; type="application/json"`;
    expect((await get('/pressroom-journal/en/welcome')).headers.get('link')).toBe(`${md('?lang=en')}, ${json('?lang=en')}`);
    expect((await get('/pressroom-journal/ar/welcome')).headers.get('link')).toBe(`${md('?lang=ar')}, ${json('?lang=ar')}`);
    expect((await get('/pressroom-journal/welcome')).headers.get('link')).toBe(`${md('')}, ${json('')}`);
    expect((await get('/pressroom-journal/welcome?lang=ar')).headers.get('link')).toBe(`${md('?lang=ar')}, ${json('?lang=ar')}`);
    // Not on other pages, and not on a 404.
    expect((await get('/pressroom-journal/')).headers.get('link')).toBeNull();
    expect((await get('/pressroom-journal/not-yet')).headers.get('link')).toBeNull();
  });

  it('answers 304 to If-None-Match with the ETag it sent', async () => {
    for (const address of [`${ARTICLE}.md`, `${ARTICLE}?lang=ar`, '/pressroom-journal/en/welcome']) {
      const first = await get(address);
      const etag = first.headers.get('etag')!;
      const again = await get(address, { 'if-none-match': etag });
      expect(again.status, address).toBe(304);
      // nginx's gzip filter makes a compressed 200's ETag weak but does not run on a 304 (no body).
      expect(again.headers.get('etag')!.replace(/^W\//, '')).toBe(etag.replace(/^W\//, ''));
      expect((await get(address, { 'if-none-match': '"stale"' })).status).toBe(200);
    }
  });

  it('compresses text answers with gzip (Vary: Accept-Encoding), the decoded bytes the bundled server\'s', async () => {
    const address = '/pressroom-journal/ar/welcome';
    const zipped = await get(address, { 'accept-encoding': 'gzip' });
    expect([zipped.status, zipped.headers.get('content-encoding')]).toEqual([200, 'gzip']);
    expect(zipped.headers.get('vary')).toContain('Accept-Encoding');
    expect(await zipped.text()).toBe(await (await fetch(`${t.url}${address}`, { headers: { 'accept-encoding': 'identity' } })).text());
    const etag = zipped.headers.get('etag')!;
    expect((await get(address, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    expect((await get(address, { 'accept-encoding': 'identity' })).headers.get('content-encoding')).toBeNull();
  });

  it('has a configuration nginx -t accepts without a warning', async () => {
    const check = spawn(NGINX, ['-t', '-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    check.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise<number | null>((resolve) => check.once('exit', resolve)), out).toBe(0);
    expect(out).not.toContain('[warn]');
  });

  it('answers 404 for the 404 page asked for by name, as the bundled server does', async () => {
    for (const p of ['/404', '/404.html']) {
      const [fromNginx, fromNode] = await Promise.all([get(p), fetch(`${t.url}${p}`)]);
      expect([p, fromNginx.status, fromNode.status]).toEqual([p, 404, 404]);
    }
  });

  it('marks hashed assets immutable', async () => {
    const astro = fs.existsSync(path.join(t.config.outputDir, '_astro')) ? fs.readdirSync(path.join(t.config.outputDir, '_astro')) : [];
    if (astro.length === 0) return;
    const res = await get(`/_astro/${astro[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    '/api/public/v1/channels/pressroom-journal/articles/nope',
    '/api/public/v1/channels/pressroom-journal/articles/not-yet',
    '/api/public/v1/channels/pressroom-journal/articles/not-yet.md',
    '/api/public/v1/channels/',
    `${ARTICLE}?lang=xx`,
    `${ARTICLE}?lang=`,
    '/pressroom-journal/?lang=',
    '/pressroom-journal/rss.xml?lang=zz',
    '/pressroom-journal/rss.xml?lang=',
    '/pressroom-journal/feed.json?lang=zz',
    '/pressroom-journal/feed.json?lang=x&lang=',
    '/pressroom-journal/welcome?lang=ar%2F..%2F..',
    '/pressroom-journal/not-yet',
    '/pressroom-journal/en/not-yet',
    '/pressroom-journal',
    '/nothing-here',
  ])('%s is 404 with the JSON error body', async (address) => {
    const res = await get(address);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ schema_version: '1.0', error: { code: 'NOT_FOUND' } });
  });

  it('answers a lang that is no language code on an article\'s JSON with the bundled server\'s 422 (the operation documents it)', async () => {
    const address = `${ARTICLE}?lang=../../package`;
    const [fromNginx, fromNode] = await Promise.all([get(address), fetch(`${t.url}${address}`)]);
    expect([fromNginx.status, fromNode.status]).toEqual([422, 422]);
    expect(await fromNginx.text()).toBe(await fromNode.text());
  });

  it.each(['/pressroom-journal/..%2f..%2fpackage.json', '/pressroom-journal/%2e%2e/%2e%2e/package.json', '/%2e%2e/package.json', '/api/public/v1/channels/..%2f..%2f..%2f..%2fpackage'])(
    '%s never reaches a file outside the output (nginx refuses it: 400 or 404)',
    async (address) => {
      const res = await get(address);
      expect([400, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('"devDependencies"');
    },
  );
});
