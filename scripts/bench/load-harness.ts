/**
 * What the HTTP and reads benchmarks share: a temp folder with the corpus's
 * data and output, the servers and wrk processes they start (stopped on
 * SIGINT/SIGTERM and at the end), one wrk-measured row, and the walk along a
 * list's `_links.next` chain.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess, type Target } from './http-targets.ts';
import { sampleTree, treeUsage } from './process-tree.ts';
import type { BenchFigure } from './run-measurement.ts';
import { runWrk, writeWrkScript } from './wrk.ts';

/** The harness of one benchmark run. */
export interface LoadHarness {
  readonly dir: string;
  readonly dataDir: string;
  readonly outputDir: string;
  /** Servers started: stopped by `cleanup`. */
  readonly targets: Target[];
  /**
   * Loads `target` with `paths` (warm-up, then the measured run) and reads its CPU and memory meanwhile.
   * `meanwhile` is started before the warm-up; its stop resolves with a count kept as `published`.
   */
  measure(row: string, target: Target, paths: readonly string[], options?: { headers?: Record<string, string>; meanwhile?: () => () => Promise<number> }): Promise<BenchFigure>;
  cleanup(): Promise<void>;
}

/** Creates the harness of benchmark `bench` (row names start with it). */
export function createLoadHarness(options: { bench: string; corpus: string; duration: number; warmup: number; connections: number }): LoadHarness {
  const { bench, corpus, duration, warmup, connections } = options;
  const progress = (message: string) => process.stderr.write(`${bench} bench: ${message}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pressroom-bench-${bench}-`));
  const targets: Target[] = [];
  const loads = new Set<ChildProcess>();
  const cleanup = async (): Promise<void> => {
    await Promise.all([...loads].map((child) => stopProcess(child)));
    await Promise.all(targets.splice(0).map((t) => t.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.once(signal, () => void cleanup().finally(() => process.exit(code)));

  return {
    dir,
    dataDir: path.join(dir, 'data'),
    outputDir: path.join(dir, 'dist'),
    targets,
    cleanup,
    async measure(row, target, paths, { headers = {}, meanwhile } = {}) {
      const name = `${bench} ${row}: ${target.name} (${corpus})`;
      const first = await fetch(`${target.base}${paths[0]}`, { headers });
      await first.body?.cancel();
      if (first.status !== 200) throw new Error(`${name}: ${paths[0]} answered ${first.status}, not 200`);
      const encoding = headers['accept-encoding'];
      if (encoding && encoding !== 'identity' && first.headers.get('content-encoding') === null) throw new Error(`${name}: ${paths[0]} was not compressed`);
      const script = path.join(dir, `${row.replace(/\W+/g, '-')}-${target.name}.lua`);
      writeWrkScript(script, paths, headers);
      const track = (child: ChildProcess) => (loads.add(child), child.once('exit', () => loads.delete(child)));
      progress(`${row} → ${target.name}: ${warmup} s warm-up, ${duration} s measured…`);
      const stopMeanwhile = meanwhile?.();
      if (warmup > 0) await runWrk({ base: target.base, script, seconds: warmup, connections, track });
      const before = treeUsage(target.pid);
      const sampler = sampleTree(target.pid);
      const load = await runWrk({ base: target.base, script, seconds: duration, connections, track });
      sampler.stop();
      const after = treeUsage(target.pid);
      const published = stopMeanwhile ? await stopMeanwhile() : undefined;
      if (load.errors > 0) progress(`warning: ${name} had ${load.errors} errors or non-2xx/3xx answers of ${load.requests}`);
      return {
        name,
        wallMs: load.seconds * 1000,
        cpuMs: before && after ? after.cpuMs - before.cpuMs : Number.NaN,
        peakRssMb: sampler.peakRssBytes() / 2 ** 20,
        requestsPerSec: load.requestsPerSec,
        p99Ms: load.p99Ms,
        p50Ms: load.p50Ms,
        requests: load.requests,
        errors: load.errors,
        ...(published === undefined ? {} : { published }),
      };
    },
  };
}

/** A list's `_links.next` chain from `first` (included), at most `max` pages, as a client walking it asks. */
export async function walkList(base: string, first: string, max = Number.POSITIVE_INFINITY): Promise<string[]> {
  const out: string[] = [];
  let next: string | null = first;
  while (next && out.length < max) {
    out.push(next);
    const page = (await (await fetch(`${base}${next}`)).json()) as { _links: { next: string | null } };
    next = page._links.next === null ? null : `${new URL(page._links.next).pathname}${new URL(page._links.next).search}`;
  }
  return out;
}
