/**
 * Entry point of a body pool thread (`body-pool.ts`): prepares and renders
 * one body per message and answers with the result, or with why the body
 * was refused. Started by `server/publish/worker-boot.mjs`.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { BodyRejectedError, processBody, type BodyJob } from '../domain/body/index.ts';
import type { BodyReply } from './body-pool.ts';

const port = parentPort!;

port.on('message', (message: { id: number; job: BodyJob }) => {
  let reply: BodyReply;
  try {
    reply = { id: message.id, ok: true, body: processBody(message.job) };
  } catch (error) {
    const rejected = error instanceof BodyRejectedError;
    // A parser that throws on a body (a stack overflow the limits missed, say) refuses that body; it is
    // not a fault of the service, and the thread is fine afterwards.
    reply = {
      id: message.id,
      ok: false,
      limit: rejected ? error.limit : 'unprocessable',
      message: rejected ? error.message : `The body could not be processed (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
