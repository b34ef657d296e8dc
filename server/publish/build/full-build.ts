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
import { readBuildOwners } from '../../store/build-owner.repository.ts';
import { writeSetting } from '../../store/instance-setting.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { lastEventId } from '../../store/publication-event.repository.ts';
import { applyArticles, loadIndex, ownerFiles } from './article-owners.ts';
import { renderArticles } from './article-render.ts';
import type { BuildContext } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { startListOwners } from './list-owners.ts';
import { checkOutput, knownOutput, type FilesByOwner } from './known-output.ts';
import { createManifestBatch } from './manifest-batch.ts';
import { settleBuild } from './settle.ts';
import { articleOwner, channelOwner, pagesOwner, SITE_OWNER } from './site-plan.ts';

/** Below this many articles to render, starting workers costs more than it saves. */
export const POOL_MIN_ARTICLES = 200;
/** Articles per message to a worker: large enough to amortise a store read, small enough to balance the workers. */
const POOL_BATCH = 16;
/**
 * Batches handed to the workers and not yet applied, at most: enough to keep every worker busy while this
 * thread renders a channel's lists (~2 s at 100,000 articles).
 */
const POOL_WINDOW = 128;
/** Recorded files from which the output check runs in a thread of its own (some 4,000 articles). */
export const CHECK_THREAD_MIN_FILES = 50_000;
/** Manifest rows collected before a transaction writes them. */
const FLUSH_ROWS = 5000;

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
  const warned = (what: string, error: unknown) => deps.log.warn(what, { error: error instanceof Error ? error.message : String(error) });
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
  const heads = await deps.model.heads({});
  // Unrendered owners show their heads; the rendered ones overwrite theirs in `applyArticles`.
  state.showOnly(heads.map((h) => [h.summary.id, h.contentHashes]));
  const stale = new Set(loadIndex(ctx, heads, await readBuildOwners(deps.db)));
  state.through = highWater;
  const known = knownOutput(await checking);
  // An owner whose files are not all in place is rendered again, whatever its hash says.
  for (const head of heads) {
    const owner = articleOwner(head.summary.id);
    if (!known.owners.has(owner) || known.incomplete.has(owner)) stale.add(head.summary.id);
  }
  // Nothing of the site in the folder: new files need no look for an old one first.
  const fresh = known.owners.size === 0 && known.unrecorded.length === 0;
  /** The recorded files of `ids`' owners (none to read in a cold build). */
  const previousOf = (ids: readonly number[]) => ownerFiles(ctx, ids.filter((id) => known.owners.has(articleOwner(id))));
  const channels = await deps.model.channels();
  // Articles are rendered channel by channel, and a channel's lists as soon as its last article is applied
  // (`startListOwners`): they render here while the threads render the next channel's articles.
  const channelOf = new Map(heads.map((h) => [h.summary.id, h.summary.channel.id]));
  const channelOrder = new Map(channels.map((c, i) => [c.id, i]));
  const orderOf = (id: number) => channelOrder.get(channelOf.get(id)!) ?? channels.length;
  const toRender = heads
    .map((h) => h.summary.id)
    .filter((id) => stale.has(id))
    .sort((a, b) => orderOf(a) - orderOf(b));
  const lists = await startListOwners(ctx, channelOrder.keys(), report, batch, { known, fresh });
  /** Articles of each channel still to apply; a channel at 0 has its lists applied at once. */
  const left = new Map<number, number>();
  for (const id of toRender) left.set(channelOf.get(id)!, (left.get(channelOf.get(id)!) ?? 0) + 1);
  const listed = new Set<number>();
  const applied = async (ids: readonly number[]) => {
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
  deps.log.info('full build', { articles: heads.length, render: toRender.length });
  // A line every tenth of the articles, so a long build (minutes at 100,000 articles) shows it is alive.
  const step = Math.max(POOL_BATCH, Math.ceil(toRender.length / 10));
  let rendered = 0;
  const progress = (count: number) => {
    const before = Math.floor(rendered / step);
    rendered += count;
    if (Math.floor(rendered / step) > before && rendered < toRender.length) deps.log.info('full build progress', { rendered, of: toRender.length, ms: Math.round(performance.now() - started) });
  };
  const flushIfFull = async () => {
    if (batch.pending >= FLUSH_ROWS) await batch.flush();
  };
  /** Renders a batch in this thread; one at a time, so a pool's failed batches do not pile up here at once. */
  let hereChain: Promise<unknown> = Promise.resolve();
  const renderHere = (ids: readonly number[], previous: FilesByOwner) => {
    const knownHashes = recordedHashes(previous);
    const rendered = hereChain.then(() => renderArticles(ctx.articles, ids, (p) => knownHashes[p], fresh));
    hereChain = rendered.catch(() => undefined);
    return rendered;
  };
  // As the output writer and the output check do: threads that cannot run cost time, not the build.
  const usePool = toRender.length >= minArticles && deps.renderPool !== undefined;
  if (!usePool) await earlyPool?.then((unused) => unused.close()).catch(() => undefined);
  let pool = usePool
    ? await (earlyPool ?? deps.renderPool!()).catch((error: unknown) => void warned('render threads failed to start; rendering in this thread', error))
    : undefined;
  if (pool) {
    const started = pool;
    /**
     * A batch on the pool; if it fails there, it renders here, and so does every batch not yet handed out (those
     * in flight on the pool finish there, or fail and come here too; the pool is closed once all have settled).
     */
    const render = async (ids: readonly number[], previous: FilesByOwner) => {
      if (pool) {
        try {
          return await pool.render(ids, recordedHashes(previous), fresh);
        } catch (error) {
          if (pool) {
            warned('a render thread failed; rendering the rest in this thread', error);
            pool = undefined;
          }
        }
      }
      return renderHere(ids, previous);
    };
    try {
      let applying = Promise.resolve();
      const batches: Array<Promise<void>> = [];
      for (let i = 0; i < toRender.length; i += POOL_BATCH) {
        const ids = toRender.slice(i, i + POOL_BATCH);
        // A window of batches in flight: each holds its owners' recorded files until it is applied, and after an
        // upgrade (every owner rendered again) handing out every batch at once held the whole manifest.
        if (batches.length >= POOL_WINDOW) await batches[batches.length - POOL_WINDOW];
        const previous = await previousOf(ids);
        batches.push(
          render(ids, previous).then((results) => {
            applying = applying.then(async () => {
              applyArticles(ctx, results, previous, report, batch);
              await flushIfFull();
              progress(ids.length);
              await applied(ids);
            });
            return applying;
          }),
        );
      }
      await Promise.all(batches);
      await applying;
    } finally {
      await started.close();
    }
  } else {
    for (let i = 0; i < toRender.length; i += POOL_BATCH) {
      const ids = toRender.slice(i, i + POOL_BATCH);
      const previous = await previousOf(ids);
      applyArticles(ctx, await renderHere(ids, previous), previous, report, batch);
      await flushIfFull();
      progress(Math.min(POOL_BATCH, toRender.length - i));
      await applied(ids);
    }
  }
  await batch.flush();
  // What is left of the lists: channels none of whose articles were rendered (all of them in a warm build),
  // then the site's files. `articles`: every public one (a warm build renders none of them: `rendered`);
  // `early`: channels whose lists were applied while the articles rendered.
  deps.log.info('full build lists', { articles: heads.length, channels: channels.length, ms: Math.round(performance.now() - started), rendered: toRender.length, early: listed.size });
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

/** The recorded hashes of `previous`'s files, by path (what a render compares its bytes with). */
function recordedHashes(previous: FilesByOwner): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const files of previous.values()) for (const [p, f] of files) hashes[p] = f.hash;
  return hashes;
}
