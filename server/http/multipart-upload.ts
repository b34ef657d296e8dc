/**
 * Receives a multipart/form-data upload: on the request thread the body is
 * only counted and written, as it arrives, to a temporary file; the parse
 * (busboy) runs on the upload parser (`upload-parser.ts`, a worker thread in
 * the server), which writes each file part to its own temporary file. So an
 * upload is never held whole in memory and no parsing runs where readers
 * are answered (issue 40: 120 parallel 9.4 MB uploads stalled every reader
 * for seconds and left 4.4 GB resident). Past the size limit the read stops
 * with 413 and what was written is removed. The caller removes the parts'
 * files once the upload is handled (`discard`).
 * @module
 */
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PressroomError } from '../domain/errors.ts';
import { describeError } from '../describe-error.ts';
import type { UploadedFile, UploadInput } from '../domain/media/upload-input.ts';
import { checkMultipartType, uploadTempName, type UploadLimits } from './multipart-parse.ts';
import type { UploadParser } from './upload-parser.ts';

export type { UploadLimits } from './multipart-parse.ts';

/** An upload read to its end: the parts, and a way to remove their files. */
export interface ReceivedUpload {
  readonly input: UploadInput;
  discard(): Promise<void>;
}

/**
 * Reads `body` (the request's bytes) as multipart/form-data with the boundary of `contentType`.
 * @param tooLarge the error for a body over `limits.maxBodyBytes` (the caller's 413).
 * @throws PressroomError BAD_REQUEST for a body that is not well-formed multipart, `tooLarge()` past the limit.
 */
export async function receiveUpload(body: Readable, contentType: string, dir: string, limits: UploadLimits, tooLarge: () => PressroomError, parser: UploadParser): Promise<ReceivedUpload> {
  // A Content-Type busboy cannot use is refused before a byte is written.
  checkMultipartType(contentType);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const raw = uploadTempName(dir);
  let size = 0;
  let problem: PressroomError | null = null;
  // Counts the body as it passes: past the limit the read stops, whatever the parts say.
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limits.maxBodyBytes) return callback((problem ??= tooLarge()));
      callback(null, chunk);
    },
  });
  let parts: Awaited<ReturnType<UploadParser['parse']>>;
  try {
    try {
      await pipeline(body, counter, fs.createWriteStream(raw, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      throw problem ?? unreadable(error);
    }
    parts = await parser.parse(raw, contentType, dir, limits);
  } finally {
    await fs.promises.rm(raw, { force: true });
  }
  const files: Record<string, UploadedFile[]> = {};
  for (const [name, list] of Object.entries(parts.files)) {
    files[name] = list.map((file) => ({ size: file.size, bytes: async () => new Uint8Array(await fs.promises.readFile(file.path)) }));
  }
  const discard = async () => {
    await Promise.all(Object.values(parts.files).flatMap((list) => list.map((file) => fs.promises.rm(file.path, { force: true }))));
  };
  return { input: { fields: parts.fields, files }, discard };
}

function unreadable(error: unknown): PressroomError {
  if (PressroomError.is(error)) return error;
  return new PressroomError('BAD_REQUEST', `The upload's body could not be read to its end (${describeError(error)}). Send it again; check that Content-Length matches the body.`);
}

/** The request body of a web `Request` as a Node stream (an empty one when it has none). */
export function bodyStream(body: ReadableStream<Uint8Array> | null): Readable {
  return body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>) : Readable.from([]);
}
