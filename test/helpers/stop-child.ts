/**
 * Stops a server a test started as a process of its own (nginx, wrangler):
 * SIGTERM, then SIGKILL after 5 s, resolved once it has exited.
 * @module
 */
import type { ChildProcess } from 'node:child_process';

/** Stops `child` (nothing to do when it has exited already). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
