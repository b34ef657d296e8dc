/**
 * Entry point of the output writer thread (`output-queue.ts`): does each
 * queued write or deletion in order and answers with its sequence number
 * (and the error, when it failed).
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { OutputOperation } from './output-queue.ts';
import { removeOutput, writeAtomically } from './output-writer.ts';
import { describeError } from '../describe-error.ts';

const { outputDir } = workerData as { outputDir: string };
const port = parentPort!;

port.on('message', (operation: OutputOperation) => {
  try {
    if (operation.op === 'write') writeAtomically(outputDir, operation.relative, operation.bytes);
    else removeOutput(outputDir, operation.relative);
    port.postMessage({ seq: operation.seq });
  } catch (error) {
    port.postMessage({ seq: operation.seq, error: describeError(error) });
  }
});
