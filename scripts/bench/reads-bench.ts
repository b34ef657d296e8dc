/**
 * Reads benchmark (issue 36, "fast while it works"): the bundled server's
 * answers on a corpus of the full size asked for (unlike the http
 * benchmark's 500 articles), next to nginx where nginx can serve the same
 * bytes, and what a reader gets while the site is being written to.
 *
 * Builds the corpus (written, or copied from `--corpus DIR`) with its search
 * index, creates a publishing key, then:
 *
 * - **start → search answers**: the server is started and
 *   `/api/public/v1/search` asked every 20 ms until it answers 200, on the
 *   first start (the read API's search index is empty) and on a second one
 *   (indexed before);
 * - **article JSON**, idle: every article's JSON, server and nginx;
 * - **article JSON while publishing**: the same load while a client
 *   publishes 2 new articles a second through the publishing API (each is
 *   moderated and built by the server meanwhile); p50/p99 and req/s next to
 *   the idle row's, and the server's event-loop delay over those seconds
 *   (the worst second's p99 and the longest stall: `loopP99Ms`, `loopMaxMs`);
 * - **include=html**: every article's document with `content_html`
 *   (server), and its ratio to the plain document's rate: first as a
 *   crawler's first pass asks for them (each made on demand), then once each
 *   was asked for (each kept on disk, `server/http/answer-files.ts`);
 * - **list ?limit=7**: each channel's list in each language and its later
 *   pages at 7 items (server), against nginx serving the same answers as
 *   static files (copied into the output under `bench-static/`);
 * - **list cursor page**: every later page of every list (a file on both).
 *
 * Each row is measured with wrk for --duration seconds after --warmup
 * seconds at --connections connections. Prints a JSON array of figures.
 * Run by `npm run bench -- --only reads`; alone:
 * `tsx scripts/bench/reads-bench.ts --articles N --languages L [--corpus DIR] [--duration S] [--warmup S] [--connections C]`.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import { systemClock } from '../../server/clock.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { parseScriptArgs } from '../lib/cli.ts';
import { CORPUS_CHANNELS, CORPUS_OPTIONS, corpusLanguages } from './corpus.ts';
import { buildCorpusSite } from './corpus-site.ts';
import { NGINX, startBundledServer, startNginx, type Target } from './http-targets.ts';
import { createLoadHarness, walkList } from './load-harness.ts';
import type { BenchFigure } from './run-measurement.ts';
import { WRK } from './wrk.ts';

const API = '/api/public/v1';

const { values } = parseScriptArgs(
  'tsx scripts/bench/reads-bench.ts',
  {
    usage: '--articles N --languages L [--corpus DIR] [--duration S] [--warmup S] [--connections C]',
    options: {
      ...CORPUS_OPTIONS,
      duration: { kind: 'value', placeholder: 'S', description: 'Seconds of measured load per row.' },
      warmup: { kind: 'value', placeholder: 'S', description: 'Seconds of unmeasured load before each row (0: none).' },
      connections: { kind: 'value', placeholder: 'C', description: 'Concurrent connections.' },
    },
    positionals: [],
  },
  process.argv.slice(2),
);
const articles = Number(values.articles ?? 1000);
const languages = Math.max(2, Number(values.languages ?? 2));
const keptCorpus = values.corpus ? path.resolve(values.corpus) : '';
const duration = Number(values.duration ?? 5);
const warmup = Number(values.warmup ?? 1);
const connections = Number(values.connections ?? 4);
const corpus = `${articles}×${languages}, c${connections}`;
const progress = (message: string) => process.stderr.write(`reads bench: ${message}\n`);

const harness = createLoadHarness({ bench: 'reads', corpus, duration, warmup, connections });
const { dir, dataDir, outputDir, targets, cleanup } = harness;

/** The corpus, built with its search index as `npm run build` builds it; resolves with a publishing key. */
async function buildSite(): Promise<string> {
  const site = { dir, dataDir, outputDir, kept: keptCorpus || null, shape: { articles, languages }, progress };
  return buildCorpusSite(site, async (db) => (await createApiKey({ db, clock: systemClock }, { accountName: 'bench', plan: 'pro' })).key);
}

/** Every article's address with `query`, in a fixed shuffled order (7919 is prime and larger than the corpus). */
function articlePaths(query: string): string[] {
  const n = Math.min(articles, 20_000);
  return Array.from({ length: n }, (_, i) => `${API}/channels/channel-${((i * 7919) % articles) % CORPUS_CHANNELS}/articles/a-${(i * 7919) % articles}${query}`);
}

/** Asks for each of `paths` once, `connections` at a time; throws on an answer other than 200. */
async function askEach(base: string, paths: readonly string[], connections: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < paths.length) {
        const address = paths[next++]!;
        const res = await fetch(`${base}${address}`);
        await res.body?.cancel();
        if (res.status !== 200) throw new Error(`${address} answered ${res.status}, not 200`);
      }
    }),
  );
}

/** Publishes 2 articles a second through the publishing API until stopped; the stop resolves with how many were published. */
function publishing(base: string, key: string): () => () => Promise<number> {
  return () => {
    let count = 0;
    let stopped = false;
    let failure: string | null = null;
    const langs = corpusLanguages(languages);
    const loop = (async () => {
      for (let i = 0; !stopped; i++) {
        const started = performance.now();
        const slug = `reads-bench-${Date.now()}-${i}`;
        const res = await fetch(`${base}/api/v1/channels/channel-${i % CORPUS_CHANNELS}/pages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ slug, default_language: 'en', status: 'published', publish_translations: true, translations: langs.map((language) => ({ language, title: `${slug} ${language}`, content_markdown: `Published while reading, ${i}.` })) }),
        });
        if (res.status === 201) count++;
        else failure ??= `${res.status} ${await res.text()}`;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 500 - (performance.now() - started))));
      }
    })();
    return async () => {
      stopped = true;
      await loop;
      if (failure) throw new Error(`publishing during the reads failed: ${failure}`);
      return count;
    };
  };
}

/** The server's event-loop reports (`server/event-loop-watch.ts`), as it logs them once a second. */
const loopReports: Array<{ at: number; builds: number; p99Ms: number; maxMs: number }> = [];
let pending = '';
// Set once the server logs that the start's check of the output folder is done (it removes files no build made).
let outputChecked = false;

function readReports(text: string): void {
  pending += text;
  const lines = pending.split('\n');
  pending = lines.pop()!;
  for (const line of lines) {
    // Checked, repaired, or the check failed (the server says so): in each case it removes nothing more.
    if (/output folder (check|repaired)/.test(line)) outputChecked = true;
    if (!line.includes('event loop delay while building')) continue;
    const field = (name: string) => Number(new RegExp(`${name}=([0-9.]+)`).exec(line)?.[1] ?? Number.NaN);
    loopReports.push({ at: performance.now(), builds: field('builds'), p99Ms: field('p99Ms'), maxMs: field('maxMs') });
  }
}

/** Starts the server and asks for a search every 20 ms from the spawn until it answers 200: resolves with the target and the milliseconds. */
async function startUntilSearch(): Promise<{ target: Target; ms: number }> {
  const started = performance.now();
  const target = await startBundledServer({
    root: PROJECT_ROOT,
    dataDir,
    outputDir,
    tmpDir: os.tmpdir(),
    readyPath: `${API}/search?q=publish`,
    pollMs: 20,
    timeoutMs: 1_200_000,
    // The event-loop report is an info line; the request lines are not wanted (they would cost every row).
    env: { PRESSROOM_LOG_LEVEL: 'info', PRESSROOM_LOG_REQUESTS: 'false', PRESSROOM_EVENT_LOOP_REPORT_SECONDS: '1' },
    onOutput: readReports,
  });
  return { target, ms: performance.now() - started };
}

try {
  if (!fs.existsSync(WRK)) throw new Error(`${WRK} is missing: apt-get install wrk (.ci/run installs it).`);
  const key = await buildSite();
  const figures: BenchFigure[] = [];
  const rss = () => process.memoryUsage().rss / 2 ** 20;

  progress('first start (no search index yet) → search answers…');
  const first = await startUntilSearch();
  figures.push({ name: `reads start → search answers, first start (${corpus})`, wallMs: Math.round(first.ms), cpuMs: 0, peakRssMb: rss() });
  await first.target.stop();
  progress('second start (indexed before) → search answers…');
  outputChecked = false;
  const second = await startUntilSearch();
  figures.push({ name: `reads start → search answers, indexed before (${corpus})`, wallMs: Math.round(second.ms), cpuMs: 0, peakRssMb: rss() });
  const server = second.target;
  targets.push(server);

  // Later pages and 7-item pages of every channel's list in each language; their answers also go into the output
  // as files, which nginx serves: the same bytes as a static file.
  const lists = Array.from({ length: CORPUS_CHANNELS }, (_, c) => corpusLanguages(languages).map((lang) => `${API}/channels/channel-${c}/articles${lang === 'en' ? '' : `?lang=${lang}`}`)).flat();
  const sep = (p: string) => (p.includes('?') ? '&' : '?');
  const cursorPages = (await Promise.all(lists.map((l) => walkList(server.base, l, 50)))).flatMap((chain) => chain.slice(1));
  const limited = (await Promise.all(lists.map((l) => walkList(server.base, `${l}${sep(l)}limit=7`, 20)))).flat();
  // Search answers before the start's background work is done: the copies below are files no build made, which
  // the start's check of the output folder would remove, and no row is measured while that check runs.
  progress('waiting for the start to check the output folder…');
  const deadline = performance.now() + 600_000;
  while (!outputChecked) {
    if (performance.now() > deadline) throw new Error('the server did not log its output folder check within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const copies: string[] = [];
  for (const [i, address] of limited.entries()) {
    const file = `bench-static/limit-7-${i}.json`;
    fs.mkdirSync(path.join(outputDir, 'bench-static'), { recursive: true });
    fs.writeFileSync(path.join(outputDir, file), Buffer.from(await (await fetch(`${server.base}${address}`)).arrayBuffer()));
    copies.push(`/${file}`);
  }

  const haveNginx = fs.existsSync(NGINX);
  const plain = articlePaths('');
  const nginx = haveNginx ? await startNginx({ outputDir, prefix: path.join(dir, 'nginx'), readyPath: plain[0]! }) : null;
  if (nginx) targets.push(nginx);
  else progress(`${NGINX} is missing (apt-get install nginx): the nginx rows are n/a`);
  const onNginx = async (row: string, paths: readonly string[], own: BenchFigure): Promise<BenchFigure> => {
    if (!nginx) return { name: `reads ${row}: nginx (${corpus})`, wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable: 'nginx not installed' };
    const theirs = await harness.measure(row, nginx, paths);
    own.vsNginx = own.requestsPerSec! / theirs.requestsPerSec!;
    return theirs;
  };

  const idle = await harness.measure('article JSON', server, plain);
  figures.push(idle, await onNginx('article JSON', plain, idle));
  const since = performance.now();
  const busy = await harness.measure('article JSON while publishing 2/s', server, plain, { meanwhile: publishing(server.base, key) });
  busy.vsIdle = busy.requestsPerSec! / idle.requestsPerSec!;
  busy.p99VsIdle = busy.p99Ms! / idle.p99Ms!;
  // The request thread's event-loop delay over the seconds in which builds ran.
  const during = loopReports.filter((r) => r.at >= since);
  busy.loopP99Ms = during.length ? Math.max(...during.map((r) => r.p99Ms)) : null;
  busy.loopMaxMs = during.length ? Math.max(...during.map((r) => r.maxMs)) : null;
  figures.push(busy);
  // A crawler's first pass makes each document (the row walks the addresses in order, so nearly every request is
  // a first one); its later passes read what the server kept (every address asked once more, then measured).
  const htmlPaths = articlePaths('?include=html');
  const htmlFirst = await harness.measure('article JSON include=html, first requests', server, htmlPaths);
  htmlFirst.vsPlain = htmlFirst.requestsPerSec! / idle.requestsPerSec!;
  progress(`asking every include=html address once more (${htmlPaths.length})…`);
  await askEach(server.base, htmlPaths, connections);
  const html = await harness.measure('article JSON include=html, asked again', server, htmlPaths);
  html.vsPlain = html.requestsPerSec! / idle.requestsPerSec!;
  figures.push(htmlFirst, html);
  const seven = await harness.measure('list ?limit=7', server, limited);
  figures.push(seven, await onNginx('list ?limit=7 (the same bytes as files)', copies, seven));
  if (cursorPages.length > 0) {
    const pages = await harness.measure('list cursor page', server, cursorPages);
    figures.push(pages, await onNginx('list cursor page', cursorPages, pages));
  } else figures.push({ name: `reads list cursor page: server (${corpus})`, wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable: 'no list has a second page (write more --articles)' });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await cleanup();
}
