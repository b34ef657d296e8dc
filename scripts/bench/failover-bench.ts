/**
 * Benchmark of one server's sustained writes on each store, and of a
 * standby's takeover on Postgres (issue 38). Real `npm start` processes
 * (static build on), a throwaway cluster of Debian's postgresql.
 * - **writes/s**: after 5 unmeasured publishes, `--connections` clients
 *   publish one-paragraph articles for `--duration` seconds; acknowledged
 *   (201) writes per second, on the SQLite file and on Postgres; then on
 *   Postgres with the clients spread over the server and web instances
 *   (`PRESSROOM_ROLE=web`).
 * - **takeover**: a standby (`PRESSROOM_STANDBY`) waits beside the
 *   Postgres server; the server is killed with SIGKILL right after a
 *   publish was acknowledged; then the time until the standby answers, and
 *   until that article reads `published` through it.
 *
 * `--web-instances N` (default 2) sets how many web instances the spread
 * row starts beside the server.
 *
 * Run directly: `npx tsx scripts/bench/failover-bench.ts --duration 10 --connections 8`.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres, type PostgresCluster } from '../../test/helpers/postgres-cluster.ts';
import { serviceEnv, startServerProcess, startStandbyProcess, type ServerProcess } from '../../test/helpers/service-process.ts';
import type { BenchFigure } from './run-measurement.ts';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1]! : fallback;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

function client(url: string, dir: string) {
  const key = fs.readFileSync(path.join(dir, 'data/dev-api-key.txt'), 'utf8').trim();
  return (method: string, p: string, body?: unknown, base = url) =>
    fetch(`${base}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

const article = (slug: string) => ({ slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Story ${slug}`, content_markdown: `A paragraph about ${slug}, long enough to be a short story's opening line.` }] });

/**
 * Publishes from `connections` clients for `seconds`, client i through `urls[i % urls.length]`, into a new
 * channel `channel`; acknowledged writes per second.
 */
async function sustainedWrites(urls: readonly string[], dir: string, channel: string, seconds: number, connections: number): Promise<number> {
  const call = client(urls[0]!, dir);
  if ((await call('POST', '/channels', { slug: channel, default_language: 'en', translations: [{ language: 'en', title: 'Load' }] })).status !== 201) throw new Error('the channel was not created');
  // Unmeasured: the first publishes boot each instance's body threads and the build's renderers.
  for (let i = 0; i < 5 * urls.length; i++) {
    const res = await call('POST', `/channels/${channel}/pages`, article(`${channel}-warm${i}`), urls[i % urls.length]);
    if (res.status !== 201) throw new Error(`a warm-up write was answered ${res.status}`);
  }
  let acknowledged = 0;
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      while (performance.now() < until) {
        const res = await call('POST', `/channels/${channel}/pages`, article(`${channel}-w${next++}`), urls[c % urls.length]);
        if (res.status === 201) acknowledged++;
        else throw new Error(`a write was answered ${res.status}: ${await res.text()}`);
      }
    }),
  );
  return acknowledged / ((performance.now() - started) / 1000);
}

async function takeover(env: NodeJS.ProcessEnv, dir: string, active: ServerProcess): Promise<{ answers: number; published: number }> {
  const standby = startStandbyProcess(env);
  try {
    await standby.waiting;
    const call = client(active.url, dir);
    const res = await call('POST', '/channels/load/pages', article('last-before-the-kill'));
    if (res.status !== 201) throw new Error(`the last write was answered ${res.status}`);
    active.child.kill('SIGKILL');
    const killed = performance.now();
    const url = await standby.listening;
    for (;;) {
      const answer = await fetch(`${url}/api/v1/openapi.json`).catch(() => null);
      if (answer?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = performance.now() - killed;
    for (;;) {
      const read = await call('GET', '/channels/load/pages/last-before-the-kill', undefined, url);
      if (read.status === 200 && ((await read.json()) as { status: string }).status === 'published') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { answers, published: performance.now() - killed };
  } finally {
    await standby.stop();
  }
}

async function main(): Promise<void> {
  const seconds = Number(arg('duration', '10'));
  const connections = Number(arg('connections', '8'));
  const webInstances = Number(arg('web-instances', '2'));
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-failover-bench-'));
  let cluster: PostgresCluster | undefined;
  const figures: BenchFigure[] = [];
  const servers: ServerProcess[] = [];
  const figure = (name: string, wallMs: number, extra: Record<string, unknown> = {}): BenchFigure => ({ name, wallMs: round(wallMs), cpuMs: 0, peakRssMb: 0, ...extra });
  try {
    cluster = await startPostgres();
    for (const store of ['sqlite', 'postgres'] as const) {
      const dir = path.join(base, store);
      const env = serviceEnv(dir, { PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_LOG_LEVEL: 'warn', PRESSROOM_SOCIAL_CARDS: 'false', ...(store === 'postgres' ? { PRESSROOM_DATABASE_URL: await cluster.createDatabase() } : {}) });
      const server = await startServerProcess(env);
      servers.push(server);
      const rate = await sustainedWrites([server.url], dir, 'load', seconds, connections);
      figures.push(figure(`writes/s, one server, ${store} (${connections} clients publishing for ${seconds} s)`, 1000 / rate, { requestsPerSec: Math.round(rate * 10) / 10 }));
      if (store === 'postgres') {
        // Several instances: the server and web instances (PRESSROOM_ROLE=web) on its folders, clients spread over them.
        const webs = await Promise.all(Array.from({ length: webInstances }, () => startServerProcess({ ...env, PRESSROOM_ROLE: 'web' })));
        servers.push(...webs);
        const spread = await sustainedWrites([server.url, ...webs.map((w) => w.url)], dir, 'load3', seconds, connections);
        figures.push(figure(`writes/s, the server and ${webInstances} web instance(s), postgres (${connections} clients spread over the ${webInstances + 1} for ${seconds} s)`, 1000 / spread, { requestsPerSec: Math.round(spread * 10) / 10 }));
        for (const web of webs) await web.stop();
        const { answers, published } = await takeover(env, dir, server);
        figures.push(figure('takeover: SIGKILL → the standby answers (postgres)', answers), figure('takeover: SIGKILL → the last acknowledged publish reads published there (postgres)', published));
      } else {
        await server.stop();
      }
    }
  } finally {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await cluster?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

await main();
