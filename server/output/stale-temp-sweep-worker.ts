/**
 * Entry point of the stale temporary files' sweep thread
 * (`stale-temp-sweep.ts`): sweeps each folder and answers once.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { removeStaleTempFiles } from './output-writer.ts';
import type { SweepResult } from './stale-temp-sweep.ts';

const { dirs } = workerData as { dirs: readonly string[] };
const results: SweepResult[] = [];
for (const dir of dirs) {
  try {
    results.push({ dir, removed: await removeStaleTempFiles(dir) });
  } catch (error) {
    results.push({ dir, error: String((error as Error)?.message ?? error) });
  }
}
parentPort!.postMessage({ results });
