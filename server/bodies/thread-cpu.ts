/**
 * The CPU time of one thread of this process, for the body pool's time
 * limit (issue 40: a wall-clock limit refused lawful bodies on a busy
 * machine). Linux says it in `/proc/self/task/{tid}/stat`; a thread learns
 * its own id from `/proc/thread-self`. Elsewhere there is none, and the
 * pool falls back to wall-clock time (docs/SECURITY.md says so).
 * @module
 */
import fs from 'node:fs';

/** Linux's unit of `stat`'s times (USER_HZ, 100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/** The calling thread's kernel id, or null where the system does not say (not Linux). */
export function currentThreadId(): number | null {
  try {
    const link = fs.readlinkSync('/proc/thread-self'); // "{pid}/task/{tid}"
    const tid = Number(link.split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) thread `tid` of this process has used, in ms; null when it cannot be read. */
export function threadCpuMs(tid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the name, which is in parentheses and may hold spaces: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}
