/**
 * Work that trails the readers' answers by design (builds, the search
 * indexes) runs below the request thread's priority: on a machine whose
 * cores are all busy serving reads, the scheduler gives a reader's request
 * the core first, and the background uses what is left (issue 36: reads
 * while publishing went from 0.59× to ~0.8× of idle on two cores, where
 * the builder and the search thread at the usual priority took the cores
 * from the readers).
 *
 * Linux keeps a nice value per thread, and a thread or process inherits its
 * creator's, so lowering the build thread lowers its writer and render
 * threads too. Elsewhere the call would lower the whole process, so it is
 * made on Linux only.
 * @module
 */
import os from 'node:os';

/** The niceness of background threads and of the Pagefind processes: the lowest priority. */
export const BACKGROUND_NICENESS = 19;

/**
 * Lowers the calling thread (and what it starts from now on) to
 * `BACKGROUND_NICENESS`. @returns false where it cannot (not Linux, or not
 * allowed in a container): the thread then runs at the usual priority.
 */
export function lowerThisThread(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    os.setPriority(BACKGROUND_NICENESS);
    return true;
  } catch {
    return false;
  }
}
