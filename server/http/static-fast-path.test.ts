/**
 * The fast path answers exactly as the app's site routes do: same status,
 * headers and bytes, over real HTTP on loopback, for every kind of static
 * address, `?lang=`, `Accept: text/markdown`, HEAD and conditional requests;
 * and it leaves to the app what it must not answer.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutputFileCache } from './output-file-cache.ts';
import { siteFileRoutes } from './routes/site-files.ts';
import { createStaticFastPath } from './static-fast-path.ts';

let dir: string;
let fastUrl: string;
let appUrl: string;
const servers: http.Server[] = [];

const FILES: Record<string, string> = {
  'index.html': '<!doctype html><title>Home</title>',
  'news/index.html': '<!doctype html><title>News</title>',
  'news/en/hello.html': '<!doctype html><html lang="en"><title>Hello</title>',
  'news/hello.html': '<!doctype html><html lang="en"><title>Hello</title>',
  'news/ar/hello.html': '<!doctype html><html lang="ar" dir="rtl"><title>مرحبا</title>',
  'news/rss.xml': '<rss version="2.0"></rss>',
  'api/public/v1/channels.json': '{"channels":[]}',
  'api/public/v1/channels/news/articles/hello.json': '{"language":"en"}',
  'api/public/v1/channels/news/articles.json': '{"articles":[1]}',
  'api/public/v1/channels/news/articles/_cursor/AAAAAAAAAAAAAAAAAAAAAA.json': '{"articles":[2]}',
  'api/public/v1/channels/news/articles/_lang/ar/_cursor/BBBBBBBBBBBBBBBBBBBBBB.json': '{"articles":[3]}',
  'api/public/v1/channels/news/articles/hello/_lang/ar.json': '{"language":"ar"}',
  'api/public/v1/channels/news/articles/hello.md': '---\nlanguage: "en"\n---\nHello',
  'api/public/v1/channels/news/articles/hello/_lang/ar.md': '---\nlanguage: "ar"\n---\nمرحبا',
  '_astro/site.abc123.css': 'body{}',
};

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-fast-path-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const policy = { maxAgeSeconds: 60, tagPrefix: 'pressroom' };
  const app = getRequestListener(siteFileRoutes(createOutputFileCache(dir), policy).fetch);
  const fast = createStaticFastPath({ files: createOutputFileCache(dir), policy, apiRateLimited: false });
  appUrl = await listen((req, res) => void app(req, res));
  fastUrl = await listen((req, res) => {
    void fast(req, res).then((answered) => {
      if (!answered) {
        res.writeHead(599);
        res.end('not answered by the fast path');
      }
    });
  });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function answer(base: string, address: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${address}`, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: res.status, headers, body: await res.text() };
}

describe('the fast path answers as the app does', () => {
  it.each([
    ['/', {}],
    ['/news/', {}],
    ['/news/hello', {}],
    ['/news/hello?lang=ar', {}],
    ['/news/ar/hello', {}],
    ['/news/ar/hello', { headers: { accept: 'text/markdown' } }],
    ['/news/rss.xml', {}],
    ['/_astro/site.abc123.css', {}],
    ['/api/public/v1/channels', {}],
    ['/api/public/v1/channels/news/articles/hello', {}],
    ['/api/public/v1/channels/news/articles/hello?lang=ar', {}],
    ['/api/public/v1/channels/news/articles/hello.md?lang=ar', {}],
    ['/api/public/v1/channels/news/articles/hello', { method: 'HEAD' }],
    ['/%61pi/public/v1/channels/news/articles/hell%6F?lang=ar', {}],
    ['/n%65ws/hello', {}],
  ] as Array<[string, RequestInit]>)('%s %j', async (address, init) => {
    const fast = await answer(fastUrl, address, init);
    const app = await answer(appUrl, address, init);
    expect(fast.status).toBe(200);
    expect(fast).toEqual(app);
    // Conditional requests too.
    const conditionals: Array<Record<string, string>> = [{ 'if-none-match': app.headers['etag']! }, { 'if-modified-since': app.headers['last-modified']! }];
    for (const conditional of conditionals) {
      const headers = { ...(init.headers as Record<string, string>), ...conditional };
      const fast304 = await answer(fastUrl, address, { ...init, headers });
      expect(fast304.status).toBe(304);
      expect(fast304).toEqual(await answer(appUrl, address, { ...init, headers }));
    }
  });

  it.each([
    '/api/v1/channels',
    '/media/x.webp',
    '/nothing-here',
    '/api/public/v1/channels/news/articles/hello?limit=5',
    '/api/public/v1/channels/news/articles/hello?lang=ar&include=html',
    '/api/public/v1/channels/news/articles/hello?lang=xx',
    '/news/%2e%2e/%2e%2e/etc/passwd',
    // Other spellings of API addresses follow the API's rules, not a page's (issue 18).
    '/%61pi/public/v1/channels?limit=1',
    '/api/public/v1/%63hannels/news/articles?cursor=abc',
    '/%61pi/v1/channels',
    '/%6Dedia/x.webp',
    '/API/public/v1/channels',
    '/news/hello.html.0123456789ab.tmp',
  ])('leaves %s to the app', async (address) => {
    expect((await answer(fastUrl, address)).status).toBe(599);
  });

  it('answers a later page of a list, a file too, with the headers of the list itself', async () => {
    const list = await answer(fastUrl, '/api/public/v1/channels/news/articles');
    const without = ({ etag: _e, 'last-modified': _l, 'content-length': _c, 'cache-tag': _t, 'surrogate-key': _s, ...rest }: Record<string, string>) => rest;
    for (const [address, body, file] of [
      ['/api/public/v1/channels/news/articles?cursor=AAAAAAAAAAAAAAAAAAAAAA', '{"articles":[2]}', 'api/public/v1/channels/news/articles/_cursor/AAAAAAAAAAAAAAAAAAAAAA.json'],
      ['/api/public/v1/channels/news/articles?lang=ar&cursor=BBBBBBBBBBBBBBBBBBBBBB', '{"articles":[3]}', 'api/public/v1/channels/news/articles/_lang/ar/_cursor/BBBBBBBBBBBBBBBBBBBBBB.json'],
      ['/api/public/v1/channels/news/articles?cursor=BBBBBBBBBBBBBBBBBBBBBB&lang=ar', '{"articles":[3]}', 'api/public/v1/channels/news/articles/_lang/ar/_cursor/BBBBBBBBBBBBBBBBBBBBBB.json'],
    ]) {
      const page = await answer(fastUrl, address!);
      expect(page.status).toBe(200);
      expect(page.body).toBe(body);
      expect(without(page.headers)).toEqual(without(list.headers));
      expect(page.headers['cache-tag']).toBe(`pressroom,pressroom:f:/${file}`);
      expect((await answer(fastUrl, address!, { headers: { 'if-none-match': page.headers['etag']! } })).status).toBe(304);
    }
  });

  it.each([
    // A cursor that names no page: the app resolves it (and refuses it with a 422).
    '/api/public/v1/channels/news/articles?cursor=CCCCCCCCCCCCCCCCCCCCCC',
    '/api/public/v1/channels/news/articles?cursor=AAAAAAAAAAAAAAAAAAAAAA&cursor=AAAAAAAAAAAAAAAAAAAAAA',
    '/api/public/v1/channels/news/articles?cursor=',
    '/api/public/v1/channels/news/articles?cursor=AAAAAAAAAAAAAAAAAAAAAA&limit=20',
    // Not a list: a cursor there is the app's 422.
    '/api/public/v1/channels/news/articles/hello?cursor=AAAAAAAAAAAAAAAAAAAAAA',
    '/api/public/v1/channels/news/articles/hello.md?cursor=AAAAAAAAAAAAAAAAAAAAAA',
    '/api/public/v1/channels/news?cursor=AAAAAAAAAAAAAAAAAAAAAA',
  ])('leaves the cursor of %s to the app', async (address) => {
    expect((await answer(fastUrl, address)).status).toBe(599);
  });

  it('leaves POST to the app', async () => {
    expect((await answer(fastUrl, '/api/public/v1/channels', { method: 'POST' })).status).toBe(599);
  });
});

describe('security headers (issue 18)', () => {
  it.each([
    ['/', true],
    ['/news/', true],
    ['/news/hello', true],
    ['/api/public/v1/channels', false],
    ['/news/rss.xml', false],
  ])('%s: CSP, X-Frame-Options and Referrer-Policy on pages only; nosniff everywhere', async (address, page) => {
    for (const base of [fastUrl, appUrl]) {
      const { headers } = await answer(base, address);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy'] !== undefined, base).toBe(page);
      expect(headers['x-frame-options']).toBe(page ? 'DENY' : undefined);
      expect(headers['referrer-policy']).toBe(page ? 'strict-origin-when-cross-origin' : undefined);
    }
  });
});

describe('with rate limits on', () => {
  it('leaves the public API to the app, where the limiter is, and still serves pages', async () => {
    const limited = createStaticFastPath({ files: createOutputFileCache(dir), policy: { maxAgeSeconds: 60, tagPrefix: 'pressroom' }, apiRateLimited: true });
    const url = await listen((req, res) => {
      void limited(req, res).then((answered) => {
        if (!answered) {
          res.writeHead(599);
          res.end();
        }
      });
    });
    expect((await answer(url, '/api/public/v1/channels')).status).toBe(599);
    // Every spelling of it (issue 18: the encoded one was answered here, past the limiter).
    for (const spelling of ['/%61pi/public/v1/channels', '/api/%70ublic/v1/channels', '/api/public/v1/channel%73']) {
      expect((await answer(url, spelling)).status).toBe(599);
    }
    expect((await answer(url, '/news/hello')).status).toBe(200);
  });
});
