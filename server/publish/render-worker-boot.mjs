// Entry of a render worker thread (server/publish/render-pool.ts). Plain JavaScript because it has to load
// the TypeScript loader first: workers do not inherit the parent's loader hooks, and `--import tsx` in a
// worker's execArgv is not applied on Node 20. Then it runs the real entry point, render-worker.ts.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
try {
  await import('./render-worker.ts');
} catch (error) {
  parentPort.postMessage({ error: String((error && error.stack) || error) });
}
