/**
 * The traversal corpus (`test/corpora/traversal-probes.ts`, ~4,500 probes)
 * and the draft probes over real HTTP: no file outside the output folder is
 * ever served (a secret planted next to `dist/`, the database, /etc/passwd),
 * a draft article never appears, and nothing answers ≥ 500.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { traversalProbes } from '../corpora/traversal-probes.ts';
import { rawClient, type RawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const SECRET = 'PLANTED-SECRET-ISSUE-18';
const DRAFT = 'DRAFTMARKER-ISSUE-18';

let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0', PRESSROOM_RATE_LIMIT_SEARCH: '0' });
  // Secrets beside dist/, under every name the file mapping might append.
  for (const name of ['secret', 'secret.html', 'secret.json', 'secret.md', 'secret.txt', 'secret.xml']) fs.writeFileSync(path.join(t.dir, name), `${SECRET} ${name}\n`);
  key = await t.key('prober', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'fz', default_language: 'en', translations: [{ language: 'en', title: 'Probe' }, { language: 'fr', title: 'Sonde' }] } });
  expect(ch.status, ch.text).toBe(201);
  const published = await t.request('POST', '/api/v1/channels/fz/pages', {
    key,
    body: { slug: 'fz-article', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Public', content_markdown: 'Public body.' }] },
  });
  expect(published.status, published.text).toBe(201);
  const draft = await t.request('POST', '/api/v1/channels/fz/pages', {
    key,
    body: { slug: 'secret-draft', default_language: 'en', status: 'draft', translations: [{ language: 'en', title: `Draft ${DRAFT}`, excerpt: DRAFT, content_markdown: `Body ${DRAFT}.` }] },
  });
  expect(draft.status, draft.text).toBe(201);
  // Published once, then unpublished: its files must be gone too.
  const withdrawn = await t.request('POST', '/api/v1/channels/fz/pages', {
    key,
    body: { slug: 'withdrawn', default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Withdrawn ${DRAFT}`, content_markdown: `Body ${DRAFT}.` }] },
  });
  expect(withdrawn.status, withdrawn.text).toBe(201);
  await settle();
  expect((await t.request('PATCH', '/api/v1/channels/fz/pages/withdrawn/status', { key, body: { status: 'draft' } })).status).toBe(200);
  await settle();
  expect((await t.request('GET', '/fz/fz-article')).status).toBe(200);
  // Controls: the markers are really there to be found, so an absence means something.
  expect((await t.request('GET', '/api/v1/channels/fz/pages/secret-draft', { key })).text).toContain(DRAFT);
  expect(fs.readFileSync(path.join(t.dir, 'secret.html'), 'utf8')).toContain(SECRET);
  expect(fs.readFileSync(t.config.databaseFile).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
});
afterAll(async () => t?.stop());

async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

/** What is wrong with one answer. */
function leaks(res: RawResponse | Error): string[] {
  if (res instanceof Error) return [`no answer: ${res.message}`];
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  const text = res.body.toString('latin1');
  if (text.includes(SECRET)) problems.push('served the secret planted beside dist/');
  if (text.includes('SQLite format 3')) problems.push('served the database');
  if (/root:[^:]*:0:0:/.test(text)) problems.push('served /etc/passwd');
  if (text.includes(DRAFT)) problems.push('served a draft');
  return problems;
}

function check(requests: readonly RawRequest[], responses: ReadonlyArray<RawResponse | Error>): void {
  const failures: string[] = [];
  responses.forEach((res, i) => {
    const request = requests[i]!;
    const problems = leaks(res);
    if (problems.length) failures.push(`${request.name} (${request.path.slice(0, 120)}) → ${problems.join('; ')}`);
  });
  expect(failures.slice(0, 50), `${failures.length} probes failed`).toEqual([]);
}

it('never serves a file outside the output folder, whatever the spelling of ../', async () => {
  const rootRelativeDir = t.dir.replace(/^\/+/, '');
  const requests = traversalProbes({ rootRelativeDir, secretName: 'secret' });
  expect(requests.length).toBeGreaterThan(4_000);
  const client = rawClient(t.url, 6);
  const responses = await client.sendAll(requests);
  client.close();
  check(requests, responses);
}, 120_000);

it('never serves a draft or withdrawn article, whatever the address', async () => {
  const requests: RawRequest[] = [];
  for (const slug of ['secret-draft', 'withdrawn']) {
    const spellings = [slug, slug.toUpperCase(), `%${slug.charCodeAt(0).toString(16)}${slug.slice(1)}`, `${slug}.`, `${slug}%2e`, `${slug}/`, `${slug}%2f`, `${slug}%00`, `${slug}%20`, `./${slug}`, `x/../${slug}`, `${slug};x`, encodeURIComponent(slug)];
    for (const s of spellings) {
      for (const address of [
        `/fz/${s}`,
        `/fz/${s}.html`,
        `/fz/${s}/index.html`,
        `/fz/en/${s}`,
        `/fz/${s}?lang=en`,
        `/api/public/v1/channels/fz/articles/${s}`,
        `/api/public/v1/channels/fz/articles/${s}.json`,
        `/api/public/v1/channels/fz/articles/${s}.md`,
        `/api/public/v1/channels/fz/articles/${s}?lang=en`,
        `/api/public/v1/channels/fz/articles/${s}/_lang/en.json`,
      ]) {
        requests.push({ name: `draft ${address}`, method: 'GET', path: address });
        requests.push({ name: `draft ${address} as Markdown`, method: 'GET', path: address, headers: { accept: 'text/markdown' } });
      }
    }
  }
  for (const address of [
    '/',
    '/fz/',
    '/fz/en/',
    '/fz/rss.xml',
    '/fz/feed.json',
    '/fz/sitemap.xml',
    '/fz/llms.txt',
    '/sitemap.xml',
    '/llms.txt',
    '/api/public/v1/channels/fz/articles',
    '/api/public/v1/channels/fz/articles?limit=100',
    `/api/public/v1/search?q=${DRAFT.split("-")[0]!.toLowerCase()}`,
    '/api/public/v1/search?q=draft',
    '/api/public/v1/search?q=withdrawn',
  ]) {
    requests.push({ name: `list ${address}`, method: 'GET', path: address });
  }
  const client = rawClient(t.url, 6);
  const responses = await client.sendAll(requests);
  client.close();
  check(requests, responses);
  // And no file of the output folder holds the draft.
  const holding = (fs.readdirSync(t.config.outputDir, { recursive: true }) as string[])
    .map((name) => path.join(t.config.outputDir, name))
    .filter((file) => fs.statSync(file).isFile() && fs.readFileSync(file).includes(DRAFT));
  expect(holding).toEqual([]);
}, 60_000);
