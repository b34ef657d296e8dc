/**
 * Runs a full build's output check (`build/known-output.ts`) in a worker
 * thread: listing 1.2 million files and reading as many manifest rows takes
 * seconds at 100,000 articles (docs/PERFORMANCE.md, "What bounds them"),
 * and the builder reads the heads meanwhile.
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { OutputCheck } from '../builder/known-output.ts';

/** What the thread is started with. */
export interface OutputCheckData {
  /** Where the data lives: a SQLite file or a Postgres URL (`Config.database`). */
  readonly database: string;
  readonly outputDir: string;
}

/** Checks the output in a thread of its own. @throws Error when the thread fails or exits without an answer. */
export function checkOutputInWorker(data: OutputCheckData): Promise<OutputCheck> {
  // The worker runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
  const worker = new Worker(new URL('../../worker-boot.mjs', import.meta.url), { workerData: { ...data, entry: new URL('./output-check-worker.ts', import.meta.url).href } });
  return new Promise<OutputCheck>((resolve, reject) => {
    worker.once('message', (m: { check?: OutputCheck; error?: string }) => (m.check ? resolve(m.check) : reject(new Error(`Output check failed: ${m.error}`))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The output check's thread exited (code ${code}) before it answered.`)));
  });
}
