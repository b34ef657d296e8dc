/**
 * HTTP read benchmark: the bundled server against nginx on the same `dist/`.
 *
 * Generates a corpus of min(--articles, 500) articles in at least 2 languages
 * (read throughput hardly depends on the size of the site: each request is
 * one file), builds it in this process (full build and search index), then
 * starts the bundled server and nginx as processes of their own and loads
 * each with wrk for --duration seconds after --warmup seconds, at the same
 * concurrency, rotating over every article's address:
 *
 * - the article JSON `/api/public/v1/channels/{c}/articles/{a}` (server, nginx);
 * - its `?lang=ar` variant (server, nginx: routed through `$arg_lang`);
 * - the article JSON with `Accept-Encoding: gzip` (server, nginx) and `br`
 *   (server; nginx has no brotli without a module);
 * - search `/api/public/v1/search?q=…` over a few corpus words (server only;
 *   `n/a` when the endpoint does not answer 200, e.g. on a version without it).
 *
 * Each row's CPU time and peak RSS are the serving process's (its whole tree)
 * over the measured window. Prints a JSON array of figures. Run by
 * `npm run bench -- --only http`; alone:
 * `tsx scripts/bench/http-bench.ts --articles N --languages L --duration S --warmup S --connections C`.
 * @module
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCursorCodec } from '../../server/bootstrap.ts';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createStaticSite } from '../../server/publish/static-site.ts';
import { migrateToLatest, openDatabase } from '../../server/store/database.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import { parseScriptArgs } from '../lib/cli.ts';
import { CORPUS_CHANNELS, CORPUS_WORDS } from './corpus.ts';
import { NGINX, startBundledServer, startNginx, type Target } from './http-targets.ts';
import { createLoadHarness, walkList } from './load-harness.ts';
import type { BenchFigure } from './run-measurement.ts';
import { WRK } from './wrk.ts';

/** Largest corpus the HTTP benchmark generates. */
export const HTTP_MAX_ARTICLES = 500;
const API = '/api/public/v1';

const { values } = parseScriptArgs(
  'tsx scripts/bench/http-bench.ts',
  {
    usage: '--articles N --languages L --duration S --warmup S --connections C',
    options: {
      articles: { kind: 'value', placeholder: 'N', description: 'Corpus size (at most 500 are used).' },
      languages: { kind: 'value', placeholder: 'L', description: 'Languages (at least 2: the second is Arabic).' },
      duration: { kind: 'value', placeholder: 'S', description: 'Seconds of measured load per row.' },
      warmup: { kind: 'value', placeholder: 'S', description: 'Seconds of unmeasured load before each row (0: none).' },
      connections: { kind: 'value', placeholder: 'C', description: 'Concurrent connections.' },
    },
    positionals: [],
  },
  process.argv.slice(2),
);
const articles = Math.min(HTTP_MAX_ARTICLES, Number(values.articles ?? 200));
const languages = Math.max(2, Number(values.languages ?? 2));
const duration = Number(values.duration ?? 5);
const warmup = Number(values.warmup ?? 1);
const connections = Number(values.connections ?? 32);
const corpus = `${articles}×${languages}, c${connections}`;
const progress = (message: string) => process.stderr.write(`http bench: ${message}\n`);

const harness = createLoadHarness({ bench: 'http', corpus, duration, warmup, connections });
const { dir, dataDir, outputDir, targets, cleanup } = harness;

/** Writes the corpus (a child process, as in the build benchmark) and builds every output and the search index. */
async function buildSite(): Promise<void> {
  progress(`writing ${articles} articles × ${languages} languages…`);
  const generated = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/bench/corpus.ts'), '--data', dataDir, '--output', outputDir, '--articles', String(articles), '--languages', String(languages)],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (generated.status !== 0) throw new Error('corpus generation failed');
  progress('full build and search index…');
  const config = loadConfig({ PRESSROOM_DATA_DIR: dataDir, PRESSROOM_OUTPUT_DIR: outputDir, PRESSROOM_PUBLIC_URL: 'http://bench.test', PRESSROOM_LOG_LEVEL: 'silent' }, dir);
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  const site = await createStaticSite({ db, clock: systemClock, urls, cursors: await loadCursorCodec(db), config, projectRoot: PROJECT_ROOT, log: createLogger('silent') });
  await site.builder.fullBuild();
  site.search.rebuildAll();
  await site.search.idle();
  await site.close();
  await db.destroy();
}

/**
 * Every article's JSON address, in a fixed shuffled order, so consecutive
 * requests hit different channels and files (7919 is prime and larger than
 * the corpus, so `i * 7919 mod N` visits every article once).
 */
function articlePaths(query: string): string[] {
  return Array.from({ length: articles }, (_, i) => `${API}/channels/channel-${((i * 7919) % articles) % CORPUS_CHANNELS}/articles/a-${(i * 7919) % articles}${query}`);
}

/**
 * The address of every later page of every channel's article list (the
 * `_links.next` chain from each first page), as a client walking them asks:
 * each is a file on a static host (`read-model/list-pages.ts`).
 */
async function cursorPaths(base: string): Promise<string[]> {
  const chains = await Promise.all(Array.from({ length: CORPUS_CHANNELS }, (_, c) => walkList(base, `${API}/channels/channel-${c}/articles`)));
  return chains.flatMap((chain) => chain.slice(1));
}

/**
 * The search endpoint's answer once the server is ready for it: 503 means its
 * index is still being filled after the start, so it is asked again (for up
 * to a minute) before the row is given up as n/a.
 */
async function searchStatus(url: string): Promise<number> {
  const until = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(url);
    await response.body?.cancel();
    if (response.status !== 503 || Date.now() > until) return response.status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

try {
  if (!fs.existsSync(WRK)) throw new Error(`${WRK} is missing: apt-get install wrk (.ci/run installs it).`);
  await buildSite();
  const json = articlePaths('');
  const arabic = articlePaths('?lang=ar');
  progress('starting the bundled server and nginx…');
  targets.push(await startBundledServer({ root: PROJECT_ROOT, dataDir, outputDir, tmpDir: os.tmpdir(), readyPath: json[0]! }));
  const haveNginx = fs.existsSync(NGINX);
  if (haveNginx) targets.push(await startNginx({ outputDir, prefix: path.join(dir, 'nginx'), readyPath: json[0]! }));
  else progress(`${NGINX} is missing (apt-get install nginx): the nginx rows are n/a`);
  const [server, nginx] = targets as [Target, Target | undefined];
  // Asked before any row: the server fills its search index after starting, which must not overlap a measurement.
  const queries = ['publish', 'translation', 'archive', 'moderation', 'render', 'crawlers'].filter((w) => CORPUS_WORDS.includes(w)).map((w) => `${API}/search?q=${w}`);
  progress('waiting for the server\'s search index…');
  const search = await searchStatus(`${server.base}${queries[0]}`);

  const figures: BenchFigure[] = [];
  const rows: [string, string[], Record<string, string>, boolean][] = [
    ['article JSON', json, {}, true],
    ['article JSON ?lang=ar', arabic, {}, true],
    // Compressed answers: once per file version, then from memory (server); nginx compresses each answer.
    ['article JSON gzip', json, { 'accept-encoding': 'gzip' }, true],
    ['article JSON br', json, { 'accept-encoding': 'br' }, false],
  ];
  // A later page of a list (a file on both). A corpus too small for a second page (the smoke test's) has no row.
  const pages = await cursorPaths(server.base);
  if (pages.length > 0) rows.push(['list cursor page', pages, {}, true]);
  else figures.push({ name: `http list cursor page: server (${corpus})`, wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable: 'no list has a second page (write more --articles)' });
  for (const [row, paths, headers, onNginx] of rows) {
    const own = await harness.measure(row, server, paths, { headers });
    const unavailable = !onNginx ? 'nginx has no brotli without a module' : !nginx ? 'nginx not installed' : null;
    const theirs: BenchFigure = unavailable === null ? await harness.measure(row, nginx!, paths, { headers }) : { name: `http ${row}: nginx (${corpus})`, wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable };
    if (theirs.requestsPerSec) own.vsNginx = own.requestsPerSec! / theirs.requestsPerSec;
    figures.push(own, theirs);
  }

  // The search endpoint is optional until the read API has it: anything but 200 makes the row n/a.
  if (search === 200) figures.push(await harness.measure('search', server, queries));
  else {
    progress(`search answered ${search}: row n/a`);
    figures.push({ name: `http search: server (${corpus})`, wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable: 'endpoint unavailable' });
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await cleanup();
}
