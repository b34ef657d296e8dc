/**
 * Runs `removeStaleTempFiles` (output-writer.ts) over several folders in a
 * thread of its own: at 10,000 × 2 the output folder alone has ~160,000
 * files in ~20,000 directories, and listing them cost the request thread
 * 0.45 s right after a start, while the first searches waited for the
 * public state (issue 36, "search from the first second").
 * @module
 */
import { Worker } from 'node:worker_threads';

/** What one folder's sweep found. */
export interface SweepResult {
  readonly dir: string;
  /** Relative paths deleted. */
  readonly removed?: readonly string[];
  /** Why the folder could not be swept. */
  readonly error?: string;
}

/** Sweeps each folder in turn on one thread; resolves with a result per folder (never rejects). */
export function removeStaleTempFilesInThread(dirs: readonly string[]): Promise<SweepResult[]> {
  // The worker runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
  const worker = new Worker(new URL('../worker-boot.mjs', import.meta.url), { workerData: { dirs, entry: new URL('./stale-temp-sweep-worker.ts', import.meta.url).href } });
  return new Promise<SweepResult[]>((resolve) => {
    const failed = (why: string) => resolve(dirs.map((dir) => ({ dir, error: why })));
    worker.once('message', (m: { results?: SweepResult[]; error?: string }) => (m.results ? resolve(m.results) : failed(m.error ?? 'no answer')));
    worker.once('error', (error) => failed(String(error)));
    worker.once('exit', (code) => failed(`the sweep's thread exited (code ${code}) before it answered`));
  });
}
