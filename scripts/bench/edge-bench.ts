/**
 * Edge benchmark (issue 35): a site of `--articles` articles × `--languages`
 * (the corpus of the build benchmark, written or copied from `--corpus DIR`),
 * built, then:
 *
 * - a full sync of the output to a bucket (s3rver, an S3-compatible server
 *   from npm, in this process): objects, bytes, time;
 * - the real service in front of it with a real Varnish (Debian's, with the
 *   generated VCL) purged by tag and the same bucket deployed to, and
 *   `--loops` publishes of a new article, one after the other; for each,
 *   from the write's answer: when the bucket holds its JSON, when Varnish
 *   answers its page and a channel list naming it (the list was cached
 *   before), and when the publishing API reports it published; p50 and p95;
 *   stale answers through Varnish once reported (must be 0); and the purge
 *   requests per publish.
 *
 * Run by `npm run bench -- --only edge`; alone:
 * `tsx scripts/bench/edge-bench.ts --articles N --languages L --loops N [--corpus DIR]`.
 * `EDGE_BENCH_LOG=debug` shows the service's log (each round: deliveries,
 * uploads, tags, purge requests, ms) on stderr.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCursorCodec } from '../../server/bootstrap.ts';
import { systemClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createApiKey } from '../../server/domain/account/account.service.ts';
import { applySync, planSync } from '../../server/edge/bucket/bucket-sync.ts';
import { s3Bucket } from '../../server/edge/bucket/s3-bucket.ts';
import { createLogger } from '../../server/logger.ts';
import { startService } from '../../server/main.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createStaticSite } from '../../server/publish/static-site.ts';
import { migrateToLatest, openDatabase } from '../../server/store/database.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import { freePort } from '../../test/helpers/free-port.ts';
import { S3_BUCKET, startS3 } from '../../test/helpers/s3-server.ts';
import { startVarnish, VARNISH_MISSING } from '../../test/helpers/varnish-host.ts';
import { corpusLanguages } from './corpus.ts';
import { prepareCorpus } from './kept-corpus.ts';
import type { BenchFigure } from './run-measurement.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const articles = Number(arg('articles', '200'));
const languages = Number(arg('languages', '2'));
const loops = Number(arg('loops', '50'));
const keptCorpus = arg('corpus', '') ? path.resolve(arg('corpus', '')) : '';

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;
const rss = () => Math.round(process.memoryUsage.rss() / 2 ** 20);

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 120_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await test()) return performance.now();
    if (performance.now() > deadline) throw new Error(`edge bench: ${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

const name = (what: string) => `edge: ${what} (${articles}×${languages})`;

if (VARNISH_MISSING) {
  console.log(JSON.stringify([{ name: name('publish → fresh at Varnish'), wallMs: 0, cpuMs: 0, peakRssMb: 0, unavailable: VARNISH_MISSING }]));
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-edge-'));
const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
process.once('SIGINT', () => (cleanup(), process.exit(130)));
process.once('SIGTERM', () => (cleanup(), process.exit(143)));
const figures: BenchFigure[] = [];
const s3 = await startS3();
try {
  prepareCorpus({ dir, kept: keptCorpus || null, shape: { articles, languages }, progress: (m) => process.stderr.write(`edge bench: ${m}\n`) });
  for (const [k, v] of Object.entries(s3.env)) if (k.startsWith('AWS_')) process.env[k] = v;
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PRESSROOM_DATA_DIR: path.join(dir, 'data'),
    PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'),
    PRESSROOM_IMPORT_CONTENT: 'false',
    PRESSROOM_LOG_LEVEL: 'warn',
    PRESSROOM_RATE_LIMIT_CONTENT: '0',
    // Cards are drawn once per site and kept; this measures what each publish costs at the edge.
    PRESSROOM_SOCIAL_CARDS: 'false',
  };

  // The site, built as `npm run build` builds it (pages and search index).
  process.stderr.write('edge bench: building the site…\n');
  {
    const config = loadConfig(env, dir);
    const db = openDatabase(config.database);
    await migrateToLatest(db, () => undefined);
    const site = await createStaticSite({ db, clock: systemClock, urls: createPublicUrls(config.publicUrl, config.dashboardUrl), cursors: await loadCursorCodec(db), config, projectRoot: PROJECT_ROOT, log: createLogger('warn') });
    await site.builder.fullBuild();
    site.search.rebuildAll();
    await site.search.idle();
    await site.close();

    // A full sync into the empty bucket.
    process.stderr.write('edge bench: full sync to the bucket…\n');
    const bucket = s3Bucket({ bucket: S3_BUCKET, endpoint: s3.endpoint, region: 'us-east-1', prefix: '', pathStyle: true });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const deps = { db, clock: systemClock, outputDir: config.outputDir, bucket, tagPrefix: config.cacheTagPrefix, maxAgeSeconds: config.cacheMaxAgeSeconds };
    const result = await applySync(deps, await planSync(deps, 'all'));
    const used = process.cpuUsage(cpu);
    figures.push({ name: name(`full sync to the bucket: ${result.uploaded} objects, ${Math.round(result.bytes / 1_048_576)} MB`), wallMs: Math.round(performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000), peakRssMb: rss() });
    await db.destroy();
  }

  const varnish = await startVarnish(`127.0.0.1:${port}`);
  const config = loadConfig({ ...env, PRESSROOM_PURGE_VARNISH_URL: varnish.url, ...Object.fromEntries(Object.entries(s3.env).filter(([k]) => k.startsWith('PRESSROOM_'))) }, dir);
  const service = await startService(config, { log: createLogger((process.env.EDGE_BENCH_LOG as 'debug') ?? 'warn') });
  try {
    // Counted from a quiet start: the start's own builds, search rebuilds and their rounds are done first.
    await service.staticSite!.queue.idle();
    await service.staticSite!.search.idle();
    await service.edge!.settle(600_000, { search: true });
    await service.edge!.idle();
    const { key } = await createApiKey({ db: service.db, clock: systemClock }, { accountName: 'bench', plan: 'pro' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const langs = corpusLanguages(languages);
    const { S3Client, HeadObjectCommand } = await import('@aws-sdk/client-s3');
    const s3Client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
    const inBucket = (k: string) => s3Client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: k })).then(() => true, () => false);
    const viaVarnish = (p: string) => fetch(`${varnish.url}${p}`).then(async (r) => ({ status: r.status, text: await r.text() }));
    const toBucket: number[] = [];
    const toVarnish: number[] = [];
    const toReported: number[] = [];
    let stale = 0;
    const requestsBefore = service.edge!.stats().requests;
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < loops; i++) {
      const slug = `edge-bench-${i}`;
      const channel = `channel-${i % 20}`;
      const list = `/api/public/v1/channels/${channel}/articles`;
      await viaVarnish(list); // cached before the publish
      const written = await fetch(`${service.url}/api/v1/channels/${channel}/pages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ slug, default_language: 'en', status: 'published', publish_translations: true, translations: langs.map((language) => ({ language, title: `${slug} ${language}`, content_markdown: `Edge ${i}.` })) }),
      });
      if (written.status !== 201) throw new Error(`publish: ${written.status} ${await written.text()}`);
      const t0 = performance.now();
      const [bucketAt, varnishAt, reportedAt] = await Promise.all([
        until(`${slug} in the bucket`, () => inBucket(`api/public/v1/channels/${channel}/articles/${slug}.json`)),
        until(`${slug} fresh at Varnish`, async () => (await viaVarnish(`/${channel}/${slug}`)).status === 200 && (await viaVarnish(list)).text.includes(`"${slug}"`)),
        until(`${slug} reported published`, async () => {
          const a = (await (await fetch(`${service.url}/api/v1/channels/${channel}/pages/${slug}`, { headers })).json()) as { translations: Array<{ status: string }> };
          return a.translations.every((t) => t.status === 'published');
        }),
      ]);
      toBucket.push(bucketAt - t0);
      toVarnish.push(varnishAt - t0);
      toReported.push(reportedAt - t0);
      // Once reported, Varnish answers the new state.
      if ((await viaVarnish(`/${channel}/${slug}`)).status !== 200 || !(await viaVarnish(list)).text.includes(`"${slug}"`)) stale += 1;
    }
    const used = process.cpuUsage(cpu);
    const requests = service.edge!.stats().requests - requestsBefore;
    const row = (what: string, ms: number): BenchFigure => ({ name: name(`${what} (${loops} publishes)`), wallMs: round(ms), cpuMs: 0, peakRssMb: rss() });
    figures.push(
      row('publish → object in the bucket p50', percentile(toBucket, 50)),
      row('publish → object in the bucket p95', percentile(toBucket, 95)),
      row('publish → fresh at Varnish p50', percentile(toVarnish, 50)),
      row('publish → fresh at Varnish p95', percentile(toVarnish, 95)),
      row('publish → published reported p50', percentile(toReported, 50)),
      row('publish → published reported p95', percentile(toReported, 95)),
      { ...row(`${(requests / loops).toFixed(2)} purge requests per publish, ${stale} stale once reported`, performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000), failures: stale },
    );
  } finally {
    await service.stop();
    await varnish.stop();
  }
} finally {
  await s3.stop();
  cleanup();
}
console.log(JSON.stringify(figures, null, 2));
