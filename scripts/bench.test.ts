/**
 * Smoke test of `npm run bench`: runs every benchmark once at its smallest
 * size so the harness cannot rot. Three run at a time (each is a process tree
 * of its own): on two cores all twelve at once took longer than one after the
 * other, as they fought for the cores and the memory.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFairGate } from '../server/fair-gate.ts';

const root = path.resolve(import.meta.dirname, '..');
const haveWrk = fs.existsSync('/usr/bin/wrk');
const haveNginx = fs.existsSync('/usr/sbin/nginx');
// wrk is a Debian package that .ci/run installs; without it only the HTTP part is skipped, and not on CI.
const runHttp = haveWrk || Boolean(process.env.CI);
let dir: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Three benchmarks at a time, started in the order asked (the project's gate, with one key). */
const slots = createFairGate({ slots: 3, perKey: 3, queuedPerKey: Infinity, retryAfterSeconds: 0 });
const bench = (...args: string[]): Promise<Run> => slots.run('bench', () => benchNow(args));

function benchNow(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const results = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
const row = (file: string, prefix: string) => results(file).results.find((r: { name: string }) => r.name.startsWith(prefix));

let media: Promise<Run>;
let build: Promise<Run>;
let buildPostgres: Promise<Run>;
let jobs: Promise<Run>;
let failover: Promise<Run>;
let http: Promise<Run> | null;
let bodies: Promise<Run>;
let readYourWrites: Promise<Run>;
let edge: Promise<Run>;
let reads: Promise<Run> | null;
let dashboard: Promise<Run>;
let migrate: Promise<Run>;
let help: Promise<Run>;
let bad: Promise<Run>;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-test-'));
  media = bench('--only', 'media', '--repeat', '1', '--out', path.join(dir, 'media.json'));
  build = bench('--only', 'build', '--repeat', '1', '--articles', '20', '--loops', '3', '--out', path.join(dir, 'build.json'));
  buildPostgres = bench('--only', 'build-postgres', '--repeat', '1', '--articles', '20', '--loops', '3', '--out', path.join(dir, 'build-postgres.json'));
  jobs = bench('--only', 'jobs', '--repeat', '1', '--loops', '5', '--out', path.join(dir, 'jobs.json'));
  failover = bench('--only', 'failover', '--repeat', '1', '--duration', '1', '--connections', '2', '--web-instances', '1', '--out', path.join(dir, 'failover.json'));
  http = runHttp ? bench('--only', 'http', '--repeat', '1', '--articles', '20', '--duration', '1', '--warmup', '0', '--connections', '8', '--out', path.join(dir, 'http.json')) : null;
  reads = runHttp ? bench('--only', 'reads', '--repeat', '1', '--articles', '20', '--duration', '1', '--warmup', '0', '--connections', '4', '--out', path.join(dir, 'reads.json')) : null;
  bodies = bench('--only', 'bodies', '--repeat', '1', '--body-scale', '1', '--out', path.join(dir, 'bodies.json'));
  readYourWrites = bench('--only', 'read-your-writes', '--repeat', '1', '--loops', '3', '--out', path.join(dir, 'ryw.json'));
  edge = bench('--only', 'edge', '--repeat', '1', '--articles', '20', '--loops', '3', '--out', path.join(dir, 'edge.json'));
  dashboard = bench('--only', 'dashboard', '--repeat', '1', '--articles', '20', '--out', path.join(dir, 'dashboard.json'));
  migrate = bench('--only', 'migrate', '--repeat', '1', '--articles', '20', '--out', path.join(dir, 'migrate.json'));
  help = bench('--help');
  bad = bench('--only', 'nope');
});
afterAll(async () => {
  await Promise.all([media, build, buildPostgres, jobs, failover, http, bodies, readYourWrites, edge, reads, dashboard, migrate, help, bad]);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('prints a table and writes the results file, for the media and the build benchmarks', async () => {
  const b = await build;
  expect(b.status, b.stderr).toBe(0);
  for (const name of ['build-cold (20×2)', 'build-warm (20×2)', 'search-index (20×2)', 'build-cold + search-index, whole tree (20×2)', 'publish-to-files p50 (20×2)', 'publish-to-files p95 (20×2)', 'new-article-to-files p50 (20×2)', 'new-article-to-files p95 (20×2)', 'search-fresh new article median (20×2)', 'server-start median (20×2)', 'first start → search API answers (20×2)', 'build (whole process tree)']) {
    expect(b.stdout).toContain(`| ${name} |`);
  }
  expect(results('build.json').corpus).toEqual({ articles: 20, languages: 2 });
  // A warm full build writes nothing.
  expect(row('build.json', 'build-warm').runs[0].files).toBe(0);
  // The tree holds more than the build's Node process: the corpus writer and Pagefind ran as children.
  const tree = row('build.json', 'build (whole process tree)').runs[0];
  expect(tree.processes).toBeGreaterThan(1);
  expect(tree.cpuMs).toBeGreaterThan(0);
  expect(tree.peakRssMb).toBeGreaterThan(0);

  const m = await media;
  expect(m.status, m.stderr).toBe(0);
  expect(m.stdout).toMatch(/\| media: .* \| \d+(\.\d)? \|/);
  const r = results('media.json');
  expect(r.machine.cpus).toBeGreaterThan(0);
  expect(r.machine.node).toBe(process.version);
  expect(r.results[0]).toMatchObject({ name: 'media', runs: [expect.objectContaining({ wallMs: expect.any(Number), peakRssMb: expect.any(Number) })] });
  // Three benchmarks at a time (servers, Postgres clusters, builds) on what may be two loaded cores.
}, 600_000);

it('takes the build figures again with the data in Postgres, named so they sit beside the SQLite ones', async () => {
  const b = await buildPostgres;
  expect(b.status, b.stderr).toBe(0);
  for (const name of ['build-cold (20×2, Postgres)', 'publish-to-files p50 (20×2, Postgres)', 'publish-to-files p95 (20×2, Postgres)', 'first start → search API answers (20×2, Postgres)']) {
    expect(b.stdout).toContain(`| ${name} |`);
  }
  expect(row('build-postgres.json', 'build-warm').runs[0].files).toBe(0);
}, 300_000);

it('times the job queue on both stores: pickup, lateness of a job queued for later, recovery after a killed holder', async () => {
  const j = await jobs;
  expect(j.status, j.stderr).toBe(0);
  for (const store of ['sqlite', 'postgres']) {
    for (const name of ['committed → handler p50 (5 jobs)', 'due → handler p95 (5 jobs queued for later)', 'killed holder → job runs in the next worker, median of 3']) {
      expect(j.stdout).toContain(`| jobs ${store}: ${name} |`);
    }
  }
}, 300_000);

it('measures one server\'s writes per second on each store, and a standby\'s takeover on Postgres', async () => {
  const f = await failover;
  expect(f.status, f.stderr).toBe(0);
  for (const name of ['writes/s, one server, sqlite (2 clients publishing for 1 s)', 'writes/s, one server, postgres (2 clients publishing for 1 s)', 'writes/s, the server and 1 web instance(s), postgres (2 clients spread over the 2 for 1 s)', 'takeover: SIGKILL → the standby answers (postgres)', 'takeover: SIGKILL → the last acknowledged publish reads published there (postgres)']) {
    expect(f.stdout).toContain(`| ${name} |`);
  }
  expect(row('failover.json', 'writes/s, one server, postgres').runs[0].requestsPerSec).toBeGreaterThan(0);
  expect(row('failover.json', 'writes/s, the server and 1 web instance(s), postgres').runs[0].requestsPerSec).toBeGreaterThan(0);
}, 300_000);

it.skipIf(!runHttp)('measures the bundled server against nginx with wrk, and search (or marks it n/a)', async () => {
  const h = (await http)!;
  expect(h.status, h.stderr).toBe(0);
  const server = row('http.json', 'http article JSON: server').runs[0];
  expect(server.requestsPerSec).toBeGreaterThan(0);
  expect(server.p99Ms).toBeGreaterThan(0);
  expect(server.errors).toBe(0);
  expect(h.stdout).toMatch(/\| http article JSON \?lang=ar: server \(20×2, c8\) \|/);
  if (haveNginx) {
    expect(row('http.json', 'http article JSON: nginx').runs[0].requestsPerSec).toBeGreaterThan(0);
    expect(server.vsNginx).toBeGreaterThan(0);
    expect(h.stdout).toMatch(/\| \d+(\.\d+)?× \|/);
  }
  expect(h.stdout).toMatch(/\| http search: server \(20×2, c8\) \| .*(\d|n\/a \(endpoint unavailable\))/);
}, 300_000);

it.skipIf(!runHttp)('measures the read API at the corpus size: starts, idle and busy reads, include=html, lists against nginx', async () => {
  const r = (await reads)!;
  expect(r.status, r.stderr).toBe(0);
  for (const name of ['reads start → search answers, first start', 'reads start → search answers, indexed before', 'reads article JSON: server', 'reads article JSON while publishing 2/s: server', 'reads article JSON include=html, first requests: server', 'reads article JSON include=html, asked again: server', 'reads list ?limit=7: server']) {
    expect(r.stdout).toContain(`| ${name}`);
  }
  const busy = row('reads.json', 'reads article JSON while publishing 2/s').runs[0];
  expect(busy.requestsPerSec).toBeGreaterThan(0);
  expect(busy.published).toBeGreaterThan(0);
  expect(row('reads.json', 'reads article JSON include=html, first requests').runs[0].vsPlain).toBeGreaterThan(0);
  expect(row('reads.json', 'reads article JSON include=html, asked again').runs[0].vsPlain).toBeGreaterThan(0);
  if (haveNginx) expect(row('reads.json', 'reads list ?limit=7 (the same bytes as files): nginx').runs[0].requestsPerSec).toBeGreaterThan(0);
}, 300_000);

it('times the hostile bodies in place and the slowest read while the server saves each', async () => {
  const b = await bodies;
  expect(b.status, b.stderr).toBe(0);
  expect(b.stdout).toMatch(/\| body in place: ">" × 100,000 \(refused: markdownDepth\) \|/);
  const saved = row('bodies.json', 'body save (422) + concurrent GET, slowest: ">"').runs[0];
  expect(saved.wallMs).toBeGreaterThan(0);
  expect(saved.p99Ms).toBeGreaterThan(0);
  // Issue 40's rows: growth of the shapes that were quadratic, the bursts of one key holder.
  expect(b.stdout).toMatch(/\| body growth: one-line headings, 20 → 40 lines: /);
  expect(b.stdout).toMatch(/\| burst: another account's tiny draft \(201\) while one account saves 2 × /);
  expect(b.stdout).toMatch(/\| uploads: 4 parallel \d+\.\d\d MB from one key \(\d+ stored, \d+ refused 429\)/);
}, 300_000);

it('loops publish → read and withdraw → 404 with the build on, and no read disagrees with the API', async () => {
  const r = await readYourWrites;
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/\| read-your-writes: write → published reported p95 \(3 loops\) \| \d/);
  expect(row('ryw.json', 'read-your-writes: 0 reads disagreed').runs[0].failures).toBe(0);
}, 300_000);

it('publishes behind Varnish and a bucket, and nothing is stale once reported', async () => {
  const r = await edge;
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/\| edge: publish → fresh at Varnish p95 \(3 publishes\) \(20×2\) \| \d/);
  expect(r.stdout).toMatch(/\| edge: full sync to the bucket: \d+ objects/);
  expect(results('edge.json').results.find((x: { name: string }) => / stale once reported/.test(x.name)).runs[0].failures).toBe(0);
}, 300_000);

it('signs in to the dashboard and times its lists, editor, saves and previews', async () => {
  const r = await dashboard;
  expect(r.status, r.stderr).toBe(0);
  for (const name of [
    'dashboard articles, first page (channel-0: 1 article) p50 (20×2)',
    'dashboard articles ?state=published p95 (20×2)',
    'dashboard articles ?q= matching none p95 (20×2)',
    'dashboard editor page (a published article, en) p95 (20×2)',
    'dashboard save (editor form, a draft) p95 (20×2)',
    'dashboard autosave (a draft) p95 (20×2)',
  ]) {
    expect(r.stdout).toContain(`| ${name} | `);
    expect(row('dashboard.json', name).runs[0].wallMs).toBeGreaterThan(0);
  }
  expect(r.stdout).toMatch(/\| dashboard preview of a draft \(channel-0, 2 languages: \d+ files change\) p95 \(20×2\) \| \d/);
  expect(r.stdout).toMatch(/\| dashboard preview of a published article with a waiting revision \(\d+ files change\) p95 \(20×2\) \| \d/);
  expect(r.stdout).toMatch(/\| dashboard editor page, first request: bundles the source editor \(esbuild\) \(20×2\) \| \d/);
  expect(row('dashboard.json', 'dashboard source editor bundle, first request').runs[0].bytes).toBeGreaterThan(0);
  expect(row('dashboard.json', 'dashboard save (editor form, a draft) p50').runs[0].requests).toBeGreaterThan(0);
}, 300_000);

it('migrates a database filled at 0012 to the latest version and says how fast', async () => {
  const r = await migrate;
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/\| migrate 0012 → latest: 20 articles × 2 \| \d/);
  const run = row('migrate.json', 'migrate 0012 → latest').runs[0];
  expect(run.rows).toBe(80);
  expect(run.rowsPerSec).toBeGreaterThan(0);
  expect(run.peakRssMb).toBeGreaterThan(0);
  expect(r.stdout).toMatch(/\| migrate 0013's switch, one transaction \(20×2\) \| \d/);
  expect(r.stdout).toMatch(/\| migrate 0013's old tables freed in batches \(20×2\) \| \d/);
}, 300_000);

it('explains itself and refuses unknown benchmarks', async () => {
  const h = await help;
  expect(h.status).toBe(0);
  expect(h.stdout).toContain('Usage: npm run bench');
  expect(h.stdout).toContain('--duration S');
  const b = await bad;
  expect(b.status).toBe(2);
  expect(b.stderr).toContain('No benchmark is named "nope"');
});
