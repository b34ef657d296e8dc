/**
 * Assembles the static side: compiles the Astro site if its sources changed,
 * keeps a warm renderer, and wires the public model, the builder and the build
 * queue. Used by the service (`main.ts`) and by `npm run build`.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { isoNow, type Clock } from '../clock.ts';
import { CHANGING_JOBS } from '../domain/article/article-events.ts';
import { hasJobUnderWay } from '../store/job.repository.ts';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import { createAstroRenderer } from '../render/astro-renderer.ts';
import { createRenderers } from '../render/renderers.ts';
import { createCardRenderer } from '../render/social-card.ts';
import { ensureSiteBuild } from '../render/astro-compile.ts';
import type { SiteInfo } from '../read-model/view-models.ts';
import type { Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { staticFiles } from '../serving/static-files.ts';
import { openApiJson } from '../openapi-json.ts';
import { createBodyCache } from '../read-model/body-cache.ts';
import { createBuildQueue, type BuildQueue } from './build-queue.ts';
import { createPublicModel } from '../read-model/public-model.ts';
import { createSearchIndexer } from './search-index.ts';
import { createSiteSearch, SEARCH_PENDING_FILE, type SiteSearch } from './site-search.ts';
import { createThreadSiteSearch } from './site-search-thread.ts';
import { renderCodeFingerprint } from './builder/owner-inputs.ts';
import { createSyncOutputQueue, createThreadOutputQueue } from '../output/output-queue.ts';
import { checkOutputInWorker } from './workers/output-check.ts';
import { createRenderPool } from './workers/render-pool.ts';
import { createSiteBuilder, type SiteBuilder } from './builder/site-builder.ts';
import { createArticlePreviewer, type ArticlePreviewer } from './preview.ts';

export type { SiteSearch } from './site-search.ts';

/** The static side of a running service. */
export interface StaticSite {
  readonly builder: SiteBuilder;
  readonly queue: BuildQueue;
  readonly search: SiteSearch;
  /** What publishing an article's current texts would write (the dashboard's preview): the builder's plans and renderers, nothing written. */
  readonly preview: ArticlePreviewer;
  /** The static host's files in the output (`PRESSROOM_STATIC_HOST`): `ensure()` after the first build; later builds keep them in step. */
  /** Waits for the running search rebuild, then stops Pagefind and the output writer thread (stop the queue first). */
  close(): Promise<void>;
}

/**
 * Creates the static side. Compiling the site takes a few seconds the first
 * time and is skipped while `src/` is unchanged.
 */
export async function createStaticSite(deps: {
  db: Db;
  clock: Clock;
  urls: PublicUrls;
  cursors: CursorCodec;
  config: Config;
  projectRoot: string;
  log: Logger;
  /** The edge each build is delivered to (`server/edge/edge-delivery.ts`); none: readers get the output as it is placed. */
  edge?: { kick(): void };
}): Promise<StaticSite> {
  const { buildDir } = await ensureSiteBuild(deps.projectRoot, { log: (line: string) => deps.log.info(line) });
  // Loaded by the first render: a start with nothing to build answers without waiting for it.
  const html = await createAstroRenderer(buildDir, { loadOnFirstRender: true });
  const site: SiteInfo = Object.freeze({ baseUrl: deps.config.publicUrl, name: deps.config.siteName, contentSignal: deps.config.contentSignal, socialCards: deps.config.socialCards });
  // Bodies are stored rendered with their revisions; the few this model must render (rows of another renderer,
  // refreshed at start) are kept in a small cache.
  const model = createPublicModel({ db: deps.db, urls: deps.urls, cache: createBodyCache(1000) });
  // With worker threads allowed, the builder's own writes go to a thread of their own, overlapping its renders.
  const output = deps.config.buildWorkers > 0 ? createThreadOutputQueue(deps.config.outputDir) : createSyncOutputQueue(deps.config.outputDir);
  const renderers = createRenderers(html, createCardRenderer({ cacheDir: deps.config.cardCacheDir, warn: (message) => deps.log.warn(message) }));
  const builder = createSiteBuilder({
    db: deps.db,
    clock: deps.clock,
    model,
    renderers,
    cursors: deps.cursors,
    outputDir: deps.config.outputDir,
    site,
    channelsUrl: deps.urls.channelsJson(),
    log: deps.log,
    assets: async () => [
      ...(await html.clientAssets()).map((a) => ({ path: a.path, render: () => fs.readFileSync(a.file) })),
      // Both APIs' documents go with the output, so every host serves them (as the bundled server sends them: compact JSON).
      { path: staticFiles.publicOpenApi(), render: () => openApiJson(path.join(deps.projectRoot, 'docs/openapi/public-content-api.yaml')) },
      { path: staticFiles.publishingOpenApi(), render: () => openApiJson(path.join(deps.projectRoot, 'docs/openapi/publishing-api.yaml')) },
    ],
    renderFingerprint: `${renderCodeFingerprint()}:${html.buildHash}`,
    output,
    renderPool:
      deps.config.buildWorkers > 0
        ? () =>
            createRenderPool(
              {
                databaseFile: deps.config.databaseFile,
                publicUrl: deps.config.publicUrl,
                dashboardUrl: deps.config.dashboardUrl,
                astroBuildDir: buildDir,
                outputDir: deps.config.outputDir,
                site,
                cardCacheDir: deps.config.cardCacheDir,
              },
              deps.config.buildWorkers,
            )
        : undefined,
    ...(deps.edge ? { edge: deps.edge } : {}),
    checkOutput: deps.config.buildWorkers > 0 ? () => checkOutputInWorker({ databaseFile: deps.config.databaseFile, outputDir: deps.config.outputDir }) : undefined,
  });
  // A build waits (at most BUILD_GATHER_MS) while a moderation or schedule job is under way: one build per publish, not one per translation.
  const queue = createBuildQueue(builder, deps.log, { hasWork: () => builder.hasUnbuiltEvents(), underWay: () => hasJobUnderWay(deps.db, CHANGING_JOBS, isoNow(deps.clock)) });
  const pendingFile = path.join(deps.config.dataDir, SEARCH_PENDING_FILE);
  // With worker threads allowed, the search keeper runs on a thread of its own, below the request thread's priority.
  const search =
    deps.config.buildWorkers > 0
      ? createThreadSiteSearch(
          { databaseFile: deps.config.databaseFile, publicUrl: deps.config.publicUrl, dashboardUrl: deps.config.dashboardUrl, outputDir: deps.config.outputDir, lanes: deps.config.searchProcesses, pendingFile },
          deps.log,
        )
      : createSiteSearch(createSearchIndexer({ outputDir: deps.config.outputDir, log: deps.log, lanes: deps.config.searchProcesses }), model, deps.config.outputDir, deps.log, undefined, pendingFile);
  queue.onBuilt((report) => search.rebuildFor(report));
  const preview = createArticlePreviewer({
    db: deps.db,
    clock: deps.clock,
    model,
    renderers,
    cursors: deps.cursors,
    site,
    channelsUrl: deps.urls.channelsJson(),
    outputDir: deps.config.outputDir,
    state: () => builder.publicState(),
    pending: () => builder.hasUnbuiltEvents(),
  });
  return {
    builder,
    queue,
    search,
    preview,
    async close() {
      await search.close();
      await output.close();
    },
  };
}

