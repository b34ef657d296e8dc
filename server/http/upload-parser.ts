/**
 * Where multipart uploads are parsed: behind the narrowest interface, so
 * the route does not know whether busboy runs on this thread or another.
 * The server uses one worker thread (`upload-parse-worker.ts`), started on
 * the first upload and idle (unref'd) between them: the request thread only
 * counts the body's bytes and writes them to disk, and a burst of uploads
 * never makes readers wait for parsing (issue 40). Should the thread die,
 * the uploads it held fail with `UPLOAD_PARSER_FAILED` (a 500; nothing was
 * stored) and the next upload starts a new one.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { PressroomError, type ErrorCode } from '../domain/errors.ts';
import { InternalError } from '../internal-error.ts';
import { parseMultipartFile, type ParsedUpload, type UploadLimits } from './multipart-parse.ts';

/** Parses a multipart body already written to the file `raw`. */
export interface UploadParser {
  /** @throws PressroomError for a malformed body (see `parseMultipartFile`). */
  parse(raw: string, contentType: string, dir: string, limits: UploadLimits): Promise<ParsedUpload>;
  /** Stops the thread, if any; parses still running fail. */
  close(): Promise<void>;
}

/** A job, as sent to the thread. */
export interface UploadParseJob {
  readonly id: number;
  readonly raw: string;
  readonly contentType: string;
  readonly dir: string;
  readonly limits: UploadLimits;
}

/** The thread's answer to a job: the parts, or the refusal as a plain value (errors do not cross threads whole). */
export type UploadParseReply =
  | { readonly id: number; readonly parsed: ParsedUpload }
  | { readonly id: number; readonly refused: { code: ErrorCode; message: string; details?: Record<string, unknown> } }
  | { readonly id: number; readonly failed: string };

/** Parses on the calling thread (tests, and tools that upload nothing in bursts). */
export function createInlineUploadParser(): UploadParser {
  return { parse: parseMultipartFile, close: async () => undefined };
}

/** Parses on one worker thread, started when first needed. */
export function createThreadUploadParser(): UploadParser {
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: (parsed: ParsedUpload) => void; reject: (error: Error) => void }>();

  const failAll = (message: string, cause?: unknown) => {
    const error = new InternalError('UPLOAD_PARSER_FAILED', `${message} The upload was not stored; sending it again starts a new parser thread.`, { cause });
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    // The worker runs the TypeScript sources, as the rest of the service does (see worker-boot.mjs).
    const w = new Worker(new URL('../worker-boot.mjs', import.meta.url), { workerData: { entry: new URL('./upload-parse-worker.ts', import.meta.url).href } });
    w.on('message', (reply: UploadParseReply | { error: string }) => {
      if (!('id' in reply)) {
        if (worker === w) worker = null;
        void w.terminate();
        return failAll(`The upload parser thread did not start: ${reply.error}.`);
      }
      const job = pending.get(reply.id);
      if (!job) return;
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      if ('parsed' in reply) job.resolve(reply.parsed);
      else if ('refused' in reply) job.reject(new PressroomError(reply.refused.code, reply.refused.message, reply.refused.details));
      else job.reject(new InternalError('UPLOAD_PARSER_FAILED', `The upload parser failed: ${reply.failed}`));
    });
    const died = (cause: unknown) => {
      if (worker !== w) return;
      worker = null;
      failAll('The upload parser thread stopped.', cause);
    };
    w.on('error', died);
    w.on('exit', (code) => died(new Error(`exit code ${code}`)));
    w.unref();
    return w;
  };

  return {
    parse(raw, contentType, dir, limits) {
      worker ??= start();
      const id = ++next;
      const job: UploadParseJob = { id, raw, contentType, dir, limits };
      // With a parse on its way the thread keeps the process alive; idle, it does not.
      worker.ref();
      worker.postMessage(job);
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    async close() {
      const w = worker;
      worker = null;
      failAll('The upload parser thread was stopped.');
      await w?.terminate();
    },
  };
}
