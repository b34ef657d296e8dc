/**
 * Work that trails the readers' answers by design (builds, the search
 * indexes) runs below the request thread's priority: on a machine whose
 * cores are all busy serving reads, the scheduler gives a reader's request
 * the core first, and the background uses what is left (issue 36: reads
 * while publishing went from 0.59× to ~0.8× of idle on two cores, where
 * the builder and the search thread at the usual priority took the cores
 * from the readers).
 *
 * Two steps, both Linux's, both per thread and inherited by the threads and
 * processes a thread starts afterwards (the build thread's writer and
 * render threads, the search thread's Pagefind processes):
 * - the lowest niceness, 19;
 * - then the `SCHED_IDLE` policy, through util-linux's `chrt` (Node has no
 *   call for it). Nice 19 still weighs 15 against a request thread's 1024,
 *   and the scheduler lets it finish its slice when a reader's request
 *   wakes; an idle-policy thread weighs 3 and gives the core up at once
 *   (the reads benchmark's figures: docs/PERFORMANCE.md, "The idle
 *   scheduling policy"). Where `chrt` is missing or refused, the thread
 *   stays at nice 19.
 * The price: when readers keep every core busy, a build waits longer for
 * the little the scheduler leaves (it is never stopped: the idle policy is
 * a weight, not a ban).
 *
 * Elsewhere than Linux the niceness call would lower the whole process, so
 * both steps are made on Linux only.
 * @module
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { currentThreadId } from './bodies/thread-cpu.ts';

/** The niceness of background threads and of the Pagefind processes: the lowest priority. */
export const BACKGROUND_NICENESS = 19;

/**
 * Lowers the calling thread (and what it starts from now on) to
 * `BACKGROUND_NICENESS`, then to the idle scheduling policy. @returns how
 * far it went: false where it could not lower at all (not Linux, or not
 * allowed in a container), 'nice' without the idle policy (no `chrt`), or
 * 'idle'.
 */
export function lowerThisThread(): false | 'nice' | 'idle' {
  if (process.platform !== 'linux') return false;
  try {
    os.setPriority(BACKGROUND_NICENESS);
  } catch {
    return false;
  }
  const tid = currentThreadId();
  if (tid === null) return 'nice';
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
    return 'idle';
  } catch {
    return 'nice';
  }
}

/**
 * What the log says when background work could not be lowered all the way
 * (`lowerThisThread`'s answer), or null when it was (or the platform has no
 * such priorities). Builds still run; readers lose more of the cores to
 * them while publishers are at work.
 */
export function loweringNote(lowered: false | 'nice' | 'idle', platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux' || lowered === 'idle') return null;
  if (lowered === 'nice') return "background threads run at niceness 19 without Linux's idle scheduling policy: util-linux's `chrt` is missing or not allowed here (install util-linux, or allow sched_setscheduler, so readers keep the cores while builds run)";
  return "background threads run at the request thread's priority: raising their niceness was refused here (setpriority), so builds and search indexing compete with readers for the cores";
}
