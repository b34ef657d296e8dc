/**
 * Build benchmark: generates the corpus (in a child process, so its memory is
 * not counted), then measures in this process a cold full build of every
 * output, the search index, a warm full build (must write nothing), the
 * latency from a publish to its files being in place (a new revision of an
 * existing article, and a new article in every corpus language, which goes
 * to the top of every list and feed of its channel and of the homepage), and
 * from a publish to its Pagefind shard holding it (search fresh), and the
 * start of the bundled server on the up-to-date output (process start → the
 * homepage's first 200), after a first start that fills the read API's
 * search index (process start → the search API's first 200, its own row).
 * Prints a JSON array of
 * results. Run by `npm run bench`; alone:
 * `tsx scripts/bench/build-bench.ts --articles N --languages L [--channels C] [--loops N] [--corpus DIR] [--store postgres]`
 * (`--corpus`: a kept corpus, copied instead of written; `--store postgres`: the
 * corpus copied into a throwaway Postgres cluster, every figure taken there).
 */
import { spawnSync } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { loadCursorCodec } from '../../server/bootstrap.ts';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { applyHeapGrowth, collectGarbageNow } from '../../server/heap-growth.ts';
import { channelAccess } from '../../server/domain/account/access.ts';
import { saveArticle } from '../../server/domain/article/article-save.ts';
import type { ArticleWriteInput } from '../../server/domain/article/article.schema.ts';
import { createLogger } from '../../server/logger.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createStaticSite } from '../../server/publish/static-site.ts';
import { migrateToLatest, openDatabase } from '../../server/store/database.ts';
import { copyToPostgres } from '../../server/store/copy-to-postgres.ts';
import { startPostgres, type PostgresCluster } from '../../test/helpers/postgres-cluster.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import { corpusBody, corpusLanguages } from './corpus.ts';
import { prepareCorpus } from './kept-corpus.ts';
import { startBundledServer } from './http-targets.ts';
import { sampleTree } from './process-tree.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const articles = Number(arg('articles', '200'));
const languages = Number(arg('languages', '2'));
const channels = Number(arg('channels', '20'));
const profileDir = arg('profile', '');
const keptCorpus = arg('corpus', '') ? path.resolve(arg('corpus', '')) : '';
/** `postgres`: the corpus is copied into a throwaway Postgres cluster's database and every figure is taken there (issue 38). */
const store = arg('store', 'sqlite');
if (store !== 'sqlite' && store !== 'postgres') throw new Error(`--store is sqlite or postgres, not "${store}"`);
/** Publishes timed per latency row: `--loops` (bench.ts passes min(--loops, 50)). */
const LATENCY_SAMPLES = Math.max(1, Number(arg('loops', '50')));
const SEARCH_SAMPLES = 3;
const START_SAMPLES = 3;

/** Whether a Pagefind bundle holds `word`: its fragments are gzipped JSON with each page's content. */
function shardHolds(bundle: string, word: string): boolean {
  const dir = path.join(bundle, 'fragment');
  if (!fs.existsSync(dir)) return false;
  return fs.readdirSync(dir).some((f) => {
    const bytes = fs.readFileSync(path.join(dir, f));
    let text: Buffer;
    try {
      text = zlib.gunzipSync(bytes);
    } catch {
      text = bytes;
    }
    return text.includes(word);
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-build-'));
let cluster: PostgresCluster | null = null;
const cleanup = async () => {
  await cluster?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
};
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));

try {
  const here = path.dirname(fileURLToPath(import.meta.url));
  prepareCorpus({ dir, kept: keptCorpus || null, shape: { articles, languages, channels }, progress: (m) => process.stderr.write(`build bench: ${m}\n`) });

  // The corpus is on disk before the cold build starts, as a site's database is before `npm run build`: unsynced,
  // its copy (2 GB at 10,000 articles) was written back during the cold build and cost it 5-8 s at 10,000.
  process.stderr.write('build bench: sync…\n');
  spawnSync('sync', { stdio: 'ignore' });

  // A compile (when src/ changed since the last one) would run Vite in this process and count in the cold build's peak RSS.
  const compiled = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'compile-site.ts')], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (compiled.status !== 0) throw new Error('compiling the site failed');

  // On Postgres: the same corpus, copied as `npm run migrate -- --copy-to` copies it.
  let databaseUrl: string | undefined;
  if (store === 'postgres') {
    cluster = await startPostgres();
    databaseUrl = await cluster.createDatabase();
    process.stderr.write('build bench: copying the corpus into Postgres…\n');
    const source = openDatabase(path.join(dir, 'data', 'pressroom.db'));
    const target = openDatabase(databaseUrl);
    await migrateToLatest(source);
    await migrateToLatest(target);
    await copyToPostgres(source, target);
    await source.destroy();
    await target.destroy();
  }
  const config = loadConfig(
    {
      PRESSROOM_DATABASE_URL: databaseUrl,
      PRESSROOM_DATA_DIR: path.join(dir, 'data'),
      PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'),
      PRESSROOM_PUBLIC_URL: 'http://bench.test',
      PRESSROOM_LOG_LEVEL: 'silent',
      // The one setting taken from the caller's environment, to compare collector settings (docs/PERFORMANCE.md).
      PRESSROOM_HEAP_GROWTH_PERCENT: process.env.PRESSROOM_HEAP_GROWTH_PERCENT,
    },
    dir,
  );
  applyHeapGrowth(config.heapGrowthPercent);
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const clock = systemClock;
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  const site = await createStaticSite({ db, clock, urls, cursors: await loadCursorCodec(db), config, projectRoot: PROJECT_ROOT, log: createLogger('silent') });

  // With --profile, each phase is also a CPU profile of this thread (docs/PERFORMANCE.md, "Profiles").
  const inspector = profileDir ? new Session() : null;
  if (inspector) {
    fs.mkdirSync(profileDir, { recursive: true });
    inspector.connect();
    await inspector.post('Profiler.enable');
  }
  const profiled = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    if (!inspector) return work();
    await inspector.post('Profiler.start');
    try {
      return await work();
    } finally {
      const { profile } = await inspector.post('Profiler.stop');
      fs.writeFileSync(path.join(profileDir, `${phase}.cpuprofile`), JSON.stringify(profile));
    }
  };
  const measure = async <T>(work: () => Promise<T>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const value = await work();
    const used = process.cpuUsage(cpu);
    return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };
  const peakRssMb = () => Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;

  // Issue 17's memory target is the whole tree's peak during a cold build with its search index, as
  // `npm run build` makes them: this process, its worker threads and the Pagefind processes (the corpus
  // writer, a child of its own, has exited). The warm build comes after, so it is not part of it.
  const coldTree = sampleTree(process.pid);
  process.stderr.write('build bench: cold full build…\n');
  // Only the count is kept: the report lists every path written (1.2 million at 100,000 articles), which would
  // otherwise stay in memory through the search index and count in its peak.
  const cold = await measure(() => profiled('build-cold', async () => (await site.builder.fullBuild()).written));
  const coldRss = peakRssMb();
  // As `npm run build` does: the builder's state is released (and collected) before the search index. The warm
  // build below then reads it from the store again, as a second `npm run build` does.
  await site.builder.release();
  collectGarbageNow();
  process.stderr.write('build bench: search index…\n');
  const search = await measure(() =>
    profiled('search-index', async () => {
      site.search.rebuildAll();
      await site.search.idle();
    }),
  );
  coldTree.stop();
  // What made the peak, process by process (the render workers are threads of this process).
  const atPeak = coldTree.peakReading();
  if (atPeak) {
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    process.stderr.write(`build bench: whole-tree peak ${mb(atPeak.rssBytes)} MB: ${atPeak.byProcess.map((p) => `${p.command} ${mb(p.rssBytes)}`).join(', ')}\n`);
  }
  const searchRss = peakRssMb();
  process.stderr.write('build bench: warm full build…\n');
  const warm = await measure(() => profiled('build-warm', async () => (await site.builder.fullBuild()).written));

  // The cold build left ~1 GB of new files for the kernel to write back; a service publishes long after
  // that, so the latency is measured once the disk is quiet again (sync waits for the write-back).
  spawnSync('sync', { stdio: 'ignore' });
  const principal = { accountId: 1, accountName: 'bench', plan: 'pro' as const, keyId: 0 };
  /** Times `LATENCY_SAMPLES` writes from the save to their files in place; `input(i, n)` is write i, into article n's channel. */
  const timePublishes = async (what: string, input: (i: number, n: number) => ArticleWriteInput): Promise<number[]> => {
    process.stderr.write(`build bench: ${LATENCY_SAMPLES} ${what}…\n`);
    const times: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const n = (i * 7919) % articles;
      const started = performance.now();
      await db.transaction().execute(async (trx) => saveArticle(trx, { clock }, await channelAccess(trx, principal, `channel-${n % channels}`), input(i, n), { mode: 'trusted' }));
      await site.builder.applyEvents();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  const latencies = await profiled('publish', () => timePublishes('publishes', (i, n) => ({
    slug: `a-${n}`,
    default_language: 'en',
    translations: [{ language: 'en', title: `Article ${n}, revised ${i}`, content_markdown: `${corpusBody(n, 'en')}\nRevision ${i}.\n` }],
  })));
  const newLatencies = await profiled('new-article', () => timePublishes('new articles', (i) => ({
    slug: `new-${i}`,
    default_language: 'en',
    status: 'published',
    translations: corpusLanguages(languages).map((language) => ({ language, title: `New article ${i} in ${language}`, content_markdown: corpusBody(articles + i, language) })),
  })));

  // Search fresh: from a publish to its Pagefind shard holding it (the shard rebuild runs as the service runs it,
  // after the incremental build, from queue.onBuilt). Median of a few publishes with a word no other page has.
  process.stderr.write('build bench: search fresh…\n');
  /** Saves `input` in `channel`, then times until one of the channel's English bundles holds `word`. */
  const timeSearchFresh = async (channel: string, word: string, input: Parameters<typeof saveArticle>[3]): Promise<number> => {
    const started = performance.now();
    await db.transaction().execute(async (trx) => saveArticle(trx, { clock }, await channelAccess(trx, principal, channel), input, { mode: 'trusted' }));
    site.search.rebuildFor(await site.builder.applyEvents());
    await site.search.idle();
    // The article's part of its channel's English index (`search-parts.ts`): one of the channel's `en.{part}` bundles.
    const channelIndex = path.join(config.outputDir, 'pagefind', channel);
    const parts = fs.readdirSync(channelIndex).filter((f) => f.startsWith('en.'));
    if (!parts.some((part) => shardHolds(path.join(channelIndex, part), word))) throw new Error(`search fresh: no shard of ${channel} holds "${word}"`);
    return performance.now() - started;
  };
  const fresh: number[] = [];
  const freshNew: number[] = [];
  await profiled('search-fresh', async () => {
    for (let i = 0; i < SEARCH_SAMPLES; i++) {
      const n = (i * 104729 + 13) % articles;
      const word = `zqxfresh${i}x${n}`;
      fresh.push(await timeSearchFresh(`channel-${n % channels}`, word, {
        slug: `a-${n}`,
        default_language: 'en',
        translations: [{ language: 'en', title: `Article ${n}, fresh ${i}`, content_markdown: `${corpusBody(n, 'en')}\nThe word ${word}.\n` }],
      }));
    }
    // A new article: the highest id, so it joins its channel's fresh part (`search-parts.ts`), not a part of hundreds.
    for (let i = 0; i < SEARCH_SAMPLES; i++) {
      const word = `zqxnew${i}x${articles}`;
      freshNew.push(await timeSearchFresh(`channel-${(i * 7 + 3) % channels}`, word, {
        slug: `search-fresh-new-${i}`,
        default_language: 'en',
        status: 'published',
        translations: [{ language: 'en', title: `New article ${i}, fresh`, content_markdown: `${corpusBody(articles + 1000 + i, 'en')}\nThe word ${word}.\n` }],
      }));
    }
  });
  fresh.sort((a, b) => a - b);
  freshNew.sort((a, b) => a - b);
  const pct = (p: number, sorted = latencies) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  await site.close();
  await db.destroy();

  // Server start with an up-to-date output: from spawning `npm start`'s script to the first 200 of the homepage.
  process.stderr.write('build bench: server start…\n');
  // The read API's search index is part of an up-to-date output: the first start fills it and stops once
  // search answers (the index then records that it is in step, docs/SEARCH.md). Its own row, not a start sample.
  const fillStarted = performance.now();
  const storeEnv = databaseUrl ? { env: { PRESSROOM_DATABASE_URL: databaseUrl } } : {};
  const filling = await startBundledServer({ ...storeEnv, root: PROJECT_ROOT, dataDir: path.join(dir, 'data'), outputDir: config.outputDir, tmpDir: dir, readyPath: '/api/public/v1/search?q=pressroom', pollMs: 200, timeoutMs: 60 * 60_000 });
  const firstStartMs = performance.now() - fillStarted;
  await filling.stop();
  const starts: number[] = [];
  for (let i = 0; i < START_SAMPLES; i++) {
    const started = performance.now();
    const server = await startBundledServer({ ...storeEnv, root: PROJECT_ROOT, dataDir: path.join(dir, 'data'), outputDir: config.outputDir, tmpDir: dir, readyPath: '/', pollMs: 10 });
    starts.push(performance.now() - started);
    await server.stop();
  }
  starts.sort((a, b) => a - b);

  const shape = channels === 20 ? `${articles}×${languages}` : `${articles}×${languages}, ${channels} channel${channels === 1 ? '' : 's'}`;
  const corpus = store === 'postgres' ? `${shape}, Postgres` : shape;
  process.stdout.write(
    `${JSON.stringify([
      { name: `build-cold (${corpus})`, wallMs: cold.wallMs, cpuMs: cold.cpuMs, peakRssMb: coldRss, files: cold.value },
      { name: `build-warm (${corpus})`, wallMs: warm.wallMs, cpuMs: warm.cpuMs, peakRssMb: peakRssMb(), files: warm.value },
      { name: `search-index (${corpus})`, wallMs: search.wallMs, cpuMs: search.cpuMs, peakRssMb: searchRss },
      { name: `build-cold + search-index, whole tree (${corpus})`, wallMs: cold.wallMs + search.wallMs, cpuMs: 0, peakRssMb: Math.round((coldTree.peakRssBytes() / 2 ** 20) * 10) / 10 },
      { name: `publish-to-files p50 (${corpus})`, wallMs: pct(50), cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `publish-to-files p95 (${corpus})`, wallMs: pct(95), cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `new-article-to-files p50 (${corpus})`, wallMs: pct(50, newLatencies), cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `new-article-to-files p95 (${corpus})`, wallMs: pct(95, newLatencies), cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `search-fresh median (${corpus})`, wallMs: fresh[Math.floor(fresh.length / 2)]!, cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `search-fresh new article median (${corpus})`, wallMs: freshNew[Math.floor(freshNew.length / 2)]!, cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `server-start median (${corpus})`, wallMs: starts[Math.floor(starts.length / 2)]!, cpuMs: 0, peakRssMb: peakRssMb() },
      { name: `first start → search API answers (${corpus})`, wallMs: firstStartMs, cpuMs: 0, peakRssMb: peakRssMb() },
    ])}\n`,
  );
} finally {
  await cleanup();
}
