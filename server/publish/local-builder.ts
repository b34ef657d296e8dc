/**
 * The builder in the thread that calls this: its renderers (the warm Astro
 * renderer, the card renderer), its public model, where its files go and
 * its render pool, all made from the config. `npm run build` and the
 * benchmarks use it directly; the service runs it on the build thread
 * (`workers/build-worker.ts`), and `static-site.ts` uses it in place when
 * worker threads are not allowed.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import { openApiJson } from '../openapi-json.ts';
import { createSyncOutputQueue, createThreadOutputQueue, type OutputQueue } from '../output/output-queue.ts';
import { createBodyCache } from '../read-model/body-cache.ts';
import { createPublicModel, type PublicModel } from '../read-model/public-model.ts';
import type { SiteInfo } from '../read-model/view-models.ts';
import { createAstroRenderer } from '../render/astro-renderer.ts';
import { createRenderers, type Renderers } from '../render/renderers.ts';
import { createCardRenderer } from '../render/social-card.ts';
import { staticFiles } from '../serving/static-files.ts';
import type { Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { renderCodeFingerprint } from './builder/owner-inputs.ts';
import { createSiteBuilder, type SiteBuilder } from './builder/site-builder.ts';
import { checkOutputInWorker } from './workers/output-check.ts';
import { createRenderPool, type RenderPool } from './workers/render-pool.ts';
import { createSharedRenderPool } from './workers/shared-render-pool.ts';

/** What the builder needs from its caller. */
export interface LocalBuilderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly urls: PublicUrls;
  readonly cursors: CursorCodec;
  readonly config: Config;
  readonly projectRoot: string;
  /** The compiled Astro site (`ensureSiteBuild`). */
  readonly astroBuildDir: string;
  readonly log: Logger;
  /** The edge each build is delivered to (`server/edge/edge-delivery.ts`); none: readers get the output as it is placed. */
  readonly edge?: { kick(): void };
}

/** The builder and what it was made with (the preview renders with the same renderers and model). */
export interface LocalBuilder {
  readonly builder: SiteBuilder;
  readonly model: PublicModel;
  readonly renderers: Renderers;
  readonly site: SiteInfo;
  /** Stops the builder's writer thread (after its last build). */
  close(): Promise<void>;
}

/** The site settings every renderer sees, from the config. */
export function siteInfo(config: Config): SiteInfo {
  return Object.freeze({ baseUrl: config.publicUrl, name: config.siteName, contentSignal: config.contentSignal, socialCards: config.socialCards });
}

/** The renderers and the public model, without a builder (the request thread's, when the builder has a thread of its own). */
export async function createRenderParts(deps: Pick<LocalBuilderDeps, 'db' | 'urls' | 'config' | 'astroBuildDir' | 'log'>): Promise<{ model: PublicModel; renderers: Renderers; buildHash: string; clientAssets: () => Promise<ReadonlyArray<{ path: string; file: string }>> }> {
  // Loaded by the first render: a start with nothing to build answers without waiting for it.
  const html = await createAstroRenderer(deps.astroBuildDir, { loadOnFirstRender: true });
  // Bodies are stored rendered with their revisions; the few this model must render (rows of another renderer,
  // refreshed at start) are kept in a small cache.
  const model = createPublicModel({ db: deps.db, urls: deps.urls, cache: createBodyCache(1000) });
  const renderers = createRenderers(html, createCardRenderer({ cacheDir: deps.config.cardCacheDir, warn: (message) => deps.log.warn(message) }));
  return { model, renderers, buildHash: html.buildHash, clientAssets: () => html.clientAssets() };
}

/** Creates the builder in this thread. */
export async function createLocalBuilder(deps: LocalBuilderDeps): Promise<LocalBuilder> {
  const { config } = deps;
  const { model, renderers, buildHash, clientAssets } = await createRenderParts(deps);
  const site = siteInfo(config);
  const renderFingerprint = `${renderCodeFingerprint()}:${buildHash}`;
  const renderPool = async (): Promise<RenderPool> => {
    const threads = await createRenderPool(
      { database: config.database, publicUrl: config.publicUrl, dashboardUrl: config.dashboardUrl, astroBuildDir: deps.astroBuildDir, outputDir: config.outputDir, site, cardCacheDir: config.cardCacheDir },
      config.buildWorkers,
    );
    // On Postgres, build workers on other machines (`npm run worker`) take batches too, while any runs.
    if (!config.databaseUrl) return threads;
    return createSharedRenderPool(deps.db, {
      local: threads,
      localLanes: config.buildWorkers,
      settings: { publicUrl: config.publicUrl, dashboardUrl: config.dashboardUrl, site, fingerprint: renderFingerprint },
      outputDir: config.outputDir,
      log: deps.log.child('build-workers'),
    });
  };
  // With worker threads allowed, the builder's own writes go to a thread of their own, overlapping its renders.
  const output: OutputQueue = config.buildWorkers > 0 ? createThreadOutputQueue(config.outputDir) : createSyncOutputQueue(config.outputDir);
  const builder = createSiteBuilder({
    db: deps.db,
    clock: deps.clock,
    model,
    renderers,
    cursors: deps.cursors,
    outputDir: config.outputDir,
    site,
    channelsUrl: deps.urls.channelsJson(),
    log: deps.log,
    assets: async () => [
      ...(await clientAssets()).map((a) => ({ path: a.path, render: () => fs.readFileSync(a.file) })),
      // Both APIs' documents go with the output, so every host serves them (as the bundled server sends them: compact JSON).
      { path: staticFiles.publicOpenApi(), render: () => openApiJson(path.join(deps.projectRoot, 'docs/openapi/public-content-api.yaml')) },
      { path: staticFiles.publishingOpenApi(), render: () => openApiJson(path.join(deps.projectRoot, 'docs/openapi/publishing-api.yaml')) },
    ],
    renderFingerprint,
    output,
    renderPool: config.buildWorkers > 0 ? renderPool : undefined,
    ...(deps.edge ? { edge: deps.edge } : {}),
    checkOutput: config.buildWorkers > 0 ? () => checkOutputInWorker({ database: config.database, outputDir: config.outputDir }) : undefined,
  });
  return { builder, model, renderers, site, close: () => output.close() };
}
