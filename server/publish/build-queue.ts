/**
 * Coalesces build requests: writes and jobs call `kick()` as often as they
 * like; one incremental build runs at a time, and one more runs after it when
 * anything asked in the meantime. Changes are therefore applied in batches by
 * one serial builder.
 * @module
 */
import type { Logger } from '../logger.ts';
import { createCoalescingRunner } from '../serial-work.ts';
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

/** Creates the queue over a builder. */
export function createBuildQueue(builder: SiteBuilder, log: Logger): BuildQueue {
  let timer: NodeJS.Timeout | undefined;
  const listeners: Array<(report: BuildReport) => void> = [];
  const runner = createCoalescingRunner(
    async () => {
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
      if (timer) clearInterval(timer);
      await runner.stop();
    },
  };
  return queue;
}
