/**
 * Several active web instances (issue 38): one server that builds, two web
 * instances (`PRESSROOM_ROLE=web`) and two job workers over one Postgres
 * database and one output folder, behind a round-robin proxy.
 *
 * - Every instance answers every address as the server does: files, lists
 *   made on demand, `include=html`, search.
 * - A write acknowledged by a web instance is read there at once (a
 *   withdrawal's answer waits until that instance no longer shows it), and
 *   by every other instance once the state feed reached it.
 * - Rate limits hold per client across the instances.
 * - The kill test: 1,000 writes from 25 clients spread over the three; after
 *   300 were acknowledged, a web instance and a worker are killed with
 *   SIGKILL. Every acknowledged write is present, each article published
 *   exactly once and none early, the output equals a fresh full build, and
 *   the surviving instances answer alike.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { freePort } from '../helpers/free-port.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { freshFullBuild, builtSiteFiles, publications } from '../helpers/fresh-build.ts';
import { killProcess, serviceEnv, startServerProcess, startWorkerProcess, type ServerProcess } from '../helpers/service-process.ts';

/** Content requests a client may make a minute. */
const CONTENT_LIMIT = 150;

let cluster: PostgresCluster;
let dir: string;
let url: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess;
let webs: ServerProcess[];
let workers: ChildProcess[];
let base: string;
let key: string;
let db: Db;
const children: ChildProcess[] = [];
let proxy: http.Server | undefined;

/** Sends each request to the next instance in turn; one that refuses the connection (killed) passes it to the next. */
function roundRobin(ports: readonly number[]): Promise<string> {
  let turn = 0;
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = turn++ % ports.length;
      const attempt = (tried: number) => {
        if (tried >= ports.length) return void res.writeHead(503, { 'x-proxy': 'no-server' }).end();
        const port = ports[(first + tried) % ports.length];
        const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-instance': String(port) });
          answer.pipe(res);
        });
        // Refused: that instance is down; the next one answers. Reset mid-request: the answer is lost.
        upstream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? attempt(tried + 1) : res.destroy()));
        upstream.end(body);
      };
      attempt(0);
    });
  });
  return new Promise((resolve) => proxy!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy!.address() as AddressInfo).port}`)));
}

async function api(at: string, method: string, p: string, body?: unknown): Promise<Response> {
  return fetch(`${at}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

// Readers from addresses of their own (the instances trust one proxy hop): only the rate-limit test's client is limited.
let readers = 0;
const read = async (at: string, p: string) => {
  const res = await fetch(`${at}${p}`, { headers: { 'x-forwarded-for': `10.${(++readers >> 16) & 255}.${(readers >> 8) & 255}.${readers & 255}` } });
  return { status: res.status, body: await res.text() };
};

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-web-instances-'));
  url = await cluster.createDatabase();
  env = serviceEnv(dir, { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_SOCIAL_CARDS: 'false', PRESSROOM_PUBLIC_URL: 'http://pressroom.test', PRESSROOM_RATE_LIMIT_CONTENT: String(CONTENT_LIMIT), PRESSROOM_TRUST_PROXY_HOPS: '1' });
  const ports = [await freePort(), await freePort(), await freePort()];
  server = await startServerProcess({ ...env, PORT: String(ports[0]) });
  children.push(server.child);
  webs = await Promise.all(ports.slice(1).map((port) => startServerProcess({ ...env, PORT: String(port), PRESSROOM_ROLE: 'web' })));
  children.push(...webs.map((w) => w.child));
  workers = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]).then((started) => started.map((w) => w.child));
  children.push(...workers);
  base = await roundRobin(ports);
  key = fs.readFileSync(path.join(dir, 'data/dev-api-key.txt'), 'utf8').trim();
  db = openDatabase(url);
  const channel = await api(webs[0]!.url, 'POST', '/channels', { slug: 'desk', default_language: 'en', translations: [{ language: 'en', title: 'Desk' }] });
  expect(channel.status, await channel.text()).toBe(201);
}, 180_000);

afterAll(async () => {
  await Promise.all(children.map(killProcess));
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Polls until `slug` reads `published` through `at`. */
async function untilPublished(at: string, slug: string): Promise<void> {
  await pollUntil(
    async () => ((await (await api(at, 'GET', `/channels/desk/pages/${slug}`)).json()) as { translations: Array<{ status: string }> }).translations.map((t) => t.status),
    (statuses) => statuses.every((s) => s === 'published'),
    { what: `${slug} to read published`, timeoutMs: 60_000, intervalMs: 50 },
  );
}

const slugsOf = (body: string): string[] => (JSON.parse(body) as { articles: Array<{ slug: string }> }).articles.map((a) => a.slug);

describe('web instances beside the server that builds', () => {
  it('answer every address as the server does, and a withdrawal acknowledged by one is gone from its answers at once', async () => {
    const [b, c] = webs as [ServerProcess, ServerProcess];
    for (let i = 0; i < 9; i++) {
      const at = [server.url, b.url, c.url][i % 3]!;
      const res = await api(at, 'POST', '/channels/desk/pages', { slug: `a${i}`, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Article ${i} about herons`, content_markdown: `Text of article ${i}, about herons.` }] });
      expect(res.status, await res.text()).toBe(201);
    }
    // Published as each instance reports it, through that instance: its state and files show it then.
    for (let i = 0; i < 9; i++) await untilPublished([server.url, b.url, c.url][i % 3]!, `a${i}`);
    const addresses = [
      '/desk/en/a4',
      '/api/public/v1/channels',
      '/api/public/v1/channels/desk/articles',
      '/api/public/v1/channels/desk/articles?limit=4',
      '/api/public/v1/channels/desk/articles/a3?include=html',
      '/api/public/v1/search?q=herons',
    ];
    for (const address of addresses) {
      const expected = await pollUntil(
        async () => Promise.all([server.url, b.url, c.url].map((at) => read(at, address))),
        (answers) => answers.every((a) => a.status === 200 && a.body === answers[0]!.body),
        { what: `${address} to answer alike on the three instances`, timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(expected[0]!.body.length).toBeGreaterThan(0);
    }
    expect(slugsOf((await read(b.url, '/api/public/v1/channels/desk/articles?limit=4')).body)).toHaveLength(4);

    // A withdrawal through one web instance: its answer waits until that instance no longer shows it.
    const withdrawn = await api(c.url, 'PATCH', '/channels/desk/pages/a5/status', { status: 'draft', publish_translations: true });
    expect(withdrawn.status, await withdrawn.text()).toBe(200);
    const [gone, list, page] = await Promise.all([
      read(c.url, '/api/public/v1/channels/desk/articles/a5?include=html'),
      read(c.url, '/api/public/v1/channels/desk/articles?limit=50'),
      read(c.url, '/desk/en/a5'),
    ]);
    expect(gone.status).toBe(404);
    expect(slugsOf(list.body)).not.toContain('a5');
    expect(page.status).toBe(404);
    // The other instances, once the feed reached them (a notification: milliseconds).
    for (const at of [server.url, b.url]) {
      await pollUntil(
        async () => slugsOf((await read(at, '/api/public/v1/channels/desk/articles?limit=50')).body),
        (slugs) => !slugs.includes('a5'),
        { what: 'the withdrawn article to leave every instance\'s list', timeoutMs: 10_000, intervalMs: 20 },
      );
    }
  }, 240_000);

  it('a server started again goes on with the state feed: no whole state written, and the web instances follow on', async () => {
    const newestWhole = async () => Number((await db.selectFrom('state_feed').select((eb) => eb.fn.max('id').as('id')).where('whole', '=', 1).executeTakeFirstOrThrow()).id);
    const wholeBefore = await newestWhole();
    const port = new URL(server.url).port;
    expect(await server.stop(), server.stderr()).toBe(0);
    server = await startServerProcess({ ...env, PORT: port });
    children.push(server.child);
    // Its builder loads the state from the database into objects of its own, with this article in it: the feed gets
    // what that state changes against the parts the feed keeps, not the whole state.
    const res = await api(server.url, 'POST', '/channels/desk/pages', { slug: 'after-restart', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'After the restart', content_markdown: 'Written after the restart.' }] });
    expect(res.status, await res.text()).toBe(201);
    await untilPublished(webs[0]!.url, 'after-restart');
    expect(await newestWhole()).toBe(wholeBefore);
    const address = '/api/public/v1/channels/desk/articles?limit=50';
    const answers = await pollUntil(
      async () => Promise.all([server.url, ...webs.map((w) => w.url)].map((at) => read(at, address))),
      (all) => all.every((a) => a.status === 200 && a.body === all[0]!.body),
      { what: `${address} to answer alike on the three instances after the restart`, timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(slugsOf(answers[0]!.body)).toContain('after-restart');
    for (const web of webs) expect(web.stderr()).not.toContain('a row was missed');
  }, 180_000);

  it('refuses to start on an output folder that is not the server\'s, saying which setting to change', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    const started = startServerProcess({ ...env, PRESSROOM_ROLE: 'web', PRESSROOM_OUTPUT_DIR: path.join(elsewhere, 'dist'), PRESSROOM_DATA_DIR: path.join(elsewhere, 'data') });
    await expect(started).rejects.toThrow(/exited with 2 before listening: [\s\S]*PRESSROOM_OUTPUT_DIR: a web instance serves the output folder of the server that builds/);
  }, 60_000);

  it('started before any server, waits without listening, saying why, and answers once the server has built', async () => {
    const own = path.join(dir, 'first');
    const ownEnv = serviceEnv(own, { PRESSROOM_DATABASE_URL: await cluster.createDatabase(), PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_SOCIAL_CARDS: 'false', PRESSROOM_PUBLIC_URL: 'http://pressroom.test' });
    const early = startServerProcess({ ...ownEnv, PRESSROOM_ROLE: 'web', PRESSROOM_LOG_LEVEL: 'info' });
    let web: ServerProcess | null = null;
    void early.then((w) => (web = w), () => undefined);
    // No server has written a public state: it cannot have listened (it says why in its log, read below).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(web).toBeNull();
    const first = await startServerProcess(ownEnv);
    children.push(first.child);
    const started = await early;
    children.push(started.child);
    expect(started.stderr()).toContain('waiting for the public state of the server that builds');
    const [fromWeb, fromServer] = await Promise.all([read(started.url, '/api/public/v1/channels?limit=5'), read(first.url, '/api/public/v1/channels?limit=5')]);
    expect(fromWeb.status).toBe(200);
    expect(fromWeb.body).toBe(fromServer.body);
    await Promise.all([started.stop(), first.stop()]);
  }, 120_000);

  it('count one client\'s requests once across the instances, not once per instance', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2 * CONTENT_LIMIT; i++) statuses.push((await fetch(`${base}/api/public/v1/channels`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status);
    const ok = statuses.filter((s) => s === 200).length;
    // In each instance's memory, three instances would have answered 3 × CONTENT_LIMIT: every one of these.
    expect(ok).toBeLessThanOrEqual(CONTENT_LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(CONTENT_LIMIT);
  }, 120_000);

  it('lose no acknowledged write, publish each article once and none early, and build what a fresh build builds, when a web instance and a worker are killed mid-burst', async () => {
    const call = async (method: string, p: string, body?: unknown) => {
      for (let tries = 0; tries < 200; tries++) {
        const res = await api(base, method, p, body).catch(() => null);
        if (res?.status !== 503 || res.headers.get('x-proxy') !== 'no-server') return res;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return null;
    };
    const acknowledged = new Map<string, { scheduledAt: string | null }>();
    const answeredBy = new Set<string>();
    let next = 0;
    let killed: Promise<void> | null = null;
    const write = async (i: number) => {
      const slug = `w${i}`;
      const scheduledAt = i % 100 === 0 ? new Date(Date.now() + 3_600_000).toISOString() : i % 25 === 0 ? new Date(Date.now() + 3_000).toISOString() : null;
      const res = await call('POST', '/channels/desk/pages', {
        slug,
        default_language: 'en',
        status: scheduledAt ? 'scheduled' : 'published',
        ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
        translations: [{ language: 'en', title: `Write ${i}`, content_markdown: `Write number ${i}.` }],
      });
      if (res?.status === 201) {
        acknowledged.set(slug, { scheduledAt });
        answeredBy.add(res.headers.get('x-instance') ?? '');
      }
      if (acknowledged.size >= 300) killed ??= Promise.all([killProcess(webs[1]!.child), killProcess(workers[0]!)]).then(() => undefined);
    };
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < 1000) await write(next++);
      }),
    );
    await killed;
    // The three instances took writes; most were acknowledged (those cut off by the kill are unknown, not lost).
    expect(answeredBy.size).toBe(3);
    expect(acknowledged.size).toBeGreaterThan(950);

    const settled = await pollUntil(
      () => db.selectFrom('articles').select(['slug', 'status', 'scheduled_at', 'published_at']).where('slug', 'like', 'w%').execute(),
      (rows) =>
        [...acknowledged.keys()].every((slug) => rows.some((r) => r.slug === slug)) &&
        rows.every((r) => r.status === 'published' || (r.status === 'scheduled' && r.scheduled_at! > new Date(Date.now() + 60_000).toISOString())),
      { what: 'every written article to be published (or scheduled an hour ahead)', timeoutMs: 180_000, intervalMs: 500 },
    );
    for (const [slug, { scheduledAt }] of acknowledged) {
      const row = settled.find((r) => r.slug === slug)!;
      if (scheduledAt && Date.parse(scheduledAt) > Date.now() + 60_000) expect(row.status, slug).toBe('scheduled');
      else expect(row.status, slug).toBe('published');
      if (scheduledAt && row.published_at) expect(row.published_at >= scheduledAt, slug).toBe(true);
    }
    // Each article of the burst published once: one public change each (the first test's withdrawal is another article's).
    const events = await db.selectFrom('publication_events').innerJoin('articles', 'articles.id', 'publication_events.article_id').select('articles.slug').where('articles.slug', 'like', 'w%').execute();
    const perArticle = new Map<string, number>();
    for (const e of events) perArticle.set(e.slug, (perArticle.get(e.slug) ?? 0) + 1);
    expect(perArticle.size).toBe(settled.filter((r) => r.status === 'published').length);
    expect([...perArticle.values()].every((n) => n === 1)).toBe(true);
    expect((await publications(db)).oneRevisionEach).toBe(true);

    await pollUntil(
      async () => (await db.selectFrom('publication_events').select('id').where('built_at', 'is', null).execute()).length,
      (n) => n === 0,
      { what: 'every change to be built', timeoutMs: 120_000, intervalMs: 250 },
    );
    // The surviving instances answer alike: a list made on demand, and the list file.
    for (const address of ['/api/public/v1/channels/desk/articles?limit=7', '/api/public/v1/channels/desk/articles']) {
      await pollUntil(
        async () => Promise.all([server.url, webs[0]!.url].map((at) => read(at, address))),
        (answers) => answers.every((a) => a.status === 200 && a.body === answers[0]!.body),
        { what: `${address} to answer alike on the surviving instances`, timeoutMs: 30_000, intervalMs: 100 },
      );
    }

    await server.stop();
    await webs[0]!.stop();
    await killProcess(workers[1]!);
    const fresh = await freshFullBuild(cluster, url, env, path.join(dir, 'fresh'));
    expect(fresh.build.code, fresh.build.stderr).toBe(0);
    const served = builtSiteFiles(path.join(dir, 'dist'));
    const rebuilt = builtSiteFiles(fresh.dist);
    expect([...served.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const [rel, bytes] of rebuilt) expect(bytes.equals(served.get(rel)!), rel).toBe(true);
  }, 600_000);
});
