/**
 * The full build: every owner planned from the store. Article owners whose
 * inputs are unchanged and whose files are in place are not rendered (a warm
 * build renders nothing); a cold build spreads them over worker threads.
 * Files no owner produces any more are deleted, the events before the build
 * are marked processed, and the build is recorded so other processes'
 * builders re-read the public state.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { removeOutput } from '../../output/output-writer.ts';
import { forgetOneBuildMemos } from '../../read-model/identity-memo.ts';
import { articlesAtLeast } from '../../store/article.repository.ts';
import { listPublishedArticleIds } from '../../store/public-read.repository.ts';
import { readBuildOwners } from '../../store/build-owner.repository.ts';
import { writeSetting } from '../../store/instance-setting.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { lastEventId } from '../../store/publication-event.repository.ts';
import { loadIndex, ownerFiles } from './article-owners.ts';
import type { BuildContext } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { startListOwners, type ListOwnerRun } from './list-owners.ts';
import { POOL_BATCH, runArticles } from './article-run.ts';
import type { RenderPool } from '../workers/render-pool.ts';
import { checkOutput, knownOutput } from './known-output.ts';
import { createManifestBatch } from './manifest-batch.ts';
import { settleBuild } from './settle.ts';
import { articleOwner, channelOwner, pagesOwner, SITE_OWNER } from './site-plan.ts';
import { describeError } from '../../describe-error.ts';

/** Below this many articles to render, starting workers costs more than it saves. */
export const POOL_MIN_ARTICLES = 200;
/** Recorded files from which the output check runs in a thread of its own (some 4,000 articles). */
export const CHECK_THREAD_MIN_FILES = 50_000;

/**
 * Setting naming the last full build (a new value each time). A full build in
 * another process (`npm run build` while the server runs) processes the
 * events itself, so a running builder would never read what they changed:
 * when the value is not the one it knows, it drops what it remembers
 * (`BuilderState.followFullBuild`).
 */
export const FULL_BUILD_SETTING = 'last_full_build';

/** Rebuilds everything from the store; removes every file nothing produces. */
export async function runFullBuild(ctx: BuildContext): Promise<BuildReport> {
  const { deps, state } = ctx;
  const started = performance.now();
  const report = emptyReport();
  report.full = true;
  await ctx.ready;
  const highWater = await lastEventId(deps.db);
  const batch = createManifestBatch(deps.db, deps.clock, ctx.output);
  // Started first: in a thread of its own it overlaps reading the heads (a thread costs ~1 s to start, so only
  // for a large output). Nothing writes the manifest until it is awaited.
  const large = await manifest.recordsAtLeast(deps.db, deps.checkThreadMinFiles ?? CHECK_THREAD_MIN_FILES);
  const warned = (what: string, error: unknown) => deps.log.warn(what, { error: describeError(error) });
  const checking =
    deps.checkOutput && large
      ? deps.checkOutput().catch((error: unknown) => {
          // As the output writer does: a thread that cannot run costs time, not the build.
          warned('output check thread failed; checking in this thread', error);
          return checkOutput(deps.db, deps.outputDir);
        })
      : checkOutput(deps.db, deps.outputDir);
  checking.catch(() => undefined); // awaited below; a failure before then is not unhandled
  // Into an output that records no file, every public article is rendered: with enough of them, the render
  // threads start now, while the heads are read (loading two threads took ~2.5 s; the heads took ~1.5 s at
  // 10,000 articles, 4 to 30 s at 100,000). Started for nothing (most articles unpublished), they are closed unused.
  const minArticles = deps.poolMinArticles ?? POOL_MIN_ARTICLES;
  const earlyPool = deps.renderPool && !large && !(await manifest.recordsAtLeast(deps.db, 1)) && (await articlesAtLeast(deps.db, minArticles)) ? deps.renderPool() : undefined;
  earlyPool?.catch(() => undefined); // awaited below
  // A cold build into an empty folder renders every article that may be public: the threads start on them
  // at once, channel by channel, while this thread reads the heads (~20 s at 100,000 articles, when one of
  // two cores did nothing). An article that is not public after all renders nothing.
  let early: { ids: number[]; channelOf: Map<number, number>; pool: RenderPool } | undefined;
  /** The output check, when the early start needed it first (then it is not made again below). */
  let checkedEarly: ReturnType<typeof knownOutput> | undefined;
  if (earlyPool) {
    const empty = (checkedEarly = knownOutput(await checking));
    const pool = empty.owners.size === 0 && empty.unrecorded.length === 0 ? await earlyPool.catch(() => undefined) : undefined;
    const rows = pool ? await listPublishedArticleIds(deps.db) : [];
    // Too few to be worth the threads: the heads decide, as in any other build.
    if (pool && rows.length >= minArticles) early = { ids: rows.map((r) => r.id), channelOf: new Map(rows.map((r) => [r.id, r.channel_id])), pool };
  }
  let release!: () => void;
  let fail!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
  ready.catch(() => undefined); // a failure is the build's own, thrown below
  // Set before `ready` settles; `applied` only runs after.
  let onApplied: (ids: readonly number[]) => Promise<void> = async () => undefined;
  const run = early
    ? runArticles({ ctx, report, batch, ids: early.ids, pool: early.pool, fresh: true, previousOf: () => new Map(), ready, applied: (ids) => onApplied(ids), warn: warned })
    : undefined;
  run?.catch(() => undefined); // awaited below
  let heads: Awaited<ReturnType<typeof deps.model.heads>>;
  let channels: Awaited<ReturnType<typeof deps.model.channels>>;
  let known: ReturnType<typeof knownOutput>;
  let fresh: boolean;
  let lists: ListOwnerRun;
  let rendering: number;
  /** Channels whose lists were applied while the articles rendered. */
  const listed = new Set<number>();
  try {
    heads = await deps.model.heads({});
    // Unrendered owners show their heads; the rendered ones overwrite theirs in `applyArticles`.
    state.showOnly(heads.map((h) => [h.summary.id, h.contentHashes]));
    const stale = new Set(loadIndex(ctx, heads, await readBuildOwners(deps.db)));
    state.through = highWater;
    known = checkedEarly ?? knownOutput(await checking);
    // An owner whose files are not all in place is rendered again, whatever its hash says.
    for (const head of heads) {
      const owner = articleOwner(head.summary.id);
      if (!known.owners.has(owner) || known.incomplete.has(owner)) stale.add(head.summary.id);
    }
    // Nothing of the site in the folder: new files need no look for an old one first.
    fresh = known.owners.size === 0 && known.unrecorded.length === 0;
    channels = await deps.model.channels();
    // Articles are rendered channel by channel, and a channel's lists as soon as its last article is applied
    // (`startListOwners`): they render here while the threads render the next channel's articles.
    const channelOf = new Map(heads.map((h) => [h.summary.id, h.summary.channel.id]));
    const channelOrder = new Map(channels.map((c, i) => [c.id, i]));
    const orderOf = (id: number) => channelOrder.get(channelOf.get(id)!) ?? channels.length;
    const toRender = heads
      .map((h) => h.summary.id)
      .filter((id) => stale.has(id))
      .sort((a, b) => orderOf(a) - orderOf(b));
    // Heads the early start did not hand out (published since it listed them) are rendered after it.
    const handedOut = new Set(early?.ids);
    const after = early ? toRender.filter((id) => !handedOut.has(id)) : toRender;
    for (const [id, channel] of early?.channelOf ?? []) if (!channelOf.has(id)) channelOf.set(id, channel);
    lists = await startListOwners(ctx, channelOrder.keys(), report, batch, { known, fresh });
    /** Articles of each channel still to apply; a channel at 0 has its lists applied at once. */
    const left = new Map<number, number>();
    for (const id of [...(early?.ids ?? []), ...after]) left.set(channelOf.get(id)!, (left.get(channelOf.get(id)!) ?? 0) + 1);
    rendering = early ? early.ids.length + after.length : toRender.length;
    deps.log.info('full build', { articles: heads.length, render: rendering });
    // A line every tenth of the articles, so a long build (minutes at 100,000 articles) shows it is alive.
    const step = Math.max(POOL_BATCH, Math.ceil(rendering / 10));
    let rendered = 0;
    onApplied = async (ids) => {
      const before = Math.floor(rendered / step);
      rendered += ids.length;
      if (Math.floor(rendered / step) > before && rendered < rendering) deps.log.info('full build progress', { rendered, of: rendering, ms: Math.round(performance.now() - started) });
      for (const id of ids) {
        const channel = channelOf.get(id)!;
        const count = left.get(channel)! - 1;
        left.set(channel, count);
        if (count === 0 && channelOrder.has(channel)) {
          listed.add(channel);
          await lists.channel(channel);
        }
      }
    };
    release();
    if (run) await run;
    // As the output writer and the output check do: threads that cannot run cost time, not the build.
    const usePool = !early && after.length >= minArticles && deps.renderPool !== undefined;
    if (!usePool && !early) await earlyPool?.then((unused) => unused.close()).catch(() => undefined);
    const pool = usePool ? await (earlyPool ?? deps.renderPool!()).catch((error: unknown) => void warned('render threads failed to start; rendering in this thread', error)) : undefined;
    try {
      /** The recorded files of `ids`' owners (none to read in a cold build). */
      const previousOf = (ids: readonly number[]) => ownerFiles(ctx, ids.filter((id) => known.owners.has(articleOwner(id))));
      await runArticles({ ctx, report, batch, ids: after, pool: early?.pool ?? pool, fresh, previousOf, ready: Promise.resolve(), applied: (ids) => onApplied(ids), warn: warned });
    } finally {
      await pool?.close();
    }
  } catch (error) {
    fail(error);
    await run?.catch(() => undefined);
    throw error;
  } finally {
    await early?.pool.close();
  }
  await batch.flush();
  // What is left of the lists: channels none of whose articles were rendered (all of them in a warm build),
  // then the site's files. `articles`: every public one (a warm build renders none of them: `rendered`);
  // `early`: channels whose lists were applied while the articles rendered.
  deps.log.info('full build lists', { articles: heads.length, channels: channels.length, ms: Math.round(performance.now() - started), rendered: rendering, early: listed.size });
  for (const channel of channels) if (!listed.has(channel.id)) await lists.channel(channel.id);
  await lists.site();
  // Owners that produce nothing any more (unpublished articles, hidden channels) lose their files.
  const owners = new Set([SITE_OWNER, ...channels.flatMap((c) => [channelOwner(c.id), pagesOwner(c.id)]), ...heads.map((h) => articleOwner(h.summary.id))]);
  const gone = await manifest.filesByOwner(deps.db, [...known.owners].filter((owner) => !owners.has(owner)));
  for (const [owner, files] of gone) {
    batch.apply(owner, [], files, report);
    if (owner.startsWith('article:')) batch.setOwnerState(owner, null);
  }
  await batch.flush();
  // Files nobody recorded when the build began, unless this build recorded them since (a crash had left them).
  const unrecorded = [...known.unrecorded];
  const recordedNow = await manifest.filesAt(deps.db, unrecorded);
  for (const p of unrecorded) {
    if (recordedNow.has(p) || !removeOutput(deps.outputDir, p)) continue;
    report.removed++;
    report.changedPaths.push(p);
  }
  await settleBuild(ctx, report, highWater, true);
  // Every article's list items, sitemap entries and llms lines were made for this build; later builds make the few they need.
  forgetOneBuildMemos();
  const id = randomUUID();
  state.madeFullBuild(id);
  await writeSetting(deps.db, FULL_BUILD_SETTING, id);
  report.ms = Math.round(performance.now() - started);
  deps.log.info('full build done', { written: report.written, unchanged: report.unchanged, removed: report.removed, ms: report.ms });
  return report;
}
