/**
 * Entry point of the output check's thread (`output-check.ts`): opens its
 * own store connection, runs `checkOutput` once and answers with what it
 * found (or the error).
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkOutput } from '../builder/known-output.ts';
import { openDatabase } from '../../store/database.ts';
import type { OutputCheckData } from './output-check.ts';

const data = workerData as OutputCheckData;
const db = openDatabase(data.database, { thread: true });
try {
  parentPort!.postMessage({ check: await checkOutput(db, data.outputDir) });
} catch (error) {
  parentPort!.postMessage({ error: String((error as Error)?.stack ?? error) });
} finally {
  await db.destroy();
}
