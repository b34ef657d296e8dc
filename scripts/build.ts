/**
 * `npm run build`: builds the whole static site from the database and
 * content/ into the output folder (default dist/). Safe while the server
 * runs: every file is written to a temporary name and renamed, and unchanged
 * files are left alone.
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { applyHeapGrowth, collectGarbageNow } from '../server/heap-growth.ts';
import { ensureLocalAccount, loadCursorCodec, refreshBodyRenderings } from '../server/bootstrap.ts';
import { systemClock } from '../server/clock.ts';
import { importContent } from '../server/content/import-content.ts';
import { createLogger } from '../server/logger.ts';
import { PROJECT_ROOT } from '../server/paths.ts';
import type { BuildReport } from '../server/publish/builder/build-report.ts';
import { createStaticSite } from '../server/publish/static-site.ts';
import { removeStaleTempFiles } from '../server/output/output-writer.ts';
import { openDatabase, shownDatabase } from '../server/store/database.ts';
import { migrateLogged } from '../server/migrate-logged.ts';
import { createPublicUrls } from '../server/urls/public-urls.ts';
import { parseScriptArgs, wantsHelp } from './lib/cli.ts';
import { keepHostFiles } from '../server/hosting/host-files.ts';
import { createConfiguredEdge } from '../server/edge/create-edge.ts';
import { readEdgeBacklog } from '../server/store/edge-delivery.repository.ts';
import { createSearchKeeper } from '../server/public-api/search-keeper.ts';
import { createPublicModel } from '../server/read-model/public-model.ts';

const HELP = `Usage: npm run build

Builds the whole static site into the output folder (PRESSROOM_OUTPUT_DIR,
default dist/) from the database (PRESSROOM_DATA_DIR) and content/: every
published page, JSON document, Markdown file, feed, the sitemap, robots.txt,
llms.txt, the search index and the read API's search index. Files whose bytes did not change are not rewritten; files of
unpublished content are removed. Progress is logged to stderr. Exits 1 when
the search index failed (the pages are built; run it again once fixed).
With a bucket or a CDN configured (PRESSROOM_DEPLOY_S3_*, PRESSROOM_PURGE_*),
the build's changes are uploaded and purged before it exits; when the bucket
or a CDN refuses, it exits 1 and the work stays queued (the server sends it
when it runs; npm run admin -- edge shows it).
Settings: README.md, "Configuration".
`;

/** How long the build waits for a failing CDN before leaving the purge to the server. */
const EDGE_WAIT_MS = 60_000;

if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(HELP);
  process.exit(0);
}
parseScriptArgs('npm run build --', { usage: '', options: {}, positionals: [] }, process.argv.slice(2));
try {
  const config = loadConfig(process.env, process.cwd());
  applyHeapGrowth(config.heapGrowthPercent);
  const log = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', 'build');
  const db = openDatabase(config.database);
  await migrateLogged(db, shownDatabase(config.database), log);
  // Bodies an older renderer made are rendered again, on every core, before the build reads them.
  await refreshBodyRenderings(db, log.child('bodies'), { threads: config.buildWorkers, timeLimitMs: config.bodyTimeLimitMs });
  const clock = systemClock;
  const local = await ensureLocalAccount({ db, clock }, config.dataDir);
  if (config.importContent) {
    const report = await importContent({ db, clock, log: log.child('content') }, config.contentDir, local.accountId);
    log.info('content imported', report.counts);
  }
  const urls = createPublicUrls(config.publicUrl, config.dashboardUrl);
  // A build's output is what gets deployed: no temporary file a killed writer left goes with it.
  await removeStaleTempFiles(config.outputDir);
  // PRESSROOM_PURGE_*: the build's changes are purged from the CDNs before this exits (issue 35).
  const edge = createConfiguredEdge(config, { db, clock, log: log.child('edge') });
  const site = await createStaticSite({ db, clock, urls, cursors: await loadCursorCodec(db), config, projectRoot: PROJECT_ROOT, log, ...(edge ? { edge } : {}) });
  const hostFiles = keepHostFiles(site.builder, config.staticHost, config.outputDir, log, config.cacheTagPrefix);
  // The counts only: the report lists every path written, which need not stay in memory through the search index.
  const report = counts(await site.builder.fullBuild());
  // PRESSROOM_STATIC_HOST: the host's own files (Netlify's rules, Cloudflare's worker) go with the output.
  await hostFiles.ensure();
  // The read API's search index (SQLite FTS5) is brought in step with what was just built, while the builder
  // still holds the public state: the first start after this build answers /search at once instead of
  // filling the index first (issue 36). A failure is logged; the server fills the index at start then.
  const model = createPublicModel({ db, urls });
  const apiSearch = await createSearchKeeper({
    db,
    state: () => site.builder.publicState(),
    loadTexts: (ids) => model.texts({ ids }),
    lastEventId: () => site.builder.newestEvent(),
    log: log.child('search'),
  });
  await apiSearch.syncAll();
  // Nothing builds after this: what the builder remembers (about a gigabyte at 100,000 articles) need not stay
  // in memory through the search index, which reads its texts from the store.
  await site.builder.release();
  // Collected now: left to V8, the index's first garbage would pile onto the released state first.
  collectGarbageNow();
  // The search index (one Pagefind shard per channel and language) is part of the site.
  const searchStarted = performance.now();
  site.search.rebuildAll();
  await site.search.idle();
  const searchFailed = site.search.failed();
  await site.close();
  // The search index's files go to the bucket too; a failing CDN or bucket is retried with backoff for a
  // while, and what is still pending then waits for the server.
  edge?.refresh();
  await edge?.settle(EDGE_WAIT_MS, { search: true });
  const edgeBacklog = edge ? await readEdgeBacklog(db) : null;
  await edge?.stop();
  await db.destroy();
  if (edgeBacklog && edgeBacklog.pending > 0) {
    process.stderr.write(
      `The bucket upload or CDN purge of this build is still pending (${edge!.targets.join(', ')}): ${edgeBacklog.lastError ?? 'no answer yet'}. It stays queued; the server sends it when it runs (npm run admin -- edge).\n`,
    );
    process.exitCode = 1;
  }
  if (searchFailed) {
    // The pages are in place, but a site deployed now would search an old or missing index.
    process.stderr.write(
      `Built ${config.outputDir}: ${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed in ${report.ms} ms, but the search index failed (the error is above). Fix its cause and run npm run build again; it rebuilds the index.\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `Built ${config.outputDir}: ${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed in ${report.ms} ms; search index in ${Math.round(performance.now() - searchStarted)} ms.\n`,
    );
  }
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

/** What the closing line needs of a build's report. */
function counts(report: BuildReport): Pick<BuildReport, 'written' | 'unchanged' | 'removed' | 'ms'> {
  return { written: report.written, unchanged: report.unchanged, removed: report.removed, ms: report.ms };
}
