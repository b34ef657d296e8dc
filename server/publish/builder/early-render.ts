/**
 * The first phases of a full build, started before the heads are read: the
 * output check (in a thread of its own for a large output), and for a cold
 * build the render threads. Into an output that records no file, every
 * public article is rendered, so with enough of them the threads start at
 * once and are handed every article that may be public, channel by channel,
 * while this thread reads the heads (a long wait at 100,000 articles, when
 * one of two cores did nothing). An article that is not public after all
 * renders nothing. What they render is applied only once the builder's
 * index and lists exist (`EarlyRun.begin`).
 * @module
 */
import { articlesAtLeast } from '../../store/article.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { listPublishedArticleIds } from '../../store/public-read.repository.ts';
import type { RenderPool } from '../workers/render-pool.ts';
import { runArticles } from './article-run.ts';
import type { BuildContext } from './build-context.ts';
import type { BuildReport } from './build-report.ts';
import { awaitedLater, deferred } from './deferred.ts';
import { checkOutput, knownOutput, type KnownOutput, type OutputCheck } from './known-output.ts';
import type { ManifestBatch } from './manifest-batch.ts';

/** Below this many articles to render, starting workers costs more than it saves. */
export const POOL_MIN_ARTICLES = 200;
/** Recorded files from which the output check runs in a thread of its own (some 4,000 articles). */
export const CHECK_THREAD_MIN_FILES = 50_000;

/** Says what went wrong and what the build does instead. */
export type Warn = (what: string, error: unknown) => void;

/** The output check, running. */
export interface OutputCheckRun {
  readonly checking: Promise<OutputCheck>;
  /** The manifest records at least `CHECK_THREAD_MIN_FILES` files. */
  readonly large: boolean;
}

/**
 * Starts comparing the manifest with the folder: in a thread of its own
 * for a large output (it then overlaps reading the heads; for a small one a
 * thread's start costs more than it saves), else here. Nothing writes the
 * manifest until it is awaited.
 */
export async function startOutputCheck(ctx: BuildContext, warn: Warn): Promise<OutputCheckRun> {
  const { deps } = ctx;
  const large = await manifest.recordsAtLeast(deps.db, deps.checkThreadMinFiles ?? CHECK_THREAD_MIN_FILES);
  const checking =
    deps.checkOutput && large
      ? deps.checkOutput().catch((error: unknown) => {
          // As the output writer does: a thread that cannot run costs time, not the build.
          warn('output check thread failed; checking in this thread', error);
          return checkOutput(deps.db, deps.outputDir);
        })
      : checkOutput(deps.db, deps.outputDir);
  return { checking: awaitedLater(checking), large };
}

/** Applies a batch of rendered articles' consequences (progress, a channel's lists): given once the lists exist. */
export type AppliedBatch = (ids: readonly number[]) => Promise<void>;

/** What the early start did. */
export interface EarlyRun {
  /** The output as the early start found it (it needed it first), else undefined: the caller awaits the check. */
  readonly checked: KnownOutput | undefined;
  /** Articles handed to the threads before the heads were read, with their channels; empty when none were. */
  readonly handedOut: readonly number[];
  readonly channelOf: ReadonlyMap<number, number>;
  /** The threads failed to start (and it was said): the build renders in this thread. */
  readonly threadsFailed: boolean;
  /**
   * Hands over the threads it started (rendering `handedOut`, or started for
   * nothing yet), for the caller to close; undefined when none (or taken).
   */
  takeThreads(): Promise<RenderPool> | undefined;
  /** Closes the threads unless they were taken; safe to call again. */
  close(): Promise<void>;
  /** Lets the early run apply what it rendered, through `applied`, and waits until it has applied everything. */
  begin(applied: AppliedBatch): Promise<void>;
  /** A failure came first: the early run applies nothing more; waits until it has stopped. */
  abandon(error: unknown, warn: Warn): Promise<void>;
}

/**
 * Starts the render threads for a cold build (a folder with no recorded
 * file and at least `POOL_MIN_ARTICLES` articles), and hands them every
 * article that may be public when the folder holds nothing of the site.
 * Threads started for nothing (most articles unpublished, or files in the
 * folder) are kept for the caller to use or close.
 */
export async function startEarlyRun(ctx: BuildContext, output: OutputCheckRun, report: BuildReport, batch: ManifestBatch, warn: Warn): Promise<EarlyRun> {
  const { deps } = ctx;
  const minArticles = deps.poolMinArticles ?? POOL_MIN_ARTICLES;
  const cold = deps.renderPool !== undefined && !output.large && !(await manifest.recordsAtLeast(deps.db, 1)) && (await articlesAtLeast(deps.db, minArticles));
  const none = { checked: undefined, handedOut: [], channelOf: new Map<number, number>(), threadsFailed: false, begin: async () => undefined, abandon: async () => undefined };
  if (!cold) return { ...none, ...heldThreads(undefined, warn) };
  // Loading the threads and reading the heads each take seconds, the heads far more at 100,000 articles: the
  // threads load meanwhile (docs/PERFORMANCE-HISTORY.md, issue 17's eighth session).
  const threads = heldThreads(awaitedLater(deps.renderPool!()), warn);
  const checked = knownOutput(await output.checking);
  if (checked.owners.size > 0 || checked.unrecorded.length > 0) return { ...none, checked, ...threads };
  let pool: RenderPool;
  try {
    pool = (await threads.takeThreads())!;
  } catch (error) {
    warn('render threads failed to start; rendering in this thread', error);
    return { ...none, checked, threadsFailed: true, ...heldThreads(undefined, warn) };
  }
  const held = heldThreads(Promise.resolve(pool), warn);
  const rows = await listPublishedArticleIds(deps.db);
  // Too few to be worth the threads: the heads decide, as in any other build.
  if (rows.length < minArticles) return { ...none, checked, ...held };
  const ids = rows.map((r) => r.id);
  const applying = deferred<AppliedBatch>();
  const run = awaitedLater(
    runArticles({ ctx, report, batch, ids, pool, fresh: true, previousOf: () => new Map(), ready: applying.promise, applied: async (done) => (await applying.promise)(done), warn }),
  );
  return {
    checked,
    handedOut: ids,
    channelOf: new Map(rows.map((r) => [r.id, r.channel_id])),
    threadsFailed: false,
    ...held,
    async begin(applied) {
      applying.resolve(applied);
      await run;
    },
    async abandon(error, warnAlso) {
      applying.reject(error);
      // Its own failure, when it is not the one already thrown, is said rather than lost.
      await run.catch((own: unknown) => own !== error && warnAlso('the early render failed too', own));
    },
  };
}

/** Threads held until taken or closed (once). */
function heldThreads(threads: Promise<RenderPool> | undefined, warn: Warn): Pick<EarlyRun, 'takeThreads' | 'close'> {
  let held = threads;
  let closing: Promise<void> | undefined;
  return {
    takeThreads() {
      const taken = held;
      held = undefined;
      return taken;
    },
    close() {
      const unused = held;
      held = undefined;
      closing ??= unused?.then(
        (pool) => pool.close(),
        // Started for nothing and never awaited: the build rendered without them, so it lost nothing.
        (error: unknown) => warn('render threads started for a cold build failed to start (they were not needed)', error),
      ) ?? Promise.resolve();
      return closing;
    },
  };
}
