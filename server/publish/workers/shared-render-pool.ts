/**
 * A render pool shared with build workers on other machines (issue 38):
 * on Postgres, the batches of articles of a large build (a full build, or
 * an incremental one of `POOL_MIN_ARTICLES` or more) go to this machine's
 * render threads and, while `npm run worker` processes with build threads
 * run, to them through the job queue (`store/postgres/render-batches.ts`).
 * Each batch is rendered by one of them; the builder keeps the manifest, as
 * with its own threads. The workers write into the output folder they
 * share with the builder: a mark this pool places there for its run (a
 * temporary name, never served) is how a worker knows it is the same folder,
 * and the builder's render fingerprint (code and compiled templates) how it
 * knows it renders the same bytes. A worker that cannot say yes to both
 * answers with an error instead of rendering.
 *
 * Nothing waits on a worker for good: a batch comes back here when its
 * worker answers with an error (and no more go out in this run), when no
 * worker with build threads is alive any more, or after `deadlineMs`
 * (a worker that hangs). A killed worker's batch is run again by another
 * worker (the queue releases a dead runner's jobs), or here once none is left.
 * @module
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../../describe-error.ts';
import type { Logger } from '../../logger.ts';
import type { SiteInfo } from '../../read-model/view-models.ts';
import type { Db } from '../../store/database.ts';
import {
  answeredRenderBatches,
  cancelRenderBatch,
  dropRenderBatches,
  dropStaleRenderBatches,
  liveRenderLanes,
  queueRenderBatch,
  type RenderBatchOutcome,
} from '../../store/postgres/render-batches.ts';
import type { RenderedArticle } from '../builder/article-render.ts';
import type { RenderPool } from './render-pool.ts';

/** What a worker must render a batch with: the builder's settings, not its own. */
export interface BatchSettings {
  readonly publicUrl: string;
  readonly dashboardUrl: string;
  readonly site: SiteInfo;
  /** The builder's render fingerprint (`renderCodeFingerprint()` and the compiled templates' hash). */
  readonly fingerprint: string;
  /** The name of this run's mark in the output folder. */
  readonly mark: string;
}

/** A batch as it goes to a worker (the job's row). */
export interface BatchPayload {
  readonly ids: readonly number[];
  readonly known: Readonly<Record<string, string>>;
  readonly fresh: boolean;
  readonly settings: BatchSettings;
}

/** The queue of batches as this pool uses it: the store's functions for one run (`postgresBatches`). */
export interface RemoteBatches {
  /** How many batches the live workers take at once, in all (0: none runs). */
  lanes(): Promise<number>;
  queue(payload: BatchPayload): Promise<number>;
  answered(ids: readonly number[]): Promise<RenderBatchOutcome[]>;
  /** True when the batch was taken back unanswered. */
  cancel(id: number): Promise<boolean>;
  /** Drops the run's batches and jobs. */
  drop(): Promise<void>;
}

/** The store's batches on `db`, for the run `run`. */
export function postgresBatches(db: Db, run: string): RemoteBatches {
  return {
    lanes: () => liveRenderLanes(db),
    queue: (payload) => queueRenderBatch(db, run, payload),
    answered: (ids) => answeredRenderBatches(db, ids),
    cancel: (id) => cancelRenderBatch(db, id),
    drop: () => dropRenderBatches(db, run),
  };
}

/** The prefix of a run's mark in the output folder (a `.tmp` name: never served, never synced). */
export const MARK_PREFIX = '.pressroom-render-';

/** How often answers are looked for while batches are out. */
const ANSWER_POLL_MS = 100;
/** How often the live workers are counted. */
const LANES_POLL_MS = 1000;
/** How long a batch may stay out before it is taken back (a worker that hangs holds its job and its connection). */
export const BATCH_DEADLINE_MS = 120_000;
/** Batches of builders that died mid-build are dropped after this long. */
const STALE_MINUTES = 24 * 60;

interface Task {
  readonly ids: readonly number[];
  readonly known: Readonly<Record<string, string>>;
  readonly fresh: boolean;
  resolve(results: RenderedArticle[]): void;
  reject(error: Error): void;
}

/** What the pool needs. */
export interface SharedPoolOptions {
  /** This machine's render threads, and how many batches they take at once. */
  readonly local: RenderPool;
  readonly localLanes: number;
  readonly remote: RemoteBatches;
  readonly settings: Omit<BatchSettings, 'mark'>;
  /** The output folder the mark goes into. */
  readonly outputDir: string;
  readonly log: Logger;
  /** The run's id (the mark's name and the batches' `pool`); default: a random one. */
  readonly run?: string;
  readonly deadlineMs?: number;
  readonly answerPollMs?: number;
  readonly lanesPollMs?: number;
}

/** Creates the pool on Postgres: the store's queue for `db`, this machine's threads, and the mark. */
export async function createSharedRenderPool(db: Db, options: Omit<SharedPoolOptions, 'remote' | 'run'>): Promise<RenderPool> {
  const run = randomUUID();
  const dropped = await dropStaleRenderBatches(db, STALE_MINUTES).catch(() => 0);
  if (dropped > 0) options.log.info('dropped build workers\' batches of builds that did not finish', { batches: dropped });
  try {
    return sharedRenderPool({ ...options, remote: postgresBatches(db, run), run });
  } catch (error) {
    // The mark could not be placed (the folder is not writable): the threads are not left running.
    await options.local.close();
    throw error;
  }
}

/**
 * The pool: `render` is answered by this machine's threads or a worker,
 * whichever is free first (this machine's first).
 */
export function sharedRenderPool(o: SharedPoolOptions): RenderPool {
  const run = o.run ?? randomUUID();
  const mark = `${MARK_PREFIX}${run}.tmp`;
  fs.mkdirSync(o.outputDir, { recursive: true });
  fs.writeFileSync(path.join(o.outputDir, mark), `${run}\n`);
  const settings: BatchSettings = { ...o.settings, mark };
  const deadlineMs = o.deadlineMs ?? BATCH_DEADLINE_MS;
  const pending: Task[] = [];
  const out = new Map<number, { task: Task; since: number }>();
  let localBusy = 0;
  let lanes = 0;
  let lanesAt = -Infinity;
  /** Why no more batches go out in this run (a worker's error), or null. */
  let remoteOff: string | null = null;
  let queuing = 0;
  let ticking = false;
  let closed = false;
  const counts = { here: 0, workers: 0, takenBack: 0 };
  const byWorker = new Map<string, number>();

  const runHere = (task: Task) => {
    localBusy++;
    o.local.render(task.ids, task.known, task.fresh).then(
      (results) => {
        counts.here++;
        task.resolve(results);
      },
      (error: unknown) => task.reject(error instanceof Error ? error : new Error(String(error))),
    ).finally(() => {
      localBusy--;
      pump();
    });
  };

  const sendOut = (task: Task) => {
    queuing++;
    o.remote.queue({ ids: task.ids, known: task.known, fresh: task.fresh, settings }).then(
      (id) => out.set(id, { task, since: Date.now() }),
      (error: unknown) => {
        stopSending(`a batch could not be queued: ${describeError(error)}`);
        pending.unshift(task);
      },
    ).finally(() => {
      queuing--;
      pump();
    });
  };

  const stopSending = (why: string) => {
    if (remoteOff) return;
    remoteOff = why;
    o.log.warn('build workers get no more batches in this build; this machine renders the rest', { reason: why });
  };

  /** Hands out what is waiting: this machine's lanes first, then the workers'. */
  function pump(): void {
    while (pending.length > 0 && localBusy < o.localLanes) runHere(pending.shift()!);
    while (pending.length > 0 && remoteOff === null && !closed && out.size + queuing < lanes) sendOut(pending.shift()!);
    if ((out.size > 0 || pending.length > 0) && !closed) schedule();
  }

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      void tick();
    }, o.answerPollMs ?? ANSWER_POLL_MS);
  };

  const takeBack = async (id: number, why: string) => {
    const entry = out.get(id);
    if (!entry || !(await o.remote.cancel(id))) return;
    out.delete(id);
    counts.takenBack++;
    o.log.warn('a batch given to a build worker is rendered here instead', { batch: id, reason: why });
    pending.unshift(entry.task);
  };

  async function tick(): Promise<void> {
    if (ticking || closed) return;
    ticking = true;
    try {
      const now = Date.now();
      if (now - lanesAt >= (o.lanesPollMs ?? LANES_POLL_MS) || (pending.length > 0 && lanes === 0 && now - lanesAt >= 250)) {
        lanes = await o.remote.lanes();
        lanesAt = now;
      }
      if (out.size > 0) {
        for (const answer of await o.remote.answered([...out.keys()])) settle(answer);
        for (const [id, { since }] of [...out]) {
          if (lanes === 0) await takeBack(id, 'no build worker is running');
          else if (now - since > deadlineMs) {
            // A worker that hangs holds its lanes: the rest of this build renders here.
            stopSending(`a build worker gave no answer in ${Math.round(deadlineMs / 1000)} s`);
            await takeBack(id, `no answer in ${Math.round(deadlineMs / 1000)} s`);
          }
        }
      }
    } catch (error) {
      // The database did not answer: the batches out stay there, those waiting render here.
      stopSending(`the database did not answer: ${describeError(error)}`);
      lanes = 0;
    } finally {
      ticking = false;
      pump();
    }
  }

  function settle(answer: RenderBatchOutcome): void {
    const entry = out.get(answer.id);
    if (!entry) return;
    out.delete(answer.id);
    const results = answer.error === null ? checkedResults(answer.results, entry.task.ids) : null;
    if (results === null) {
      stopSending(answer.error ?? `worker ${answer.takenBy ?? '?'} answered a batch with results for other articles`);
      counts.takenBack++;
      pending.unshift(entry.task);
      return;
    }
    counts.workers++;
    if (answer.takenBy) byWorker.set(answer.takenBy, (byWorker.get(answer.takenBy) ?? 0) + 1);
    entry.task.resolve(results);
  }

  return {
    render(ids, known, fresh = false) {
      if (closed) return Promise.reject(new Error('The render pool is closed.'));
      return new Promise<RenderedArticle[]>((resolve, reject) => {
        pending.push({ ids, known, fresh, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const { task } of out.values()) task.reject(new Error('The render pool closed with batches out.'));
      for (const task of pending.splice(0)) task.reject(new Error('The render pool closed with batches waiting.'));
      out.clear();
      if (counts.workers > 0 || counts.takenBack > 0) {
        o.log.info('build workers rendered batches of this build', {
          batches_here: counts.here,
          batches_by_workers: counts.workers,
          taken_back: counts.takenBack,
          workers: Object.fromEntries(byWorker),
        });
      }
      await o.remote.drop().catch((error: unknown) => o.log.warn('dropping the build workers\' batches failed', { error: describeError(error) }));
      fs.rmSync(path.join(o.outputDir, mark), { force: true });
      await o.local.close();
    },
  };
}

/**
 * A worker's results, when they are what this builder asked for: one
 * result per id, in order, each with its files. Anything else is refused
 * (the batch renders here), never recorded.
 */
export function checkedResults(results: unknown, ids: readonly number[]): RenderedArticle[] | null {
  if (!Array.isArray(results) || results.length !== ids.length) return null;
  for (let i = 0; i < ids.length; i++) {
    const r = results[i] as Partial<RenderedArticle> | null;
    if (!r || r.id !== ids[i] || !Array.isArray(r.files) || typeof r.textStarts !== 'object' || r.textStarts === null || r.head === undefined) return null;
    for (const f of r.files as unknown[]) {
      const file = f as { path?: unknown; hash?: unknown; written?: unknown } | null;
      if (!file || typeof file.path !== 'string' || typeof file.hash !== 'string' || typeof file.written !== 'boolean') return null;
    }
  }
  return results as RenderedArticle[];
}
