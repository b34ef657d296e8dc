/**
 * One URL table, four servers (issue 14): the same addresses — every output
 * kind, every language form, a cursor page, invalid and repeated parameters,
 * missing resources, conditional requests, `Accept` negotiation, traversal
 * attempts — asked of the bundled server, a real nginx, Cloudflare Pages
 * (`wrangler pages dev`), Netlify (`@netlify/dev`), the Cloudflare worker in
 * front of R2 (Miniflare) and the Lambda@Edge function in front of S3
 * (s3rver, CloudFront's plumbing as documented) over one built `dist/`.
 * Every answer must be the bundled server's (status; body bytes on 200 and
 * 422; content type), except the intended differences listed here, which
 * the test prints and `docs/HOSTING.md` repeats word for word.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX_MISSING, startNginx, type NginxHost } from '../helpers/nginx-host.ts';
import { startNetlify, type NetlifyHost } from '../helpers/netlify-host.ts';
import { rawClient, type RawResponse } from '../helpers/raw-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { startWrangler, type WranglerHost } from '../helpers/wrangler-host.ts';
import { startR2Worker, type R2WorkerHost } from '../helpers/r2-worker-host.ts';
import { startCloudFront, type CloudFrontHost } from '../helpers/cloudfront-host.ts';
import { HOST_DIFFERENCES, differenceFor, differencesMarkdown, type HostName } from './host-differences.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

const API = '/api/public/v1';
const J = `${API}/channels/pressroom-journal`;
const A = `${J}/articles/welcome`;
/** What browsers send when they open a page. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestService;
let nginx: NginxHost | null = null;
let wrangler: WranglerHost | null = null;
let r2: R2WorkerHost | null = null;
let netlify: NetlifyHost | null = null;
let cloudfront: CloudFrontHost | null = null;
let cursor = '';

/** The table: address, and request headers where they matter. `{cursor}` is the first page's next_cursor. */
const TABLE: Array<[string, Record<string, string>?]> = [
  ['/'],
  ['/pressroom-journal/'],
  // A folder's page has one address (issue 34: these answered 200 everywhere).
  ['/pressroom-journal/index'],
  ['/pressroom-journal/index.html'],
  ['/pressroom-journal/ar/index'],
  ['/index'],
  ['/index.html'],
  ['/pressroom-journal/?lang=ar'],
  ['/pressroom-journal/ar/'],
  ['/pressroom-journal/welcome'],
  ['/pressroom-journal/welcome?lang=ar'],
  ['/pressroom-journal/ar/welcome'],
  ['/pressroom-journal/index'],
  ['/pressroom-journal/welcome?lang=fr'],
  ['/pressroom-journal/welcome?lang='],
  ['/pressroom-journal/welcome?lang=..%2F..'],
  // A repeated lang on a page (issue 34: Netlify answered English).
  ['/pressroom-journal/welcome?lang=ar&lang=en'],
  ['/pressroom-journal/rss.xml?lang=ar&lang=en'],
  ['/pressroom-journal/welcome', { accept: 'text/markdown' }],
  ['/pressroom-journal/welcome', { accept: 'text/markdown;q=0, text/html' }],
  ['/pressroom-journal/welcome', { accept: 'text/html;q=0.5, text/markdown' }],
  // Parameters the Markdown satisfies (issue 34: the bundled server sent the page), and one it does not.
  ['/pressroom-journal/welcome', { accept: 'text/markdown; charset=utf-8' }],
  ['/pressroom-journal/welcome', { accept: 'text/markdown; charset=iso-8859-1' }],
  ['/pressroom-journal/ar/welcome', { accept: 'text/markdown' }],
  ['/pressroom-journal/rss.xml'],
  ['/pressroom-journal/rss.xml?lang=ar'],
  ['/pressroom-journal/rss.xml?lang=fr'],
  ['/pressroom-journal/feed.json?lang=en'],
  ['/pressroom-journal/sitemap.xml'],
  ['/pressroom-journal/llms.txt'],
  ['/sitemap.xml'],
  ['/llms.txt'],
  ['/robots.txt'],
  ['/favicon.svg'],
  [`${API}/openapi.json`],
  [`${API}/channels`],
  [`${API}/channels?lang=ar`],
  [`${API}/channels?lang=xx`],
  [J],
  [`${J}?lang=ar`],
  [`${J}?lang=fr`],
  [`${J}/articles`],
  [`${J}/articles?lang=ar`],
  [`${J}/articles?lang=fr`],
  [`${J}/articles?limit=20`],
  [`${J}/articles?limit=5`],
  [`${J}/articles?limit=abc`],
  [`${J}/articles?cursor=`],
  [`${J}/articles?cursor=AAAAAAAAAAAAAAAAAAAAAA`],
  [`${J}/articles?lang=ar&lang=en`],
  [A],
  [`${A}?lang=ar`],
  [`${A}?lang=fr`],
  [`${A}?include=html`],
  [`${A}?lang=ar&lang=en`],
  [`${A}.md`],
  [`${A}.md?lang=ar`],
  [`${A}.md?lang=fr`],
  [`${A}?lang=not_a_code`],
  [`${A}?lang=en-abc`],
  [`${A}?lang=abcdefghijklmnopq`],
  [`${J}/articles/welcome.json`],
  [`${J}/articles?lang=not_a_code`],
  [`${A}.md?lang=not_a_code`],
  [`${A}/_lang/ar`],
  [`${A}/_lang/ar.md`],
  [`${API}/channels/_lang/ar`],
  ['/no-such-channel/'],
  ['/pressroom-journal/no-such-article'],
  ['/pressroom-journal/not-yet'],
  [`${API}/channels/no-such-channel`],
  [`${J}/articles/no-such-article`],
  [`${J}/articles/not-yet.md`],
  ['/404'],
  ['/_worker.js'],
  // Host files are never served (issue 34: Netlify's emulator served these two).
  ['/_headers'],
  ['/_redirects'],
  // Encoded dot segments that stay inside the root (issue 34: Cloudflare and Netlify resolved them).
  ['/media/%2e%2e/robots.txt'],
  ['/pressroom-journal/%2E%2E/robots.txt'],
  ['/pressroom-journal/%2e%2e/%2e%2e/etc/passwd'],
  ['/pressroom-journal/..%2f..%2fetc%2fpasswd'],
  // A browser gets the 404 page of the address's channel and language; programs the JSON body (issue 34).
  ['/pressroom-journal/no-such-article', { accept: BROWSER }],
  ['/pressroom-journal/ar/no-such-article', { accept: BROWSER }],
  ['/pressroom-journal/ar/no/such/page', { accept: BROWSER }],
  ['/no-such-channel/ar/missing', { accept: BROWSER }],
  ['/no-such-channel/', { accept: BROWSER }],
  ['/pressroom-journal/_404', { accept: BROWSER }],
  ['/pressroom-journal/ar/_404.html', { accept: BROWSER }],
  ['/_404/ar', { accept: BROWSER }],
  ['/_404/ar.html'],
  ['/pressroom-journal/no-such-article', { accept: 'application/json' }],
  [`${API}/channels/no-such-channel`, { accept: BROWSER }],
  // Link-preview cards and the logo (issue 34).
  ['/pressroom-journal/en/welcome.png'],
  ['/pressroom-journal/index.png'],
  ['/index.png'],
  ['/logo.png'],
  ['/pressroom-journal/en/not-yet.png'],
  // The search page: the query is the reader's, the page the same (issue 34).
  ['/search/'],
  ['/search/?q=welcome'],
  ['/search/ar/?q=%D8%A3'],
  ['/search/?lang=ar'],
  ['/search'],
  // One address per page: the trailing-slash and slash-less forms name nothing (issue 34).
  ['/pressroom-journal/welcome/'],
  ['/pressroom-journal/ar/welcome/'],
  ['/pressroom-journal'],
  ['/pressroom-journal/ar'],
];

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content'), PRESSROOM_RATE_LIMIT_CONTENT: '1000000' });
  const key = t.service.newDevKey!;
  // A draft (never anywhere) and enough articles for a second page.
  await t.request('POST', '/api/v1/channels/pressroom-journal/pages', { key, body: { slug: 'not-yet', default_language: 'en', translations: [{ language: 'en', title: 'Not yet', content_markdown: 'Draft.' }] } });
  for (let i = 0; i < 24; i++) {
    t.clock.advance(60_000);
    await t.request('POST', '/api/v1/channels/pressroom-journal/pages', { key, body: { slug: `table-${i}`, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Table ${i}`, content_markdown: 'Text.' }] } });
  }
  await t.service.worker.runDue();
  await t.service.staticSite!.builder.applyEvents();
  cursor = ((await (await fetch(`${t.url}${J}/articles`)).json()) as { pagination: { next_cursor: string } }).pagination.next_cursor;
  TABLE.push([`${J}/articles?cursor=${cursor}`], [`${J}/articles?limit=20&cursor=${cursor}`], [`${J}/articles?lang=ar&cursor=${cursor}`]);
  if (!NGINX_MISSING) nginx = await startNginx(t.config.outputDir);
  wrangler = await startWrangler(t.config.outputDir);
  netlify = await startNetlify(t.config.outputDir);
  r2 = await startR2Worker(t.config.outputDir);
  cloudfront = await startCloudFront(t.config.outputDir);
}, 300_000);

afterAll(async () => {
  await Promise.all([nginx?.stop(), wrangler?.stop(), netlify?.stop(), r2?.stop(), cloudfront?.stop()]);
  await t?.stop();
});

if (NGINX_MISSING && process.env.CI) {
  it('needs nginx', () => {
    throw new Error(NGINX_MISSING ?? 'nginx missing');
  });
}

/** What of an answer is compared. */
function summary(res: RawResponse): { status: number; type: string; body: string; link: string; tags: string } {
  const type = String(res.headers['content-type'] ?? '').replace(/;\s*charset=utf-8/i, '; charset=utf-8');
  // A 404 page is a file like any other: the same bytes on every host (the address's channel and language).
  const compared = res.status === 200 || res.status === 422 || (res.status === 404 && /^text\/html/.test(type));
  return { status: res.status, type: compared ? type : type.split(';')[0]!, body: compared ? res.body.toString('utf8') : '', link: String(res.headers.link ?? ''), tags: String(res.headers['cache-tag'] ?? '') };
}

const hosts: Array<[HostName, () => string | null]> = [
  ['nginx', () => nginx?.url ?? null],
  ['cloudflare', () => wrangler?.url ?? null],
  ['r2', () => r2?.url ?? null],
  ['netlify', () => netlify?.url ?? null],
  ['cloudfront', () => cloudfront?.url ?? null],
];

describe.each(hosts)('the URL table on %s', (host, urlOf) => {
  it('answers every address as the bundled server does, or as an intended difference says', async () => {
    const url = urlOf();
    if (!url) return;
    const server = rawClient(t.url);
    const other = rawClient(url);
    const mismatches: string[] = [];
    const used = new Set<string>();
    try {
      for (const [address, headers = {}] of TABLE) {
        const request = { name: address, method: 'GET', path: address, headers };
        const [expected, got] = [summary(await server.send(request)), summary(await other.send(request))];
        const difference = differenceFor(host, address, headers, expected.status);
        if (difference) {
          used.add(difference.id);
          expect(got.status, `${host} ${address} (${difference.id})`).toBe(difference.status(expected.status));
          if (difference.sameBody) expect(got.body, `${host} ${address}`).toBe(expected.body);
          continue;
        }
        const label = `${address}${Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ''}`;
        if (got.status !== expected.status) mismatches.push(`${label}: ${got.status}, the server ${expected.status}`);
        else if (got.body !== expected.body) mismatches.push(`${label}: other body (${got.body.slice(0, 80)}…)`);
        else if ((got.status === 200 || got.status === 404) && got.type !== expected.type) mismatches.push(`${label}: type ${got.type}, the server ${expected.type}`);
        else if (got.status === 200 && got.link !== expected.link) mismatches.push(`${label}: Link ${got.link || 'none'}, the server ${expected.link || 'none'}`);
        // Cache tags name the file answered (serving/cache-tags.ts); Netlify's rules carry the site's tag alone; CloudFront has none (it is invalidated by path).
        else if (got.status === 200 && got.tags !== (host === 'netlify' ? 'pressroom' : host === 'cloudfront' ? '' : expected.tags)) mismatches.push(`${label}: Cache-Tag ${got.tags || 'none'}, the server ${expected.tags}`);
      }
    } finally {
      server.close();
      other.close();
    }
    expect(mismatches).toEqual([]);
    // Every difference listed for this host is still one (a fixed host loses its entry).
    expect([...used].sort()).toEqual(HOST_DIFFERENCES.filter((d) => d.hosts.includes(host)).map((d) => d.id).sort());
  }, 120_000);

  it('answers 304 to If-None-Match with the validator it sent', async () => {
    const url = urlOf();
    // Netlify's emulator sends no ETag for static files (Netlify itself does, and answers 304).
    if (!url || host === 'netlify') return;
    for (const address of ['/pressroom-journal/welcome', A, `${A}.md?lang=ar`, `${J}/articles?cursor=${cursor}`]) {
      const first = await fetch(`${url}${address}`);
      await first.body?.cancel();
      const etag = first.headers.get('etag');
      expect(etag, `${host} ${address}`).toBeTruthy();
      const again = await fetch(`${url}${address}`, { headers: { 'if-none-match': etag! } });
      expect(again.status, `${host} ${address}`).toBe(304);
    }
  });
});

describe('docs/HOSTING.md', () => {
  it('lists the intended differences exactly as the test has them', () => {
    const doc = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/HOSTING.md'), 'utf8');
    const block = differencesMarkdown();
    console.log(`Intended differences from the bundled server:\n${block}`);
    expect(doc).toContain(block);
  });
});
