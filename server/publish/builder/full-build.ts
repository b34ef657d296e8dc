/**
 * The full build: every owner planned from the store, in named phases.
 *
 * 1. Early start (`early-render.ts`): the output check, and for a cold
 *    build the render threads, handed every article that may be public.
 * 2. Plan: the heads, and which article owners are stale (inputs changed,
 *    or files not in place). A warm build finds none and renders nothing.
 * 3. Render with lists: the stale articles, channel by channel, each
 *    channel's lists as soon as its last article is applied.
 * 4. Remaining lists: channels none of whose articles rendered, the site.
 * 5. Orphans: files no owner produces any more are deleted.
 * 6. Record: the events before the build are marked processed, and the
 *    build is recorded so other processes' builders re-read the state.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { describeError } from '../../describe-error.ts';
import { removeOutput } from '../../output/output-writer.ts';
import type { ArticleHead } from '../../read-model/public-model.ts';
import { forgetOneBuildMemos } from '../../read-model/identity-memo.ts';
import type { PublicChannel } from '../../read-model/view-models.ts';
import { readBuildOwners } from '../../store/build-owner.repository.ts';
import { writeSetting } from '../../store/instance-setting.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { lastEventId } from '../../store/publication-event.repository.ts';
import type { RenderPool } from '../workers/render-pool.ts';
import { loadIndex, ownerFiles } from './article-owners.ts';
import { POOL_BATCH, runArticles } from './article-run.ts';
import type { BuildContext } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { POOL_MIN_ARTICLES, startEarlyRun, startOutputCheck, type AppliedBatch, type EarlyRun, type OutputCheckRun, type Warn } from './early-render.ts';
import { knownOutput, type KnownOutput } from './known-output.ts';
import { startListOwners, type ListOwnerRun } from './list-owners.ts';
import { createManifestBatch, type ManifestBatch } from './manifest-batch.ts';
import { settleBuild } from './settle.ts';
import { articleOwner, channelOwner, pagesOwner, SITE_OWNER } from './site-plan.ts';

export { CHECK_THREAD_MIN_FILES, POOL_MIN_ARTICLES } from './early-render.ts';

/**
 * Setting naming the last full build (a new value each time). A full build in
 * another process (`npm run build` while the server runs) processes the
 * events itself, so a running builder would never read what they changed:
 * when the value is not the one it knows, it drops what it remembers
 * (`BuilderState.followFullBuild`).
 */
export const FULL_BUILD_SETTING = 'last_full_build';

/** What the phases of one full build share. */
interface FullRun {
  readonly ctx: BuildContext;
  readonly report: BuildReport;
  readonly batch: ManifestBatch;
  readonly started: number;
  readonly warn: Warn;
}

/** Rebuilds everything from the store; removes every file nothing produces. */
export async function runFullBuild(ctx: BuildContext): Promise<BuildReport> {
  const started = performance.now();
  const report = emptyReport();
  report.full = true;
  await ctx.ready;
  const highWater = await lastEventId(ctx.deps.db);
  const warn: Warn = (what, error) => ctx.deps.log.warn(what, { error: describeError(error) });
  const run: FullRun = { ctx, report, batch: createManifestBatch(ctx.deps.db, ctx.deps.clock, ctx.output, ctx.deps.outputDir), started, warn };
  const output = await startOutputCheck(ctx, warn);
  const early = await startEarlyRun(ctx, output, report, run.batch, warn);
  let plan: OwnerPlan;
  let lists: ListsRun;
  try {
    plan = await planOwners(run, output, early, highWater);
    lists = await renderWithLists(run, plan, early);
  } catch (error) {
    await early.abandon(error, warn);
    throw error;
  } finally {
    await early.close();
  }
  await run.batch.flush();
  await renderRemainingLists(run, plan, lists);
  await removeOrphans(run, plan);
  await recordFullBuild(run, highWater);
  return report;
}

/** What the build renders, from the heads and the folder. */
interface OwnerPlan {
  readonly heads: readonly ArticleHead[];
  readonly channels: readonly PublicChannel[];
  readonly known: KnownOutput;
  /** Nothing of the site in the folder: new files need no look for an old one first. */
  readonly fresh: boolean;
  /** Stale articles the early start did not hand out (published since it listed them), in channel order. */
  readonly rest: readonly number[];
  /** Articles rendered in all: handed out early, and `rest`. */
  readonly rendering: number;
  readonly channelOf: ReadonlyMap<number, number>;
  /** Channels in the order their articles render. */
  readonly channelOrder: ReadonlyMap<number, number>;
}

/** Phase 2: reads the heads, loads the builder's index, and finds the stale article owners. */
async function planOwners(run: FullRun, output: OutputCheckRun, early: EarlyRun, highWater: number): Promise<OwnerPlan> {
  const { deps, state } = run.ctx;
  const heads = await deps.model.heads({});
  // Unrendered owners show their heads; the rendered ones overwrite theirs in `applyArticles`.
  state.showOnly(heads.map((h) => [h.summary.id, h.contentHashes]));
  const stale = new Set(loadIndex(run.ctx, heads, await readBuildOwners(deps.db)));
  state.through = highWater;
  const known = early.checked ?? knownOutput(await output.checking);
  // An owner whose files are not all in place is rendered again, whatever its hash says.
  for (const head of heads) {
    const owner = articleOwner(head.summary.id);
    if (!known.owners.has(owner) || known.incomplete.has(owner)) stale.add(head.summary.id);
  }
  const channels = await deps.model.channels();
  const channelOf = new Map(heads.map((h) => [h.summary.id, h.summary.channel.id]));
  const channelOrder = new Map(channels.map((c, i) => [c.id, i]));
  const orderOf = (id: number) => channelOrder.get(channelOf.get(id)!) ?? channels.length;
  const handedOut = new Set(early.handedOut);
  const rest = heads
    .map((h) => h.summary.id)
    .filter((id) => stale.has(id) && !handedOut.has(id))
    .sort((a, b) => orderOf(a) - orderOf(b));
  for (const [id, channel] of early.channelOf) if (!channelOf.has(id)) channelOf.set(id, channel);
  const fresh = known.owners.size === 0 && known.unrecorded.length === 0;
  return { heads, channels, known, fresh, rest, rendering: early.handedOut.length + rest.length, channelOf, channelOrder };
}

/** The channel lists of a build, and the channels whose lists were applied while the articles rendered. */
interface ListsRun {
  readonly lists: ListOwnerRun;
  readonly listed: ReadonlySet<number>;
}

/**
 * Phase 3: renders the stale articles: the early run's first, then the
 * rest, on threads when there are enough of them. A channel's lists are
 * applied as soon as its last article is (`startListOwners`): they render
 * here while the threads render the next channel's articles.
 */
async function renderWithLists(run: FullRun, plan: OwnerPlan, early: EarlyRun): Promise<ListsRun> {
  const { ctx, report, batch } = run;
  const lists = await startListOwners(ctx, plan.channelOrder.keys(), report, batch, { known: plan.known, fresh: plan.fresh });
  const listed = new Set<number>();
  const applied = progressAndLists(run, plan, early, lists, listed);
  ctx.deps.log.info('full build', { articles: plan.heads.length, render: plan.rendering });
  await early.begin(applied);
  const pool = await threadsForRest(run, plan, early);
  try {
    /** The recorded files of `ids`' owners (none to read in a cold build). */
    const previousOf = (ids: readonly number[]) => ownerFiles(ctx, ids.filter((id) => plan.known.owners.has(articleOwner(id))));
    await runArticles({ ctx, report, batch, ids: plan.rest, pool, fresh: plan.fresh, previousOf, ready: Promise.resolve(), applied, warn: run.warn });
  } finally {
    await pool?.close();
  }
  return { lists, listed };
}

/**
 * The threads that render the rest: the early run's, or new ones when the
 * rest alone is worth them. Threads started early for nothing are closed
 * first. When threads cannot start, the rest renders here, as the output
 * writer and the output check do: threads that cannot run cost time, not
 * the build.
 */
async function threadsForRest(run: FullRun, plan: OwnerPlan, early: EarlyRun): Promise<RenderPool | undefined> {
  const { deps } = run.ctx;
  const worth = plan.rest.length >= (deps.poolMinArticles ?? POOL_MIN_ARTICLES) && deps.renderPool !== undefined && !early.threadsFailed;
  if (early.handedOut.length === 0 && !worth) {
    await early.close();
    return undefined;
  }
  const threads = early.takeThreads() ?? deps.renderPool?.();
  return threads?.catch((error: unknown) => void run.warn('render threads failed to start; rendering in this thread', error));
}

/**
 * What follows each applied batch of articles: a progress line every tenth
 * (a long build, minutes at 100,000 articles, shows it is alive), and a
 * channel's lists once its last article is applied.
 */
function progressAndLists(run: FullRun, plan: OwnerPlan, early: EarlyRun, lists: ListOwnerRun, listed: Set<number>): AppliedBatch {
  /** Articles of each channel still to apply. */
  const left = new Map<number, number>();
  for (const id of [...early.handedOut, ...plan.rest]) left.set(plan.channelOf.get(id)!, (left.get(plan.channelOf.get(id)!) ?? 0) + 1);
  const step = Math.max(POOL_BATCH, Math.ceil(plan.rendering / 10));
  let rendered = 0;
  return async (ids) => {
    const before = Math.floor(rendered / step);
    rendered += ids.length;
    if (Math.floor(rendered / step) > before && rendered < plan.rendering) {
      run.ctx.deps.log.info('full build progress', { rendered, of: plan.rendering, ms: Math.round(performance.now() - run.started) });
    }
    for (const id of ids) {
      const channel = plan.channelOf.get(id)!;
      const count = left.get(channel)! - 1;
      left.set(channel, count);
      if (count === 0 && plan.channelOrder.has(channel)) {
        listed.add(channel);
        await lists.channel(channel);
      }
    }
  };
}

/**
 * Phase 4: the lists of channels none of whose articles were rendered (all
 * of them in a warm build), then the site's files.
 */
async function renderRemainingLists(run: FullRun, plan: OwnerPlan, { lists, listed }: ListsRun): Promise<void> {
  // `articles`: every public one (a warm build renders none of them: `rendered`); `early`: channels whose
  // lists were applied while the articles rendered.
  run.ctx.deps.log.info('full build lists', {
    articles: plan.heads.length,
    channels: plan.channels.length,
    ms: Math.round(performance.now() - run.started),
    rendered: plan.rendering,
    early: listed.size,
  });
  for (const channel of plan.channels) if (!listed.has(channel.id)) await lists.channel(channel.id);
  await lists.site();
}

/**
 * Phase 5: owners that produce nothing any more (unpublished articles,
 * hidden channels) lose their files, and so do files nobody recorded when
 * the build began, unless this build recorded them since (a crash had left
 * them).
 */
async function removeOrphans(run: FullRun, plan: OwnerPlan): Promise<void> {
  const { ctx, report, batch } = run;
  const { db, outputDir } = ctx.deps;
  const owners = new Set([SITE_OWNER, ...plan.channels.flatMap((c) => [channelOwner(c.id), pagesOwner(c.id)]), ...plan.heads.map((h) => articleOwner(h.summary.id))]);
  const gone = await manifest.filesByOwner(db, [...plan.known.owners].filter((owner) => !owners.has(owner)));
  for (const [owner, files] of gone) {
    batch.apply(owner, [], files, report);
    if (owner.startsWith('article:')) batch.setOwnerState(owner, null);
  }
  await batch.flush();
  const unrecorded = [...plan.known.unrecorded];
  const recordedNow = await manifest.filesAt(db, unrecorded);
  for (const p of unrecorded) {
    if (recordedNow.has(p) || !removeOutput(outputDir, p)) continue;
    report.removed++;
    report.changedPaths.push(p);
  }
}

/** Phase 6: settles the build and records it, so builders in other processes re-read the public state. */
async function recordFullBuild(run: FullRun, highWater: number): Promise<void> {
  const { ctx, report } = run;
  await settleBuild(ctx, report, highWater, true);
  // Every article's list items, sitemap entries and llms lines were made for this build; later builds make the few they need.
  forgetOneBuildMemos();
  const id = randomUUID();
  ctx.state.madeFullBuild(id);
  await writeSetting(ctx.deps.db, FULL_BUILD_SETTING, id);
  report.ms = Math.round(performance.now() - run.started);
  ctx.deps.log.info('full build done', { written: report.written, unchanged: report.unchanged, removed: report.removed, ms: report.ms });
}
