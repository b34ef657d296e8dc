/**
 * Builds the static output. The full build (`full-build.ts`) and the
 * incremental build (`incremental-build.ts`) run the same plans
 * (`site-plan.ts`) through the same writer; the incremental build only
 * narrows which owners it re-plans, from the publication events.
 *
 * Cost follows the change, not the site (docs/ARCHITECTURE.md, "Static
 * build"):
 * - The builder keeps every public article without bodies
 *   (`PublicArticleSummary`, a few hundred bytes each) in its state
 *   (`builder-state.ts`); channel and site files are rendered from it, and
 *   only article owners read bodies.
 * - A full build hashes each article owner's inputs (`owner-inputs.ts`) and
 *   renders only those whose hash changed or whose files are missing; a warm
 *   build reads no body and renders no article.
 * - A cold build spreads article owners over worker threads
 *   (`workers/render-pool.ts`), this thread reading the store and keeping
 *   the manifest.
 *
 * Each owner's files are compared with the manifest: unchanged bytes are not
 * rewritten, files no longer produced are deleted. Events are marked
 * processed only after their files are in place (`settle.ts`), so a crash
 * mid-build is finished at the next start.
 * @module
 */
import { createSerialQueue } from '../../serial-work.ts';
import { createSyncOutputQueue } from '../../output/output-queue.ts';
import type { PublicState } from '../../read-model/public-state.ts';
import { ensureBuildOwners } from '../../store/build-owner.repository.ts';
import { hasUnbuiltEvent, lastEventId } from '../../store/publication-event.repository.ts';
import { ensureIndex } from './article-owners.ts';
import type { BuildContext, SiteBuilderDeps } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { BuilderState } from './builder-state.ts';
import { runFullBuild } from './full-build.ts';
import { startOutputCheck } from './early-render.ts';
import { needsRepair, type OutputCheck } from './known-output.ts';
import { describeError } from '../../describe-error.ts';
import { runIncrementalBuild } from './incremental-build.ts';
import { ensureAnchors } from './list-owners.ts';
import { createManifestBatch } from './manifest-batch.ts';
import { renderCodeFingerprint } from './owner-inputs.ts';
import { createReaderTurns } from './reader-turns.ts';

export type { BuildReport } from './build-report.ts';
export type { SiteBuilderDeps } from './build-context.ts';
export { POOL_MIN_ARTICLES } from './full-build.ts';

/** The builder's operations. */
export interface SiteBuilder {
  /** Rebuilds everything from the store; removes every file nothing produces. */
  fullBuild(): Promise<BuildReport>;
  /**
   * Checks the output folder against the manifest (recorded files missing, files whose bytes are not the
   * recorded ones, files nobody recorded: `known-output.ts`) and, when it finds any, repairs the folder with a
   * full build, in the same turn of the builder's queue (no build writes while it looks). Resolves with what
   * it found and the build, or null when the folder was as recorded.
   */
  repairOutput(): Promise<{ check: OutputCheck; report: BuildReport } | null>;
  /** Applies the pending publication events; resolves with what changed (empty when none were pending). */
  applyEvents(): Promise<BuildReport>;
  /**
   * The public state the output was last built from (loaded from the store
   * the first time), for the read API's on-demand variants and search: the
   * same values the static files were rendered from.
   */
  publicState(): Promise<PublicState>;
  /** The public state as held now, without reading the store; null when it is not held (before the first read, after `release()`). */
  heldState(): PublicState | null;
  /**
   * The newest publication event in the store: a public state read now
   * shows every change up to it (`PublicState.through`).
   */
  newestEvent(): Promise<number>;
  /** Whether publication events wait to be built (the next `applyEvents` has work). */
  hasUnbuiltEvents(): Promise<boolean>;
  /**
   * Subscribes to the paths a build wrote or removed, told once all of that
   * build's files are in place and before the build is recorded as shown
   * (`built_translations`), so a cache of the output is fresh by the time
   * the publishing API reports the change. The build waits for a listener's promise.
   */
  onFilesPlaced(listener: (paths: readonly string[]) => void | Promise<void>): void;
  /**
   * Drops what the builder remembers between builds (the public state, the
   * list anchors, the render memo); the next build or `publicState()` reads
   * the store again. Waits for a running build. `npm run build` calls it
   * before the search index: at 100,000 articles that state is the bulk of
   * the process's heap, and the index does not need it (docs/PERFORMANCE.md,
   * "What bounds them").
   */
  release(): Promise<void>;
}

/** Creates the builder. Builds never overlap: each waits for the previous one. */
export function createSiteBuilder(deps: SiteBuilderDeps): SiteBuilder {
  const output = deps.output ?? createSyncOutputQueue(deps.outputDir);
  // Where the builder runs on the request thread (`npm run build`, PRESSROOM_BUILD_WORKERS=0), it lets readers in
  // between files (issue 36); on the build thread the turns cost a few microseconds each and change nothing.
  const turns = createReaderTurns();
  const ctx: BuildContext = {
    deps,
    state: new BuilderState(),
    output,
    fingerprint: deps.renderFingerprint ?? renderCodeFingerprint(),
    articles: { model: deps.model, renderers: deps.renderers, site: deps.site, outputDir: deps.outputDir, files: output, turns },
    ready: ensureBuildOwners(deps.db),
    placedListeners: [],
    turns,
  };
  const queue = createSerialQueue();

  return {
    fullBuild: () => queue.run(() => runFullBuild(ctx)),
    repairOutput: () =>
      queue.run(async () => {
        await ctx.ready;
        const run = await startOutputCheck(ctx, (what, error) => deps.log.warn(what, { error: describeError(error) }));
        const check = await run.checking;
        return needsRepair(check) ? { check, report: await runFullBuild(ctx) } : null;
      }),
    newestEvent: () => lastEventId(deps.db),
    hasUnbuiltEvents: () => hasUnbuiltEvent(deps.db),
    applyEvents: () => queue.run(() => runIncrementalBuild(ctx)),
    async publicState() {
      if (ctx.state.complete) return ctx.state.publicState();
      // Read between builds, so no build drops the state while it is read.
      return queue.run(async () => {
        const batch = createManifestBatch(deps.db, deps.clock, output, deps.outputDir);
        await ensureIndex(ctx, emptyReport(), batch);
        await batch.flush();
        // The objects its articles point at (`sameChannel`), as a build's list owners hold them: a delta names an
        // article's channel by its place in this list, and a copy of the list per article is memory for nothing.
        ctx.state.channels ??= (await deps.model.channels()).map(ctx.state.memo.sameChannel);
        await ensureAnchors(ctx);
        return ctx.state.publicState();
      });
    },
    heldState: () => (ctx.state.complete ? ctx.state.publicState() : null),
    onFilesPlaced(listener) {
      ctx.placedListeners.push(listener);
    },
    release: () => queue.run(async () => ctx.state.forget()),
  };
}
