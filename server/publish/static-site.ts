/**
 * Assembles the static side: compiles the Astro site if its sources changed,
 * keeps a warm renderer, and wires the public model, the builder and the build
 * queue. Used by the service (`main.ts`) and by `npm run build`.
 * @module
 */
import fs from 'node:fs';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import { createAstroRenderer } from '../render/astro-renderer.ts';
import { createRenderers } from '../render/renderers.ts';
import { ensureSiteBuild } from '../render/site-build.ts';
import type { SiteInfo } from '../render/view-models.ts';
import type { Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { createBodyCache } from './body-cache.ts';
import { createBuildQueue, type BuildQueue } from './build-queue.ts';
import { createPublicModel } from './public-model.ts';
import { createSiteBuilder, type SiteBuilder } from './site-builder.ts';

/** The static side of a running service. */
export interface StaticSite {
  readonly builder: SiteBuilder;
  readonly queue: BuildQueue;
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
}): Promise<StaticSite> {
  const { buildDir } = await ensureSiteBuild(deps.projectRoot, { log: (line: string) => deps.log.info(line) });
  const html = await createAstroRenderer(buildDir);
  const site: SiteInfo = Object.freeze({ baseUrl: deps.config.publicUrl, name: deps.config.siteName, contentSignal: deps.config.contentSignal });
  const builder = createSiteBuilder({
    db: deps.db,
    clock: deps.clock,
    model: createPublicModel({ db: deps.db, urls: deps.urls, cache: createBodyCache() }),
    renderers: createRenderers(html),
    cursors: deps.cursors,
    outputDir: deps.config.outputDir,
    site,
    channelsUrl: deps.urls.channelsJson(),
    log: deps.log,
    assets: async () => (await html.clientAssets()).map((a) => ({ path: a.path, render: () => fs.readFileSync(a.file) })),
  });
  return { builder, queue: createBuildQueue(builder, deps.log) };
}
