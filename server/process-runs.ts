/**
 * Whether a process runs on this machine, by its pid: the test behind every
 * folder named for the process that owns it and removed once that process is
 * gone (Astro's compile lock, Pagefind's staging folders, a web instance's
 * kept answers). A leaf: no import.
 * @module
 */

/** Whether process `pid` runs (signal 0 checks without sending anything; EPERM: it runs, as another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
