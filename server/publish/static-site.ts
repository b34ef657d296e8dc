/**
 * Assembles the static side: compiles the Astro site if its sources changed,
 * and wires the builder (on a thread of its own in the service,
 * `build-thread.ts`; in place otherwise, `local-builder.ts`), the build
 * queue, the search keeper and the preview. Used by the service (`main.ts`)
 * and by `npm run build`.
 * @module
 */
import path from 'node:path';
import { isoNow, type Clock } from '../clock.ts';
import { CHANGING_JOBS } from '../domain/article/article-events.ts';
import { hasJobUnderWay } from '../store/job.repository.ts';
import type { PublicState } from '../read-model/public-state.ts';
import type { PublicModel } from '../read-model/public-model.ts';
import type { Renderers } from '../render/renderers.ts';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import { ensureSiteBuild } from '../render/astro-compile.ts';
import type { Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { createBuildQueue, type BuildQueue } from './build-queue.ts';
import { createThreadSiteBuilder, isRealClock } from './build-thread.ts';
import type { BootingBuildThread } from './build-thread-boot.ts';
import { createSearchIndexer } from './search-index.ts';
import { createSiteSearch, SEARCH_PENDING_FILE, type SiteSearch } from './site-search.ts';
import { createThreadSiteSearch } from './site-search-thread.ts';
import { createStateFeedWriter, feedState } from './state-feed.ts';
import { createLocalBuilder, createRenderParts, siteInfo } from './local-builder.ts';
import type { SiteBuilder } from './builder/site-builder.ts';
import { createArticlePreviewer, type ArticlePreviewer } from './preview.ts';

export type { SiteSearch } from './site-search.ts';

/** The static side of a running service. */
export interface StaticSite {
  readonly builder: SiteBuilder;
  readonly queue: BuildQueue;
  readonly search: SiteSearch;
  /** What publishing an article's current texts would write (the dashboard's preview): the builder's plans and renderers, nothing written. */
  readonly preview: ArticlePreviewer;
  /** Waits for the running search rebuild and build, then stops Pagefind, the build thread and the output writer thread (stop the queue first). */
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
  /**
   * Runs the builder on a thread of its own (`build-thread.ts`), so no reader waits for a build: the service
   * does when worker threads are allowed. Default: in this thread (`npm run build`, the benchmarks' builds).
   */
  builderThread?: boolean;
  /** The build thread, started before the service's modules loaded (`bootBuildThread`, by `npm start`). */
  bootedBuildThread?: BootingBuildThread;
}): Promise<StaticSite> {
  const { config } = deps;
  const { buildDir } = await ensureSiteBuild(deps.projectRoot, { log: (line: string) => deps.log.info(line) });
  const threaded = deps.builderThread === true && config.buildWorkers > 0;
  const thread = threaded
    ? createThreadSiteBuilder(
        { config, projectRoot: deps.projectRoot, astroBuildDir: buildDir, edge: deps.edge !== undefined, realClock: isRealClock(deps.clock) },
        { db: deps.db, clock: deps.clock, log: deps.log, ...(deps.edge ? { edge: deps.edge } : {}) },
        deps.bootedBuildThread,
      )
    : null;
  // Started for a builder that runs here after all: not needed.
  if (!thread) void deps.bootedBuildThread?.worker.terminate();
  // The preview renders on this thread, with renderers of its own when the builder has a thread.
  const local = thread ? null : await createLocalBuilder({ ...deps, astroBuildDir: buildDir });
  const parts = local ?? (await createRenderParts({ ...deps, astroBuildDir: buildDir }));
  // On Postgres the service's builder feeds its public state to web instances that do not build (issue 38).
  const builder: SiteBuilder = thread ?? (deps.builderThread === true && config.databaseUrl ? feedState(local!.builder, createStateFeedWriter(deps)) : local!.builder);
  // A build waits (at most BUILD_GATHER_MS) while a moderation or schedule job is under way: one build per publish, not one per translation.
  const queue = createBuildQueue(builder, deps.log, { hasWork: () => builder.hasUnbuiltEvents(), underWay: () => hasJobUnderWay(deps.db, CHANGING_JOBS, isoNow(deps.clock)) });
  const pendingFile = path.join(config.dataDir, SEARCH_PENDING_FILE);
  // With worker threads allowed, the search keeper runs on a thread of its own, below the request thread's priority.
  const search =
    config.buildWorkers > 0
      ? createThreadSiteSearch(
          { database: config.database, publicUrl: config.publicUrl, dashboardUrl: config.dashboardUrl, outputDir: config.outputDir, lanes: config.searchProcesses, pendingFile, restFactor: config.searchRestFactor },
          deps.log,
        )
      : createSiteSearch(createSearchIndexer({ outputDir: config.outputDir, log: deps.log, lanes: config.searchProcesses }), parts.model, config.outputDir, deps.log, { pendingFile, restFactor: config.searchRestFactor });
  queue.onBuilt((report) => search.rebuildFor(report));
  const preview = previewerOver(parts, { ...deps, state: () => builder.publicState(), pending: () => builder.hasUnbuiltEvents() });
  return {
    builder,
    queue,
    search,
    preview,
    async close() {
      await search.close();
      await thread?.close();
      await local?.close();
    },
  };
}

/**
 * The dashboard's preview where nothing builds (a web instance, `PRESSROOM_ROLE=web`): the same previewer over
 * renderers of its own and the public state it is given (the state feed's mirror).
 */
export async function createPreviewer(deps: PreviewDeps & { projectRoot: string; log: Logger }): Promise<ArticlePreviewer> {
  const { buildDir } = await ensureSiteBuild(deps.projectRoot, { log: (line: string) => deps.log.info(line) });
  return previewerOver(await createRenderParts({ ...deps, astroBuildDir: buildDir }), deps);
}

/** What a previewer needs besides its renderers and model. */
interface PreviewDeps {
  db: Db;
  clock: Clock;
  urls: PublicUrls;
  cursors: CursorCodec;
  config: Config;
  state: () => Promise<PublicState>;
  /** Whether publication events wait to be built. */
  pending: () => Promise<boolean>;
}

/** The dashboard's previewer over `parts`' renderers and model. */
function previewerOver(parts: { model: PublicModel; renderers: Renderers }, deps: PreviewDeps): ArticlePreviewer {
  return createArticlePreviewer({
    db: deps.db,
    clock: deps.clock,
    model: parts.model,
    renderers: parts.renderers,
    cursors: deps.cursors,
    site: siteInfo(deps.config),
    channelsUrl: deps.urls.channelsJson(),
    outputDir: deps.config.outputDir,
    state: deps.state,
    pending: deps.pending,
  });
}
