/**
 * How a service thread is stopped (the build thread, the search keeper's):
 * it is asked to finish what it runs and close what it holds, and answers
 * `{ closed: true }`; then it is ended. An exit instead of the answer ends
 * the wait too.
 * @module
 */
import type { Worker } from 'node:worker_threads';

/** Sends `request`, waits for the thread's `closed` report or its exit, then terminates it. */
export async function closeThread(worker: Worker, request: unknown): Promise<void> {
  // Held open meanwhile: the process must not end with the thread's last work undone.
  worker.ref();
  await new Promise<void>((resolve) => {
    worker.on('message', (report: unknown) => typeof report === 'object' && report !== null && 'closed' in report && resolve());
    worker.once('exit', () => resolve());
    worker.postMessage(request);
  });
  await worker.terminate();
}
