/**
 * Assembles the static side: compiles the Astro site if its sources changed,
 * keeps a warm renderer, and wires the public model, the builder and the build
 * queue. Used by the service (`main.ts`) and by `npm run build`.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import { createCoalescingRunner } from '../serial-work.ts';
import { createAstroRenderer } from '../render/astro-renderer.ts';
import { createRenderers } from '../render/renderers.ts';
import { ensureSiteBuild } from '../render/astro-compile.ts';
import type { SiteInfo } from '../read-model/view-models.ts';
import type { Db } from '../store/database.ts';
import type { PublicUrls } from '../urls/public-urls.ts';
import { staticFiles } from '../urls/static-files.ts';
import YAML from 'yaml';
import { createBodyCache } from '../read-model/body-cache.ts';
import { createBuildQueue, type BuildQueue } from './build-queue.ts';
import { createPublicModel, type PublicArticleText, type PublicModel } from '../read-model/public-model.ts';
import { createSearchIndexer, SEARCH_FOLDER, searchRecords, type SearchIndexer, type Shard } from './search-index.ts';
import { renderCodeFingerprint } from './build/owner-inputs.ts';
import { createSyncOutputQueue, createThreadOutputQueue } from '../output/output-queue.ts';
import { createHostFiles, type HostFiles } from '../hosting/host-files.ts';
import { createRenderPool } from './workers/render-pool.ts';
import { createSiteBuilder, type BuildReport, type SiteBuilder } from './build/site-builder.ts';

/** The static side of a running service. */
export interface StaticSite {
  readonly builder: SiteBuilder;
  readonly queue: BuildQueue;
  readonly search: SiteSearch;
  /** The static host's files in the output (`PRESSROOM_STATIC_HOST`): `ensure()` after the first build; later builds keep them in step. */
  readonly hostFiles: HostFiles;
  /** Waits for the running search rebuild, then stops Pagefind and the output writer thread (stop the queue first). */
  close(): Promise<void>;
}

/**
 * Keeps the Pagefind shards in step with the output (`docs/SEARCH.md`).
 * Rebuilds run in the background, one at a time; requests made meanwhile are
 * coalesced. A failed rebuild is logged and its shards are retried with the
 * next request.
 */
export interface SiteSearch {
  /** Rebuilds every shard (after a full build, or when no index exists). */
  rebuildAll(): void;
  /** Rebuilds the shards a build's changed paths touch (wired to `queue.onBuilt`). */
  rebuildFor(report: Pick<BuildReport, 'changedPaths'>): void;
  /** Whether `pagefind/shards.json` exists. */
  hasIndex(): boolean;
  /** Resolves when no rebuild is running or pending. */
  idle(): Promise<void>;
  /** Waits for the running rebuild, then stops Pagefind. */
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
}): Promise<StaticSite> {
  const { buildDir } = await ensureSiteBuild(deps.projectRoot, { log: (line: string) => deps.log.info(line) });
  const html = await createAstroRenderer(buildDir);
  const site: SiteInfo = Object.freeze({ baseUrl: deps.config.publicUrl, name: deps.config.siteName, contentSignal: deps.config.contentSignal });
  // Bodies are stored rendered with their revisions; the few this model must render (older rows) are stored back,
  // so a small cache suffices.
  const model = createPublicModel({ db: deps.db, urls: deps.urls, cache: createBodyCache(1000), storeBodies: true });
  // With worker threads allowed, the builder's own writes go to a thread of their own, overlapping its renders.
  const output = deps.config.buildWorkers > 0 ? createThreadOutputQueue(deps.config.outputDir) : createSyncOutputQueue(deps.config.outputDir);
  const builder = createSiteBuilder({
    db: deps.db,
    clock: deps.clock,
    model,
    renderers: createRenderers(html),
    cursors: deps.cursors,
    outputDir: deps.config.outputDir,
    site,
    channelsUrl: deps.urls.channelsJson(),
    log: deps.log,
    assets: async () => [
      ...(await html.clientAssets()).map((a) => ({ path: a.path, render: () => fs.readFileSync(a.file) })),
      // Both APIs' documents go with the output, so every host serves them (as the bundled server sends them: compact JSON).
      { path: staticFiles.publicOpenApi(), render: () => openApiJson(deps.projectRoot, 'public-content-api.yaml') },
      { path: staticFiles.publishingOpenApi(), render: () => openApiJson(deps.projectRoot, 'publishing-api.yaml') },
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
              },
              deps.config.buildWorkers,
            )
        : undefined,
  });
  const queue = createBuildQueue(builder, deps.log);
  const search = createSiteSearch(createSearchIndexer({ outputDir: deps.config.outputDir, log: deps.log }), model, deps.config.outputDir, deps.log);
  queue.onBuilt((report) => search.rebuildFor(report));
  const hostFiles = createHostFiles(deps.config.staticHost, deps.config.outputDir);
  builder.onFilesPlaced((paths) => {
    hostFiles.afterBuild(paths).catch((error: unknown) => deps.log.error('host files not written', { host: deps.config.staticHost, error: String(error) }));
  });
  return {
    builder,
    queue,
    search,
    hostFiles,
    async close() {
      await search.close();
      await output.close();
    },
  };
}

/** An OpenAPI document of `docs/openapi/` as JSON. */
function openApiJson(projectRoot: string, name: string): string {
  return JSON.stringify(YAML.parse(fs.readFileSync(path.join(projectRoot, 'docs/openapi', name), 'utf8')));
}

function createSiteSearch(indexer: SearchIndexer, model: PublicModel, outputDir: string, log: Logger): SiteSearch {
  const key = (s: Shard) => `${s.channel}/${s.language}`;
  let pending = new Map<string, Shard>();
  let everything = false;
  // What failed last time, retried with the next request.
  let retry = new Map<string, Shard>();
  let retryEverything = false;
  let closed = false;

  async function once(shards: Shard[], all: boolean): Promise<void> {
    // Only public translations reach the index. Texts are read one channel at a time (the shards are taken
    // channel by channel) and only the current channel's are kept, so a rebuild holds one channel's texts,
    // not the site's.
    const channels = new Map((await model.channels()).map((c) => [c.slug, c.id]));
    let held: { slug: string; articles: PublicArticleText[] } | null = null;
    const articlesOf = async (slug: string): Promise<PublicArticleText[]> => {
      const id = channels.get(slug);
      if (id === undefined) return [];
      if (held?.slug !== slug) held = { slug, articles: await model.texts({ channelId: id }) };
      return held.articles;
    };
    const list = new Map(shards.map((s) => [key(s), s]));
    if (all) {
      for (const s of indexer.existingShards()) list.set(key(s), s);
      // Which languages each channel has: the heads say so without reading a text.
      for (const head of await model.heads({})) {
        for (const t of head.summary.translations) list.set(`${head.summary.channel.slug}/${t.language}`, { channel: head.summary.channel.slug, language: t.language });
      }
    }
    const byChannel = (a: Shard, b: Shard) => (a.channel !== b.channel ? (a.channel < b.channel ? -1 : 1) : a.language < b.language ? -1 : a.language > b.language ? 1 : 0);
    const ordered = [...list.values()].sort(byChannel);
    const report = await indexer.rebuildShards(ordered, async (s) => searchRecords(await articlesOf(s.channel), s));
    log.info(all ? 'search index built' : 'search shards rebuilt', { ...report, msPerShard: report.shards ? Math.round(report.ms / report.shards) : 0 });
  }

  const runner = createCoalescingRunner(
    async () => {
      if (closed || (!everything && pending.size === 0)) return;
      const shards = [...pending.values()];
      const all = everything;
      pending = new Map();
      everything = false;
      try {
        await once(shards, all);
      } catch (error) {
        log.error('search index build failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        for (const s of shards) retry.set(key(s), s);
        retryEverything ||= all;
      }
    },
    () => undefined,
  );

  function request(shards: readonly Shard[], all: boolean): void {
    if (closed) return;
    for (const s of [...retry.values(), ...shards]) pending.set(key(s), s);
    everything ||= all || retryEverything;
    retry = new Map();
    retryEverything = false;
    if (everything || pending.size > 0) runner.kick();
  }

  return {
    rebuildAll: () => request([], true),
    rebuildFor: (report) => request(indexer.shardsForPaths(report.changedPaths), false),
    hasIndex: () => fs.existsSync(path.join(outputDir, SEARCH_FOLDER, 'shards.json')),
    idle: () => runner.idle(),
    async close() {
      closed = true;
      await runner.stop();
      await indexer.close();
    },
  };
}
