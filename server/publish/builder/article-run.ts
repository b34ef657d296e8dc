/**
 * A full build's article owners, rendered in batches: on the render threads
 * when there is a pool (a batch whose thread fails renders here, and so does
 * every later one), else in this thread; applied in order once `ready` has
 * settled. A cold build hands out its first batches before it has read the
 * heads (`ready` settles once it has), so the threads render while this one
 * reads.
 * @module
 */
import { applyArticles } from './article-owners.ts';
import { renderArticles, type RenderedArticle } from './article-render.ts';
import type { BuildContext } from './build-context.ts';
import type { BuildReport } from './build-report.ts';
import type { FilesByOwner } from './known-output.ts';
import type { ManifestBatch } from './manifest-batch.ts';
import type { RenderPool } from '../workers/render-pool.ts';

/** Articles per message to a worker: large enough to amortise a store read, small enough to balance the workers. */
export const POOL_BATCH = 16;
/**
 * Batches handed to the workers and not yet applied, at most: enough to keep every worker busy while this
 * thread renders a channel's lists (seconds at 100,000 articles).
 */
const POOL_WINDOW = 128;
/**
 * The same before `ready`: the threads render while this one reads the heads (a long wait at 100,000 articles),
 * and the results wait here (a few kilobytes per article).
 */
const EARLY_WINDOW = 512;
/** Manifest rows collected before a transaction writes them. */
const FLUSH_ROWS = 5000;

/** What `runArticles` needs. */
export interface ArticleRunOptions {
  readonly ctx: BuildContext;
  readonly report: BuildReport;
  readonly batch: ManifestBatch;
  /** The owners to render, in the order to hand them out. */
  readonly ids: readonly number[];
  /** Started render threads, or none (every batch renders here). Not closed here. */
  readonly pool: RenderPool | undefined;
  /** `renderArticles`'s `fresh`: the folder held no file of the site. */
  readonly fresh: boolean;
  /** The recorded files of `ids`' owners (at once when none are recorded: the batches are then handed out without a wait). */
  previousOf(ids: readonly number[]): FilesByOwner | Promise<FilesByOwner>;
  /** Nothing is applied before it settles (the builder's index and lists must exist). */
  readonly ready: Promise<unknown>;
  /** After each batch is applied, in order. */
  applied(ids: readonly number[]): Promise<void>;
  /** Says that the threads failed and this thread renders the rest. */
  warn(what: string, error: unknown): void;
}

/** Renders and applies every owner of `ids`; rejects with the first failure (batches not yet handed out are not started). */
export async function runArticles(o: ArticleRunOptions): Promise<void> {
  const { ctx, report, batch, ids: all, fresh } = o;
  const flushIfFull = async () => {
    if (batch.pending >= FLUSH_ROWS) await batch.flush();
  };
  /** Renders a batch in this thread; one at a time, so a pool's failed batches do not pile up here at once. */
  let hereChain: Promise<unknown> = Promise.resolve();
  const renderHere = (ids: readonly number[], previous: FilesByOwner): Promise<RenderedArticle[]> => {
    const knownHashes = recordedHashes(previous);
    const rendered = hereChain.then(() => renderArticles(ctx.articles, ids, (p) => knownHashes[p], fresh));
    hereChain = rendered.catch(() => undefined);
    return rendered;
  };
  let pool = o.pool;
  if (!pool) {
    await o.ready;
    for (let i = 0; i < all.length; i += POOL_BATCH) {
      const ids = all.slice(i, i + POOL_BATCH);
      const previous = await o.previousOf(ids);
      applyArticles(ctx, await renderHere(ids, previous), previous, report, batch);
      await flushIfFull();
      await o.applied(ids);
    }
    return;
  }
  /**
   * A batch on the pool; if it fails there, it renders here, and so does every batch not yet handed out (those
   * in flight on the pool finish there, or fail and come here too).
   */
  const render = async (ids: readonly number[], previous: FilesByOwner) => {
    if (pool) {
      try {
        return await pool.render(ids, recordedHashes(previous), fresh);
      } catch (error) {
        if (pool) {
          o.warn('a render thread failed; rendering the rest in this thread', error);
          pool = undefined;
        }
      }
    }
    return renderHere(ids, previous);
  };
  let isReady = false;
  let applying: Promise<void> = o.ready.then(() => void (isReady = true));
  applying.catch(() => undefined); // awaited below
  const batches: Array<Promise<void>> = [];
  for (let i = 0; i < all.length; i += POOL_BATCH) {
    const ids = all.slice(i, i + POOL_BATCH);
    // A window of batches in flight: each holds its owners' recorded files until it is applied, and after an
    // upgrade (every owner rendered again) handing out every batch at once held the whole manifest.
    const window = isReady ? POOL_WINDOW : EARLY_WINDOW;
    if (batches.length >= window) await batches[batches.length - window];
    const recorded = o.previousOf(ids);
    const previous = recorded instanceof Map ? recorded : await recorded;
    const done = render(ids, previous).then((results) => {
      applying = applying.then(async () => {
        applyArticles(ctx, results, previous, report, batch);
        await flushIfFull();
        await o.applied(ids);
      });
      return applying;
    });
    done.catch(() => undefined); // awaited below, with every other batch
    batches.push(done);
  }
  await Promise.all(batches);
  await applying;
}

/** The recorded hashes of `previous`'s files, by path (what a render compares its bytes with). */
function recordedHashes(previous: FilesByOwner): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const files of previous.values()) for (const [p, f] of files) hashes[p] = f.hash;
  return hashes;
}
