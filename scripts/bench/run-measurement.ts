/**
 * Runs one benchmark script in a process of its own and measures its whole
 * process tree; cleans up after it even when the harness is interrupted.
 *
 * Each child is the leader of its own process group (`detached`), so the
 * harness can stop it together with everything it started (Pagefind, a
 * server, nginx, wrk) with one signal to the group, and its temp files go
 * into a folder the harness owns (`TMPDIR`), so they can be removed even if
 * the child never gets to do it.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reapedChildrenCpuMs, sampleTree } from './process-tree.ts';

/** One figure a benchmark script prints (a JSON object, or an array of them, on stdout). */
export interface BenchFigure {
  name: string;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** HTTP rows: requests per second over the measured window. */
  requestsPerSec?: number;
  /** HTTP rows: 99th percentile latency. */
  p99Ms?: number;
  /** HTTP server rows: requests/s divided by nginx's on the same row. */
  vsNginx?: number;
  /** Set when the figure could not be measured; printed as `n/a (…)`. */
  unavailable?: string;
  [extra: string]: unknown;
}

const running = new Set<ChildProcess>();
let tempRoot: string | null = null;

/** The harness's temp folder (created on first use); children get it as TMPDIR. */
function harnessTemp(): string {
  tempRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bench-'));
  return tempRoot;
}

/** Removes the harness's temp folder. */
export function removeHarnessTemp(): void {
  if (tempRoot) fs.rmSync(tempRoot, { recursive: true, force: true });
  tempRoot = null;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group has already gone.
  }
}

/**
 * Stops every running child's process group (SIGTERM, so they can stop their
 * own servers; SIGKILL after `graceMs`), then removes the temp folder.
 */
export async function stopAll(graceMs = 5_000): Promise<void> {
  const children = [...running];
  const exited = children.map((child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()))));
  for (const child of children) signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => children.forEach((child) => signalGroup(child, 'SIGKILL')), graceMs);
  await Promise.all(exited);
  clearTimeout(timer);
  // Anything a child started and left behind in its group goes too.
  for (const child of children) signalGroup(child, 'SIGKILL');
  removeHarnessTemp();
}

/**
 * Runs `script` with `args` in a fresh Node process and returns the figures it
 * printed, plus one for the whole process tree: wall time of the process, CPU
 * time of every process in the tree (exact, from the harness's reaped-children
 * counters) and peak summed RSS (sampled every 50 ms).
 */
export function runMeasurement(name: string, script: string, args: readonly string[], cwd: string): Promise<{ figures: BenchFigure[]; tree: BenchFigure }> {
  return new Promise((resolve, reject) => {
    const runDir = fs.mkdtempSync(path.join(harnessTemp(), `${name}-`));
    const cpuBefore = reapedChildrenCpuMs();
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd,
      detached: true,
      env: { ...process.env, TMPDIR: runDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running.add(child);
    const sampler = sampleTree(child.pid!);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const wallMs = performance.now() - started;
      sampler.stop();
      running.delete(child);
      const cpuAfter = reapedChildrenCpuMs();
      fs.rmSync(runDir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`${name} exited with ${signal ?? `code ${code}`}`));
      let parsed: BenchFigure | BenchFigure[];
      try {
        parsed = JSON.parse(out) as BenchFigure | BenchFigure[];
      } catch {
        return reject(new Error(`${name} printed no JSON result: ${out.slice(0, 200)}`));
      }
      const tree: BenchFigure = {
        name: `${name} (whole process tree)`,
        wallMs,
        cpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : Number.NaN,
        peakRssMb: sampler.peakRssBytes() / 2 ** 20,
        processes: sampler.peakProcesses(),
      };
      // A single figure is the measurement's own, named after it.
      resolve({ figures: Array.isArray(parsed) ? parsed : [{ ...parsed, name }], tree });
    });
  });
}
