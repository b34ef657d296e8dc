/**
 * Resource use of a whole process tree, read from Linux's /proc: a process
 * and every descendant it has at the moment (Pagefind's binary, a server
 * child, nginx…). `process.resourceUsage()` only sees the calling process,
 * and a child's rusage `maxrss` is the largest single process, not the sum,
 * so the benchmarks sample the tree instead.
 *
 * Off Linux (no /proc) every figure is null and the callers print what the
 * process measured of itself.
 * @module
 */
import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU fields (USER_HZ, 100 on every Linux port). */
const TICKS_PER_SECOND = 100;

/** True where /proc can be read (Linux). */
export const HAVE_PROC = fs.existsSync('/proc/self/stat');

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime + cutime + cstime in ticks: the process and its reaped descendants. */
  readonly cpuTicks: number;
}

/** Parses /proc/PID/stat; the command name may hold spaces and parentheses, so split after the last ")". */
function readStat(pid: number | 'self'): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited between listing and reading
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14–17.
  const n = (field: number) => Number(fields[field - 3]);
  return { pid: Number(text.slice(0, text.indexOf(' '))), ppid: n(4), cpuTicks: n(14) + n(15) + n(16) + n(17) };
}

/** Resident memory of one process in bytes (VmRSS), 0 once it has gone. */
function readRssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `root` and its live descendants, with their stats. */
function treeOf(root: number): ProcStat[] {
  const all: ProcStat[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) all.push(stat);
  }
  const byParent = new Map<number, ProcStat[]>();
  for (const s of all) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const tree = all.filter((s) => s.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...(byParent.get(tree[i]!.pid) ?? []));
  return tree;
}

/** One process of a tree at a reading: its command name (`/proc/PID/comm`) and resident memory. */
export interface ProcessUsage {
  readonly pid: number;
  readonly command: string;
  readonly rssBytes: number;
}

// A process's command name does not change while it lives; pids are not reused within a benchmark's minutes.
const commands = new Map<number, string>();
const commandOf = (pid: number): string => {
  let command = commands.get(pid);
  if (command === undefined) commands.set(pid, (command = readCommand(pid)));
  return command;
};

function readCommand(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** One reading of a tree: its summed resident memory and CPU time so far. */
export interface TreeUsage {
  readonly rssBytes: number;
  /** Each live process of the tree, largest first. */
  readonly byProcess: readonly ProcessUsage[];
  /** CPU of the live processes plus the descendants they have reaped, in ms. */
  readonly cpuMs: number;
  readonly processes: number;
}

/**
 * Reads the tree under `root` once. Resident memory is summed over the
 * processes, so pages they share (libraries, a forked parent's) count once per
 * process: an upper bound, like `ps`'s RSS column added up.
 */
export function treeUsage(root: number, members?: readonly number[]): TreeUsage | null {
  if (!HAVE_PROC) return null;
  const tree = members ? members.map((pid) => readStat(pid)).filter((s): s is ProcStat => s !== null) : treeOf(root);
  if (tree.length === 0) return null;
  const byProcess = tree.map((s) => ({ pid: s.pid, command: commandOf(s.pid), rssBytes: readRssBytes(s.pid) })).sort((a, b) => b.rssBytes - a.rssBytes);
  return {
    rssBytes: byProcess.reduce((sum, p) => sum + p.rssBytes, 0),
    byProcess,
    cpuMs: (tree.reduce((sum, s) => sum + s.cpuTicks, 0) * 1000) / TICKS_PER_SECOND,
    processes: tree.length,
  };
}

/**
 * CPU time, in ms, of the calling process's reaped children and their reaped
 * descendants (`cutime + cstime`). The difference across one child's run is the
 * exact CPU time of its whole tree, as long as no other child ends meanwhile.
 */
export function reapedChildrenCpuMs(): number | null {
  if (!HAVE_PROC) return null;
  const text = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[16 - 3]) + Number(fields[17 - 3])) * 1000) / TICKS_PER_SECOND;
}

/** A running sampler of a tree's peak memory (see {@link sampleTree}). */
export interface TreeSampler {
  /** Largest summed RSS seen so far, in bytes (0 when nothing could be read). */
  peakRssBytes(): number;
  /** Most processes seen in the tree at once. */
  peakProcesses(): number;
  /** The reading with the largest summed RSS (null when nothing could be read): what made the peak. */
  peakReading(): TreeUsage | null;
  /** The latest reading (null before the first or once the tree has gone). */
  last(): TreeUsage | null;
  /** Takes a last sample and stops. */
  stop(): void;
}

/**
 * Samples the tree under `root` every `intervalMs` (default 50 ms) and keeps
 * the peak of its summed RSS. A peak shorter than the interval can be missed;
 * 50 ms is well under the time a build phase or a Pagefind run takes.
 * The tree's members are found again (every process of /proc read) once
 * every `rescanMs` (default 1 s) and at `stop()`; the samples between read
 * only the members, so sampling costs the measured process ~0.2 % instead
 * of ~2 % (measured at 100,000 articles, docs/PERFORMANCE.md). A process
 * that lives less than `rescanMs` can be missed.
 * @example const s = sampleTree(child.pid!); await exited; s.stop(); s.peakRssBytes();
 */
export function sampleTree(root: number, intervalMs = 50, rescanMs = 1000): TreeSampler {
  let peak = 0;
  let most = 0;
  let latest: TreeUsage | null = null;
  let peakReading: TreeUsage | null = null;
  let members: number[] | null = null;
  let scannedAt = 0;
  const sample = (rescan = false) => {
    const now = performance.now();
    if (rescan || members === null || now - scannedAt >= rescanMs) {
      members = null;
      scannedAt = now;
    }
    const usage = treeUsage(root, members ?? undefined);
    if (!usage) return;
    members = usage.byProcess.map((p) => p.pid);
    latest = usage;
    if (usage.rssBytes > peak) peakReading = usage;
    peak = Math.max(peak, usage.rssBytes);
    most = Math.max(most, usage.processes);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  // Sampling must never keep a finished benchmark alive.
  timer.unref();
  return {
    peakRssBytes: () => peak,
    peakProcesses: () => most,
    peakReading: () => peakReading,
    last: () => latest,
    stop() {
      clearInterval(timer);
      sample(true);
    },
  };
}
