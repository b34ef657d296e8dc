/**
 * Entry point of a body pool thread (`body-pool.ts`): per message, prepares
 * and renders one body, renders a stored one, or evaluates the moderation rules on one submission,
 * and answers with the result, or with why the work was refused. Started by
 * `server/worker-boot.mjs`.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { BodyRejectedError, processBody, renderMarkdownBody } from '../domain/body/index.ts';
import type { BodyReply, PoolTask } from './body-pool.ts';
import { moderateInPlace } from './moderation-task.ts';
import { describeError } from '../describe-error.ts';
import { currentThreadId } from './thread-cpu.ts';

const port = parentPort!;

port.on('message', (message: { id: number; task: PoolTask }) => {
  const { id, task } = message;
  let reply: BodyReply;
  try {
    reply =
      task.kind === 'body'
        ? { id, ok: true, body: processBody(task.job) }
        : task.kind === 'render'
          ? { id, ok: true, rendered: renderMarkdownBody(task.markdown) }
          : { id, ok: true, decision: moderateInPlace(task.rules, task.subject) };
  } catch (error) {
    const rejected = error instanceof BodyRejectedError;
    // A parser that throws on a body (a stack overflow the limits missed, say) refuses that body; it is
    // not a fault of the service, and the thread is fine afterwards.
    const why = describeError(error);
    reply = {
      id,
      ok: false,
      limit: rejected ? error.limit : 'unprocessable',
      message: rejected ? error.message : task.kind === 'body' ? `The body could not be processed (${why}).` : `threw (${why})`,
    };
  }
  port.postMessage(reply);
});
// Its kernel id: the pool reads this thread's CPU time by it for the time limit (thread-cpu.ts).
port.postMessage({ ready: true, tid: currentThreadId() });
