/**
 * The kill test of issue 38 on the distributed shape that exists: one active
 * server, a standby, and two job workers over one Postgres database, behind a
 * proxy that sends each request to the first server that answers (a load
 * balancer's health check). 1,000 writes from 25 clients; after 300 were
 * acknowledged, the active server and one worker are killed with SIGKILL.
 * Then: every acknowledged write is present, every article is published
 * exactly once, no scheduled article is published before its time, and the
 * output folder equals a fresh full build of the same data, byte for byte.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/database.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { freshFullBuild, builtSiteFiles, publications } from '../helpers/fresh-build.ts';
import { killProcess, serviceEnv, startServerProcess, startStandbyProcess, startWorkerProcess } from '../helpers/service-process.ts';

let cluster: PostgresCluster;
let dir: string;
const processes: ChildProcess[] = [];
const opened: Db[] = [];
let proxy: http.Server | undefined;

beforeAll(async () => {
  cluster = await sharedPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-cluster-kill-'));
});
afterAll(async () => {
  await Promise.all(processes.map(killProcess));
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  for (const db of opened) await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Forwards each request to the first of `ports` that accepts it; 503 `x-proxy: no-server` when none does (nothing reached a server). */
function failoverProxy(ports: readonly number[]): Promise<string> {
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (index: number) => {
        if (index >= ports.length) return void res.writeHead(503, { 'x-proxy': 'no-server' }).end();
        const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        // Refused: that server is down (or not yet up), try the next. Reset mid-request: the answer is lost.
        upstream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? attempt(index + 1) : res.destroy()));
        upstream.end(body);
      };
      attempt(0);
    });
  });
  return new Promise((resolve) => proxy!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy!.address() as AddressInfo).port}`)));
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const worker = await startWorkerProcess(env);
  processes.push(worker.child);
  return worker.child;
}

describe('one active server, a standby and two workers', () => {
  it('lose no acknowledged write, publish each article once and none early, and build what a fresh build builds, when the server and a worker are killed mid-burst', async () => {
    const url = await cluster.createDatabase();
    const [activePort, standbyPort] = [await freePort(), await freePort()];
    const env = serviceEnv(dir, { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_SOCIAL_CARDS: 'false', PRESSROOM_PUBLIC_URL: 'http://pressroom.test', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
    const active = await startServerProcess({ ...env, PORT: String(activePort) });
    processes.push(active.child);
    const standby = startStandbyProcess({ ...env, PORT: String(standbyPort) });
    processes.push(standby.child);
    await standby.waiting;
    const workers = [await startWorker(env), await startWorker(env)];
    const base = await failoverProxy([activePort, standbyPort]);
    const key = fs.readFileSync(path.join(dir, 'data/dev-api-key.txt'), 'utf8').trim();
    // A request no server received (the standby still taking over) is sent again, as a client's retry would be;
    // one whose connection broke after it reached a server is not: its outcome is unknown, it is not acknowledged.
    const call = async (method: string, p: string, body?: unknown) => {
      for (let tries = 0; tries < 1200; tries++) {
        const res = await fetch(`${base}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).catch(() => null);
        if (res?.status !== 503 || res.headers.get('x-proxy') !== 'no-server') return res;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return null;
    };
    expect((await call('POST', '/channels', { slug: 'desk', default_language: 'en', translations: [{ language: 'en', title: 'Desk' }] }))?.status).toBe(201);

    // 1,000 writes: most published at once, every 25th scheduled a few seconds ahead, every 100th an hour ahead.
    const acknowledged = new Map<string, { scheduledAt: string | null }>();
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
      if (res?.status === 201) acknowledged.set(slug, { scheduledAt });
      if (acknowledged.size >= 300) killed ??= Promise.all([killProcess(active.child), killProcess(workers[0]!)]).then(() => undefined);
    };
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < 1000) await write(next++);
      }),
    );
    await killed;
    await standby.listening;
    // Most writes were acknowledged, a good part of them by the server that took over.
    expect(acknowledged.size).toBeGreaterThan(900);

    const db = openDatabase(url);
    opened.push(db);
    const settled = await pollUntil(
      () => db.selectFrom('articles').select(['slug', 'status', 'scheduled_at', 'published_at']).execute(),
      (rows) =>
        [...acknowledged.keys()].every((slug) => rows.some((r) => r.slug === slug)) &&
        rows.every((r) => r.status === 'published' || (r.status === 'scheduled' && r.scheduled_at! > new Date(Date.now() + 60_000).toISOString())),
      { what: 'every written article to be published (or scheduled an hour ahead)', timeoutMs: 180_000, intervalMs: 500 },
    );
    // Every acknowledged write is there; none scheduled was published early.
    for (const [slug, { scheduledAt }] of acknowledged) {
      const row = settled.find((r) => r.slug === slug)!;
      if (scheduledAt && Date.parse(scheduledAt) > Date.now() + 60_000) expect(row.status, slug).toBe('scheduled');
      else expect(row.status, slug).toBe('published');
      if (scheduledAt && row.published_at) expect(row.published_at >= scheduledAt, slug).toBe(true);
    }
    // Each article published once: one public change per published article, one passed revision per translation.
    expect(await publications(db)).toEqual({ articles: settled.filter((r) => r.status === 'published').length, eachOnce: true, oneRevisionEach: true });

    // The output equals a fresh full build of the same data.
    await pollUntil(
      async () => (await db.selectFrom('publication_events').select('id').where('built_at', 'is', null).execute()).length,
      (n) => n === 0,
      { what: 'every change to be built', timeoutMs: 120_000, intervalMs: 250 },
    );
    await standby.stop();
    await killProcess(workers[1]!);
    const fresh = await freshFullBuild(cluster, url, env, path.join(dir, 'fresh'));
    expect(fresh.build.code, fresh.build.stderr).toBe(0);
    const served = builtSiteFiles(path.join(dir, 'dist'));
    const rebuilt = builtSiteFiles(fresh.dist);
    expect([...served.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const [rel, bytes] of rebuilt) expect(bytes.equals(served.get(rel)!), rel).toBe(true);
  }, 400_000);
});
