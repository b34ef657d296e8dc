/**
 * The builder on a thread of its own (issue 36: no reader waits for the
 * writer).
 *
 * An incremental build renders a channel's lists and feeds, the cursor pages
 * around a change and the site's files, hashes them and keeps the manifest:
 * work proportional to a channel, at every publish. On the request thread
 * that was most of its time while articles were published two a second, and
 * readers' requests queued behind it. The build thread
 * (`workers/build-worker.ts`) opens the store itself and runs the same
 * builder (`local-builder.ts`); this side is a `SiteBuilder` that forwards
 * each operation and keeps what the request thread reads between them:
 *
 * - **The public state** the read API answers from, as a mirror
 *   (`read-model/state-delta.ts`) made from what each build changed. The
 *   thread sends it when a build's files are in place and waits until it is
 *   applied here (with the files' paths, for the file cache), before the
 *   build is recorded as shown: by the time the publishing API reports a
 *   change published, the on-demand answers show it too, as the files do.
 * - **Log lines and the edge's wake-up**, written and called here.
 *
 * The clock: a real clock is the thread's own; a test's manual clock is
 * sent with each operation, and the thread's clock reads that time.
 *
 * Should the thread stop, the operations it had fail with
 * `BUILD_THREAD_FAILED` (their events stay unprocessed, so the build queue's
 * next build does them), the mirror is dropped, and the next operation
 * starts a new thread, which sends the whole state again.
 * @module
 */
import type { Worker } from 'node:worker_threads';
import { systemClock, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { describeError } from '../describe-error.ts';
import { InternalError } from '../internal-error.ts';
import type { Logger } from '../logger.ts';
import { createStateMirror, type StateDelta } from '../read-model/state-delta.ts';
import type { Db } from '../store/database.ts';
import { hasUnbuiltEvent, lastEventId } from '../store/publication-event.repository.ts';
import { closeThread } from '../thread-close.ts';
import { threadLogWriter, type ThreadLogLine } from '../thread-log.ts';
import type { SiteBuilder } from './builder/site-builder.ts';
import { bootBuildThread, type BootingBuildThread } from './build-thread-boot.ts';

/** What the thread needs to make its own store handle and builder. */
export interface BuildWorkerData {
  readonly config: Config;
  readonly projectRoot: string;
  readonly astroBuildDir: string;
  /** Whether builds are delivered to an edge (then the thread asks this side to wake it after each). */
  readonly edge: boolean;
  /** Whether the caller's clock is the real one (else the thread reads the time each operation brings). */
  readonly realClock: boolean;
}

/** The operations the thread runs, one at a time, in the order sent. */
export type BuildOp = 'fullBuild' | 'repairOutput' | 'applyEvents' | 'publicState' | 'release';

/** What this side sends. */
export type BuildRequest =
  | { readonly init: BuildWorkerData }
  | { readonly call: number; readonly op: BuildOp; readonly now: string }
  | { readonly placedAck: number }
  | { readonly close: true };

/** What the state part of a reply says: a delta to apply, forget what is held (the thread holds nothing), or nothing changed. */
export type StateNews = StateDelta | 'forget' | null;

/** What the thread sends. */
export type BuildThreadReport =
  | { readonly ready: true }
  | { readonly bootError: string }
  | { readonly log: ThreadLogLine }
  | { readonly edgeKick: true }
  /** A build's files are in place: apply `state`, tell the listeners `paths`, then acknowledge. */
  | { readonly placed: number; readonly paths: readonly string[]; readonly state: StateNews }
  | { readonly done: number; readonly result: unknown; readonly state: StateNews }
  | { readonly failed: number; readonly error: string }
  | { readonly closed: true };

/** A builder whose thread can be stopped. */
export interface ThreadSiteBuilder extends SiteBuilder {
  /** Waits for the running operation, then stops the thread. */
  close(): Promise<void>;
}

/** Starts the build thread (at once: loading its sources takes a second or two, overlapping the rest of the start). */
export function createThreadSiteBuilder(
  data: BuildWorkerData,
  deps: { db: Db; clock: Clock; log: Logger; edge?: { kick(): void } },
  /** A thread started earlier (`bootBuildThread`, by `npm start` before the service's modules load): used first. */
  booted?: BootingBuildThread,
): ThreadSiteBuilder {
  const mirror = createStateMirror();
  const writeLog = threadLogWriter(deps.log);
  const placedListeners: Array<(paths: readonly string[]) => void | Promise<void>> = [];
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let calls = 0;
  let worker: Worker | null = null;
  let closing: Promise<void> | null = null;
  let loading: Promise<void> | null = null;

  const applyState = (news: StateNews) => {
    if (news === 'forget') mirror.forget();
    else if (news) mirror.apply(news);
  };
  const lost = (w: Worker, why: string) => {
    if (worker !== w) return;
    worker = null;
    // A thread that could not start still listens for messages: end it.
    void w.terminate();
    mirror.forget();
    if (closing) return;
    if (pending.size > 0) deps.log.error('the build thread stopped: its builds are retried on a new thread', { error: why, pending: pending.size });
    const failed = [...pending.values()];
    pending.clear();
    for (const call of failed) call.reject(new InternalError('BUILD_THREAD_FAILED', `The build thread stopped (${why}). The build is retried on a new thread with the next one.`));
  };

  function start(): Worker {
    const boot = booted ?? bootBuildThread();
    booted = undefined;
    const w = boot.worker;
    const onMessage = (report: BuildThreadReport | { error: string }) => {
      if ('log' in report) writeLog(report.log);
      else if ('edgeKick' in report) deps.edge?.kick();
      else if ('placed' in report) {
        void (async () => {
          try {
            applyState(report.state);
            for (const listener of placedListeners) await listener(report.paths);
          } catch (error) {
            // What is held here may be half of the build: dropped, so the next answer of the thread finds no
            // mirror to apply to and starts a thread that sends the whole state again (below).
            mirror.forget();
            deps.log.error('a build could not be taken in on the request thread', { error: describeError(error, { stack: true }) });
          }
          w.postMessage({ placedAck: report.placed } satisfies BuildRequest);
        })();
      } else if ('done' in report) {
        try {
          applyState(report.state);
        } catch (error) {
          // The mirror and the thread disagree on what was sent (a build not taken in above): a new thread
          // sends the whole state; this operation's result stands.
          deps.log.error('the public state from the build thread could not be applied: starting a new thread', { error: describeError(error) });
          settle(report.done)?.resolve(report.result);
          return lost(w, 'its public state could not be applied here');
        }
        settle(report.done)?.resolve(report.result);
      } else if ('failed' in report) settle(report.failed)?.reject(new Error(report.error));
      else if ('bootError' in report) lost(w, report.bootError);
      else if ('error' in report) lost(w, report.error);
    };
    const onError = (error: unknown) => lost(w, error instanceof Error ? (error.stack ?? error.message) : String(error));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', (code) => lost(w, `exit code ${code}`));
    w.unref();
    w.postMessage({ init: data } satisfies BuildRequest);
    // What it said while loading, before this side listened (a failed import, an exit), is taken in now.
    const early = boot.take();
    queueMicrotask(() => {
      for (const message of early.messages) onMessage(message as BuildThreadReport);
      if (early.error) onError(early.error);
      if (early.exitCode !== null) lost(w, `exit code ${early.exitCode}`);
    });
    return w;
  }

  const settle = (call: number) => {
    const entry = pending.get(call);
    pending.delete(call);
    // Idle, the thread must not keep the process alive; with work under way, it must.
    if (pending.size === 0) worker?.unref();
    return entry;
  };

  const run = <T>(op: BuildOp): Promise<T> => {
    if (closing) return Promise.reject(new InternalError('BUILD_THREAD_FAILED', 'The builder is stopping: no more builds are taken.'));
    worker ??= start();
    worker.ref();
    const call = ++calls;
    const w = worker;
    return new Promise<T>((resolve, reject) => {
      pending.set(call, { resolve: resolve as (value: unknown) => void, reject });
      w.postMessage({ call, op, now: deps.clock.now().toISOString() } satisfies BuildRequest);
    });
  };

  worker = start();

  return {
    fullBuild: () => run('fullBuild'),
    repairOutput: () => run('repairOutput'),
    applyEvents: () => run('applyEvents'),
    async publicState() {
      const held = mirror.state();
      if (held) return held;
      // One load at a time: a request that comes while the start's load is under way waits for that one, not
      // for a load queued on the thread behind the output check that followed it.
      const started = performance.now();
      loading ??= run<void>('publicState').then(
        () => deps.log.debug('public state received from the build thread', { articles: mirror.state()?.articles.size ?? 0, ms: Math.round(performance.now() - started) }),
      ).finally(() => (loading = null));
      await loading;
      const loaded = mirror.state();
      if (!loaded) throw new InternalError('BUILD_THREAD_FAILED', 'The build thread sent no public state. Restart the service; report it if it happens again.');
      return loaded;
    },
    heldState: () => mirror.state(),
    newestEvent: () => lastEventId(deps.db),
    hasUnbuiltEvents: () => hasUnbuiltEvent(deps.db),
    onFilesPlaced(listener) {
      placedListeners.push(listener);
    },
    release: () => run('release'),
    close() {
      closing ??= (async () => {
        if (!worker) return;
        // The thread finishes its running operation, stops its writer and closes its store; then it ends.
        await closeThread(worker, { close: true } satisfies BuildRequest);
        worker = null;
      })();
      return closing;
    },
  };
}

/** Whether the service's clock is the real one (the thread then keeps its own). */
export const isRealClock = (clock: Clock): boolean => clock === systemClock;
