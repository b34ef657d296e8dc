/**
 * The edge delivery (issue 35; docs/HOSTING.md, "CDN and object storage"):
 * takes the builds' news from the edge's outbox (`edge_deliveries`), purges
 * every configured CDN of what they changed, and then, in one transaction,
 * records what readers get (`built_translations`) and marks the builds'
 * events processed. Only then does the publishing API report a change
 * (`published`, withdrawn, a new revision) as done.
 *
 * - Batched: every pending delivery is taken in one round, so the tags of
 *   the builds that ran while the last purge was in flight go out together
 *   (one request per CDN for a typical round).
 * - Durable: a crash or a CDN outage leaves the rows; they are retried with
 *   exponential backoff (what a 429's `Retry-After` asks for, at least) and
 *   never dropped. A failing edge shows in the logs, in `admin edge` and as
 *   a warning on the articles it holds back.
 * - Nothing purges everything but a delivery too large to name
 *   (`PURGE_ALL_ABOVE_TAGS`: a full rebuild after a renderer change).
 * @module
 */
import type { Clock } from '../clock.ts';
import { isoNow } from '../clock.ts';
import { describeError } from '../describe-error.ts';
import type { Logger } from '../logger.ts';
import { createCoalescingRunner, waitWhile } from '../serial-work.ts';
import { searchTag, tagsToPurge } from '../serving/cache-tags.ts';
import type { Db } from '../store/database.ts';
import { changesOnTheirWay, completeEdgeDeliveries, listEdgeDeliveries, readEdgeBacklog, recordEdgeFailure, type EdgeBacklog } from '../store/edge-delivery.repository.ts';
import { CHANGING_JOBS } from '../domain/article/article-events.ts';
import { EdgeFailure, type Purger, type PurgeRequest } from './purger.ts';

/** Tags above which a delivery purges everything instead (about 100 Cloudflare requests). */
export const PURGE_ALL_ABOVE_TAGS = 10_000;

/** How long a rebuilt search index waits for a build's round before it is delivered alone. */
export const SEARCH_DELAY_MS = 2_000;

/**
 * How long a round waits, at most, for changes already on their way (events
 * announced and not built yet, or a moderation or schedule job due or
 * running, which announces its change and asks for a build): a write's
 * translations are moderated one job each, so one publish is often two or
 * three builds a few milliseconds apart, and they reach the edge in one
 * round (one purge request) rather than one round each.
 */
export const GATHER_MS = 400;

/** Deliveries taken in one round at most. */
const ROUND_LIMIT = 500;

/** The first retry's delay; it doubles with each failure, up to `MAX_BACKOFF_MS`. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** What the edge delivery has done since it started (for benchmarks and tests). */
export interface EdgeStats {
  /** Rounds that purged and completed deliveries. */
  readonly rounds: number;
  /** Deliveries completed (one per build). */
  readonly deliveries: number;
  /** Purge requests sent, over every CDN. */
  readonly requests: number;
  /** Failed rounds. */
  readonly failures: number;
}

/** The edge delivery's controls. */
export interface EdgeDelivery {
  /** Delivers what is pending, soon. */
  kick(): void;
  /** Also looks for pending deliveries every `pollMs` (another process's builds, retries due). */
  start(pollMs?: number): void;
  stop(): Promise<void>;
  /** Resolves when no delivery is running or asked for. */
  idle(): Promise<void>;
  /**
   * Delivers what builds left pending and resolves when nothing is, or after `timeoutMs`. With `search`, a rebuilt
   * search index too, at once (what `npm run build` waits for before it exits).
   */
  settle(timeoutMs: number, options?: { search?: boolean }): Promise<void>;
  /** The backlog, as `admin edge` and the publishing API's warning show it. */
  backlog(): Promise<EdgeBacklog>;
  stats(): EdgeStats;
  /**
   * The search index was rebuilt (`what` it rewrote; default: all of it): its tag is purged and the bucket
   * compares those files again, with the next build's round or alone after `SEARCH_DELAY_MS`.
   */
  refresh(what?: SearchFiles): void;
  /**
   * While `busy()` says the search index is being rebuilt, its files are not compared with the bucket (a bundle
   * being swapped would read as deleted): they go with the round after the rebuild.
   */
  deferSearchWhile(busy: () => boolean): void;
  /** The CDNs' and the bucket's names. */
  readonly targets: readonly string[];
}

/**
 * Files of the search index a rebuild changed: all of them, or the bundle
 * folders it rewrote or removed and the index's top-level files (output paths).
 */
export type SearchFiles = 'all' | { readonly folders: readonly string[]; readonly files: readonly string[] };

/** Creates the delivery for `purgers` and the bucket `deploy` (at least one of them). */
export function createEdgeDelivery(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  purgers: readonly Purger[];
  tagPrefix: string;
  /** The bucket deploy (`bucket/bucket-sync.ts`), run before the purges: resolves with the paths it uploaded or deleted. */
  deploy?: (paths: readonly string[], scope: { everything: boolean; search: SearchFiles | null }) => Promise<{ readonly paths: readonly string[]; readonly uploaded: number; readonly deleted: number }>;
  /** The bucket's name, for logs and warnings. */
  deployName?: string;
  /** Awaited before each round (tests: to hold a round back). */
  beforeDelivery?: () => Promise<void>;
  /** How long a rebuilt search index waits for a build's round to go with before it is delivered alone. Default `SEARCH_DELAY_MS`. */
  searchDelayMs?: number;
  /** How long a round waits at most for builds on their way. Default `GATHER_MS`. */
  gatherMs?: number;
}): EdgeDelivery {
  const { db, clock, log, purgers } = deps;
  let stats: EdgeStats = { rounds: 0, deliveries: 0, requests: 0, failures: 0 };
  let poll: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  /** After a failure: no attempt before this (`performance.now()`). */
  let notBefore = 0;

  /**
   * When the search index was rebuilt, if not delivered since (`performance.now()`), or null. A rebuilt index goes
   * with the next build's round, or alone once `searchDelayMs` old: a publish's pages reach the edge without
   * waiting for its search shards, and their purges share a request.
   */
  let searchChangedAt: number | null = null;
  /** What of the search index changed since it was last delivered. */
  let searchFiles: SearchFiles | null = null;
  const searchDelayMs = deps.searchDelayMs ?? SEARCH_DELAY_MS;
  let searchTimer: NodeJS.Timeout | undefined;
  /** A settle asked for the search index now. */
  let searchNow = false;
  let searchBusy = (): boolean => false;
  /**
   * The first round after a start compares the whole output with the bucket: a bucket configured on an
   * existing site, or changed by hand, is made whole before anything counts as delivered.
   */
  let fullSync = deps.deploy !== undefined;

  /**
   * One round: the bucket gets what every pending delivery changed (and the
   * folders no build owns), every CDN purges it all together, then the
   * deliveries are complete.
   */
  const round = async (): Promise<void> => {
    // Backoff runs on this process's own timer (the stored next_attempt_at is for people); a restart retries at once.
    const waitMs = notBefore - performance.now();
    if (waitMs > 0) return scheduleRetry(waitMs);
    await deps.beforeDelivery?.();
    await gather();
    const pending = await listEdgeDeliveries(db, ROUND_LIMIT);
    const searchAt = searchChangedAt;
    const refresh = searchAt !== null && !searchBusy() && (pending.length > 0 || fullSync || searchNow || performance.now() - searchAt >= searchDelayMs);
    if (pending.length === 0 && !refresh && !fullSync) return;
    const searchScope = refresh ? (searchFiles ?? 'all') : null;
    if (refresh) {
      searchChangedAt = null;
      searchFiles = null;
      searchNow = false;
    }
    const now = clock.now();
    const started = performance.now();
    let paths = [...new Set(pending.flatMap((d) => d.paths))];
    let requests = 0;
    let tagCount = 0;
    let deployed = { uploaded: 0, deleted: 0 };
    try {
      if (deps.deploy) {
        const synced = await deps.deploy(paths, { everything: fullSync, search: searchScope });
        fullSync = false;
        deployed = synced;
        paths = [...new Set([...paths, ...synced.paths])];
      }
      const tags = tagsToPurge(deps.tagPrefix, paths);
      if (refresh && !tags.includes(searchTag(deps.tagPrefix))) tags.push(searchTag(deps.tagPrefix));
      const everything = tags.length > PURGE_ALL_ABOVE_TAGS;
      const request: PurgeRequest = everything ? { tags: [deps.tagPrefix], paths: [], everything } : { tags, paths, everything };
      tagCount = request.tags.length;
      if (everything && purgers.length > 0) log.warn('purging everything: this delivery changed too many files to name', { files: paths.length, tags: tags.length, limit: PURGE_ALL_ABOVE_TAGS });
      if (tags.length > 0) for (const purger of purgers) requests += await purger.purge(request);
    } catch (error) {
      const attempts = (pending[0]?.attempts ?? 0) + 1;
      const askedMs = error instanceof EdgeFailure ? (error.retryAfterMs ?? 0) : 0;
      const delayMs = Math.max(askedMs, Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempts - 1)));
      const message = error instanceof EdgeFailure ? error.message : describeError(error);
      notBefore = performance.now() + delayMs;
      if (refresh) {
        searchChangedAt ??= searchAt;
        searchFiles = mergeSearchFiles(searchFiles, searchScope);
      }
      if (pending.length > 0) await recordEdgeFailure(db, pending.map((d) => d.id), message, new Date(now.getTime() + delayMs).toISOString());
      stats = { ...stats, failures: stats.failures + 1, requests: stats.requests + requests };
      log.warn('edge delivery failed; readers keep the previous version until it succeeds', { deliveries: pending.length, attempts, retryInMs: delayMs, error: message });
      return scheduleRetry(delayMs);
    }
    if (pending.length > 0) await db.transaction().execute((trx) => completeEdgeDeliveries(trx, pending, isoNow(clock)));
    stats = { rounds: stats.rounds + 1, deliveries: stats.deliveries + pending.length, requests: stats.requests + requests, failures: stats.failures };
    const ms = Math.round(performance.now() - started);
    if ((pending[0]?.attempts ?? 0) > 0) log.info('edge delivery succeeded after failures', { deliveries: pending.length, attempts: pending[0]!.attempts });
    log.debug('edge delivered', { deliveries: pending.length, uploaded: deployed.uploaded, deleted: deployed.deleted, tags: tagCount, requests, ms });
    // More than a round's worth was pending: go on at once.
    if (pending.length === ROUND_LIMIT) runner.kick();
  };

  /** Waits (at most `GATHER_MS`) while changes are on their way, so they go out in this round. */
  async function gather(): Promise<void> {
    await waitWhile(() => changesOnTheirWay(db, CHANGING_JOBS, isoNow(clock)), { maxMs: deps.gatherMs ?? GATHER_MS, stopped: () => stopped });
  }

  const runner = createCoalescingRunner(round, (error) => log.error('edge delivery failed', { error: describeError(error, { stack: true }) }));

  function scheduleRetry(ms: number): void {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => runner.kick(), Math.max(0, ms));
    retry.unref();
  }

  const edge: EdgeDelivery = {
    targets: [...(deps.deployName ? [deps.deployName] : []), ...purgers.map((p) => p.name)],
    kick: () => runner.kick(),
    deferSearchWhile(busy) {
      searchBusy = busy;
    },
    refresh(what = 'all') {
      searchChangedAt ??= performance.now();
      searchFiles = mergeSearchFiles(searchFiles, what);
      // A settle waits for the search index: deliver it now rather than after the delay.
      if (searchNow) runner.kick();
      // Alone, if no build's round takes it along first.
      if (!stopped && searchTimer === undefined) {
        searchTimer = setTimeout(() => {
          searchTimer = undefined;
          runner.kick();
        }, searchDelayMs);
        searchTimer.unref();
      }
    },
    start(pollMs = 1_000) {
      poll ??= setInterval(() => runner.kick(), pollMs);
      poll.unref();
      runner.kick();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      clearTimeout(searchTimer);
      await runner.stop();
    },
    idle: () => runner.idle(),
    async settle(timeoutMs, options = {}) {
      // Watches the backlog rather than the runner: writers settling at once keep kicking it, so it may never be idle.
      const deadline = Date.now() + timeoutMs;
      if (options.search) searchNow = true;
      runner.kick();
      while (!stopped && Date.now() < deadline) {
        // With the search index: also no rebuild running, and no round under way (it may be uploading the index).
        const searchDone = !options.search || (searchChangedAt === null && !searchBusy() && !runner.busy);
        if (searchDone && !fullSync && (await readEdgeBacklog(db)).pending === 0) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(20, Math.max(1, deadline - Date.now()))));
      }
    },
    backlog: () => readEdgeBacklog(db),
    stats: () => stats,
  };
  return edge;
}

/** Both changes of the search index together. */
export function mergeSearchFiles(a: SearchFiles | null, b: SearchFiles | null): SearchFiles | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a === 'all' || b === 'all') return 'all';
  return { folders: [...new Set([...a.folders, ...b.folders])], files: [...new Set([...a.files, ...b.files])] };
}
