/**
 * Coalesces build requests: writes and jobs call `kick()` as often as they
 * like; one incremental build runs at a time, and one more runs after it when
 * anything asked in the meantime. Changes are therefore applied in batches by
 * one serial builder.
 *
 * A build may first wait a little for changes already under way
 * (`BuildGather`): a publish in two languages is moderated by one job per
 * translation, one after the other, and each job asks for a build as it
 * ends. Built at once, the first job's change is one build and the second's
 * another a few tens of milliseconds later, each rendering the channel's
 * lists and the site's files again. Waiting while such
 * a job runs (or is due) makes them one build: the publish is reported
 * published no later, and the lists are rendered once.
 * @module
 */
import type { Logger } from '../logger.ts';
import { createCoalescingRunner, waitWhile } from '../serial-work.ts';
import type { BuildReport, SiteBuilder } from './builder/site-builder.ts';
import { describeError } from '../describe-error.ts';

/** The queue's controls. */
export interface BuildQueue {
  /** Asks for an incremental build soon. */
  kick(): void;
  /** Resolves when no build is running or asked for. */
  idle(): Promise<void>;
  /**
   * Asks for a build and resolves when it (and any asked for meanwhile) is
   * done, or after `timeoutMs`, whichever comes first: what a write that
   * withdrew public content waits for.
   */
  settle(timeoutMs: number): Promise<void>;
  /** Subscribes to finished builds (for CDN purges, search shards, tests). */
  onBuilt(listener: (report: BuildReport) => void): void;
  /**
   * Also checks the outbox every `pollMs`, so changes made by another process
   * (the admin CLI, a second server) are built too.
   */
  start(pollMs?: number): void;
  stop(): Promise<void>;
}

/** How long a build waits at most for changes under way (`BuildGather`), in ms. */
export const BUILD_GATHER_MS = 150;

/** What a build waits for before it starts. */
export interface BuildGather {
  /**
   * Whether the build has work (events not built yet). Without any it does not wait: the queue's poll asks for
   * a build every few hundred milliseconds, and a job due but not run (no worker in this process) would
   * otherwise make every one of them wait, and the queue never idle.
   */
  hasWork(): Promise<boolean>;
  /** Whether a change is under way that will ask for a build when it is done (a moderation or schedule job running or due). */
  underWay(): Promise<boolean>;
  /** The longest wait, in ms (default `BUILD_GATHER_MS`). */
  readonly maxMs?: number;
  /** How often `underWay` is asked while waiting, in ms (default 5). */
  readonly pollMs?: number;
}

/** Creates the queue over a builder; with `gather`, each build first waits (briefly) for changes under way. */
export function createBuildQueue(builder: SiteBuilder, log: Logger, gather?: BuildGather): BuildQueue {
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  const listeners: Array<(report: BuildReport) => void> = [];
  const waitForChangesUnderWay = async () => {
    if (!gather || !(await gather.hasWork())) return;
    await waitWhile(() => gather.underWay(), { maxMs: gather.maxMs ?? BUILD_GATHER_MS, pollMs: gather.pollMs, stopped: () => stopping });
  };
  const runner = createCoalescingRunner(
    async () => {
      await waitForChangesUnderWay();
      const report = await builder.applyEvents();
      if (report.full || report.written + report.removed > 0) for (const l of listeners) l(report);
    },
    // The events stay unprocessed, so the next kick (or the next start) retries them.
    (error) => log.error('incremental build failed', { error: describeError(error, { stack: true }) }),
  );

  const queue: BuildQueue = {
    start(pollMs = 500) {
      timer ??= setInterval(() => queue.kick(), pollMs);
      timer.unref();
    },
    kick: () => runner.kick(),
    idle: () => runner.idle(),
    async settle(timeoutMs) {
      queue.kick();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([queue.idle(), late]);
      clearTimeout(timer);
    },
    onBuilt(listener) {
      listeners.push(listener);
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await runner.stop();
    },
  };
  return queue;
}
