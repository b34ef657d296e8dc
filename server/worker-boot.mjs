// Entry of the build's worker threads (render-pool.ts, output-queue.ts). Plain JavaScript because it has to
// load the TypeScript loader first: workers do not inherit the parent's loader hooks, and `--import tsx` in a
// worker's execArgv is not applied on Node 20. Then it runs the real entry point, `workerData.entry` (a URL).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
try {
  await import(workerData.entry);
} catch (error) {
  parentPort.postMessage({ error: String((error && error.stack) || error) });
}
