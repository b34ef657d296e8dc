/**
 * The request thread's event-loop delay while the site is being built
 * (issue 36: "no reader ever waits for the writer"). Every request the
 * bundled server answers runs on this thread, so any stall here (a build's
 * work, a list rendered, a manifest hashed) is a stall of every reader's
 * request: the delay is sampled continuously (`monitorEventLoopDelay`) and
 * logged once a period in which builds ran, so an operator sees how long
 * readers waited behind the writer.
 * @module
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from './logger.ts';

/** p99 above which the report is a warning. */
export const EVENT_LOOP_WARN_MS = 100;

/** What one period measured. */
export interface EventLoopReport {
  readonly builds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** The watch's controls. */
export interface EventLoopWatch {
  /** A build finished (the period is reported). */
  built(): void;
  /** The period so far, and starts a new one (tests, and the timer). */
  take(): EventLoopReport;
  stop(): void;
}

/** Starts watching; with `reportSeconds` > 0, logs each period of that length in which builds ran. */
export function watchEventLoop(log: Logger, reportSeconds: number): EventLoopWatch {
  // 10 ms resolution: stalls shorter than that do not matter to a reader.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let builds = 0;
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  const watch: EventLoopWatch = {
    built: () => void (builds += 1),
    take() {
      const report = { builds, p50Ms: ms(histogram.percentile(50)), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) };
      histogram.reset();
      builds = 0;
      return report;
    },
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
  const timer =
    reportSeconds > 0
      ? setInterval(() => {
          if (builds === 0) return void watch.take();
          const report = watch.take();
          (report.p99Ms > EVENT_LOOP_WARN_MS ? log.warn : log.info).call(log, 'event loop delay while building', { ...report });
        }, reportSeconds * 1000)
      : undefined;
  timer?.unref();
  return watch;
}
