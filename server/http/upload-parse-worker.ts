/**
 * Entry point of the upload parser thread (`upload-parser.ts`): parses each
 * job's body file and answers with the parts, or with the refusal's code,
 * message and details.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { PressroomError } from '../domain/errors.ts';
import { describeError } from '../describe-error.ts';
import { parseMultipartFile } from './multipart-parse.ts';
import type { UploadParseJob, UploadParseReply } from './upload-parser.ts';

const port = parentPort!;

port.on('message', (job: UploadParseJob) => {
  parseMultipartFile(job.raw, job.contentType, job.dir, job.limits).then(
    (parsed) => port.postMessage({ id: job.id, parsed } satisfies UploadParseReply),
    (error: unknown) =>
      port.postMessage(
        (PressroomError.is(error)
          ? { id: job.id, refused: { code: error.code, message: error.message, ...(error.details && { details: error.details }) } }
          : { id: job.id, failed: describeError(error) }) satisfies UploadParseReply,
      ),
  );
});
