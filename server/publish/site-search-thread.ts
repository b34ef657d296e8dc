/**
 * The search keeper (`site-search.ts`) on a worker thread of its own.
 *
 * Keeping the Pagefind shards in step is work proportional to a part of the
 * site, for every publish: reading a part's texts from the store, turning
 * them into records, sending them to Pagefind and placing the bundles it
 * writes. On the request thread that was about a fifth of its time while
 * articles were being published 2 a second (issue 36), and readers waited
 * behind it. The thread (`workers/site-search-worker.ts`) opens the store
 * itself and runs the same keeper; this side only forwards requests and
 * keeps what the service asks of the keeper between them (busy, failed),
 * from the thread's reports. Its log lines are written here, under the
 * caller's logger.
 *
 * Should the thread stop, the error is logged, the work it had is reported
 * failed, and the next request starts a new thread: the keeper's work file
 * (`SEARCH_PENDING_FILE`) still names what was not done, and the new keeper
 * resumes it.
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.ts';
import { closeThread } from '../thread-close.ts';
import { threadLogWriter, type ThreadLogLine } from '../thread-log.ts';
import { hasSearchIndex, type SearchChange, type SiteSearch } from './site-search.ts';

/** What the thread needs to build its own store handle, model and keeper. */
export interface SiteSearchWorkerData {
  /** Where the data lives: a SQLite file or a Postgres URL (`Config.database`). */
  readonly database: string;
  readonly publicUrl: string;
  readonly dashboardUrl: string;
  readonly outputDir: string;
  /** Pagefind processes at once (`PRESSROOM_SEARCH_PROCESSES`). */
  readonly lanes: number;
  /** The keeper's work file (`SEARCH_PENDING_FILE` in the data folder). */
  readonly pendingFile: string;
  /** The rest between rebuilds, as a multiple of the last one's time (`PRESSROOM_SEARCH_REST_FACTOR`; 0 when absent). */
  readonly restFactor?: number;
  /** Articles per part (`SEARCH_PART_SIZE` unless a test sets a small one). */
  readonly partSize?: number;
}

/** Work for the keeper: `rebuildAll`, or `rebuildFor` a build's report. */
type Work = { readonly op: 'all' } | { readonly op: 'for'; readonly changedPaths: readonly string[]; readonly articleIds: readonly number[] };

/** A request to the thread: work, numbered in the order sent, or the last one. */
export type SiteSearchRequest = (Work & { readonly seq: number }) | { readonly op: 'close' };

/** What the thread reports. */
export type SiteSearchReport =
  | { readonly ready: true }
  | { readonly bootError: string }
  | { readonly log: ThreadLogLine }
  | { readonly indexed: SearchChange }
  /** Every request up to `seq` is done (the keeper was idle after it); `failed`: its last rebuild failed. */
  | { readonly settled: number; readonly failed: boolean }
  | { readonly closed: true };

/** Starts the keeper's thread (at once: loading the sources there takes a few hundred milliseconds). */
export function createThreadSiteSearch(data: SiteSearchWorkerData, log: Logger): SiteSearch {
  let worker: Worker | null = null;
  let sent = 0;
  let settled = 0;
  let failed = false;
  let closing: Promise<void> | null = null;
  let idleWaiters: Array<() => void> = [];
  const listeners: Array<(change: SearchChange) => void> = [];
  const writeLog = threadLogWriter(log);
  const wake = () => {
    if (settled < sent) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
    // Idle, it must not keep the process alive; with work sent, it must (`npm run build` awaits `idle()`).
    // While closing it must too: close() awaits the thread's last report, and work that settles meanwhile
    // would otherwise leave that await with nothing holding the loop (the process ends with exit code 13).
    if (!closing) worker?.unref();
  };
  const lost = (w: Worker, why: string) => {
    if (worker !== w) return;
    worker = null;
    if (closing) return;
    log.error('the search thread stopped: its work is retried with the next request', { error: why, pending: sent - settled });
    if (settled < sent) failed = true;
    settled = sent;
    wake();
  };

  function start(): Worker {
    // The thread runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
    const w = new Worker(new URL('../worker-boot.mjs', import.meta.url), { workerData: { ...data, entry: new URL('./workers/site-search-worker.ts', import.meta.url).href } });
    w.on('message', (report: SiteSearchReport | { error: string }) => {
      if ('log' in report) writeLog(report.log);
      else if ('indexed' in report) for (const listener of listeners) listener(report.indexed);
      else if ('settled' in report) {
        settled = Math.max(settled, report.settled);
        failed = report.failed;
        wake();
      } else if ('bootError' in report) lost(w, report.bootError);
      else if ('error' in report) lost(w, report.error);
    });
    w.on('error', (error) => lost(w, error instanceof Error ? (error.stack ?? error.message) : String(error)));
    w.on('exit', (code) => lost(w, `exit code ${code}`));
    w.unref();
    return w;
  }

  const send = (request: Work) => {
    if (closing) return;
    worker ??= start();
    worker.ref();
    worker.postMessage({ ...request, seq: ++sent });
  };

  worker = start();

  return {
    rebuildAll: () => send({ op: 'all' }),
    rebuildFor: (report) => send({ op: 'for', changedPaths: report.changedPaths, articleIds: report.articleIds }),
    onIndexed(listener) {
      listeners.push(listener);
    },
    hasIndex: () => hasSearchIndex(data.outputDir),
    idle: () => (settled >= sent ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    busy: () => settled < sent,
    failed: () => failed,
    close() {
      closing ??= (async () => {
        if (!worker) return;
        // The keeper waits for its running rebuild and stops Pagefind; the thread then ends.
        await closeThread(worker, { op: 'close' } satisfies SiteSearchRequest);
        worker = null;
        settled = sent;
        wake();
      })();
      return closing;
    },
  };
}
