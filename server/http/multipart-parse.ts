/**
 * Parses a multipart/form-data body that is already on disk (busboy, a
 * streaming parser): text fields into memory up to a small limit, each file
 * part into its own temporary file. It runs on the upload parser thread
 * (`upload-parser.ts`), never on the request thread, and reads the body in
 * chunks, so neither a burst of uploads nor one large one holds a body whole
 * in memory (issue 40). On failure the files it wrote are removed.
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Busboy from 'busboy';
import { PressroomError } from '../domain/errors.ts';
import { describeError } from '../describe-error.ts';

/** What an upload may hold. */
export interface UploadLimits {
  /** The whole body, framing included. */
  readonly maxBodyBytes: number;
  /** Parts (fields and files) in all: more is refused, not read. */
  readonly maxParts: number;
  /** One text field. */
  readonly maxFieldBytes: number;
}

/** A file part, written to `path` (the caller removes it). */
export interface ParsedFile {
  readonly path: string;
  readonly size: number;
}

/** The parts of a parsed body by field name; a name sent twice has two entries. */
export interface ParsedUpload {
  readonly fields: Record<string, string[]>;
  readonly files: Record<string, ParsedFile[]>;
}

/** A temporary name in `dir`: `.upload.{pid}.{12 hex}.tmp` (a dot file; the start removes stale ones). */
export function uploadTempName(dir: string): string {
  return path.join(dir, `.upload.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Checks that `contentType` names a multipart boundary busboy can use, without reading anything.
 * @throws PressroomError BAD_REQUEST when it does not.
 */
export function checkMultipartType(contentType: string): void {
  try {
    Busboy({ headers: { 'content-type': contentType } });
  } catch (error) {
    throw badRequest(error);
  }
}

/**
 * Parses the body in the file `raw` as multipart/form-data with the boundary of `contentType`, writing each
 * file part to a new temporary file in `dir`.
 * @throws PressroomError BAD_REQUEST for a body that is not well-formed multipart or has too many parts,
 * VALIDATION_FAILED for a text field over `limits.maxFieldBytes`.
 */
export async function parseMultipartFile(raw: string, contentType: string, dir: string, limits: UploadLimits): Promise<ParsedUpload> {
  let parser: Busboy.Busboy;
  try {
    parser = Busboy({ headers: { 'content-type': contentType }, limits: { parts: limits.maxParts, fieldSize: limits.maxFieldBytes, fileSize: limits.maxBodyBytes } });
  } catch (error) {
    throw badRequest(error);
  }
  const fields: Record<string, string[]> = {};
  const files: Record<string, ParsedFile[]> = {};
  const written: string[] = [];
  const writes: Array<Promise<void>> = [];
  let problem: PressroomError | null = null;
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) problem ??= new PressroomError('VALIDATION_FAILED', `The field "${name}" is longer than ${limits.maxFieldBytes} bytes. Send a shorter value.`, { fields: { [name]: `Longer than ${limits.maxFieldBytes} bytes.` } });
    (fields[name] ??= []).push(value);
  });
  parser.on('file', (name, stream) => {
    const file = uploadTempName(dir);
    written.push(file);
    let size = 0;
    stream.on('data', (chunk: Buffer) => (size += chunk.length));
    writes.push(
      pipeline(stream, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 })).then(() => {
        (files[name] ??= []).push({ path: file, size });
      }),
    );
  });
  parser.on('partsLimit', () => {
    problem ??= new PressroomError('BAD_REQUEST', `The form has more than ${limits.maxParts} parts. Send the image in the field "image" and only the documented text fields.`);
  });
  const discard = () => Promise.all(written.map((file) => fs.promises.rm(file, { force: true })));
  try {
    await pipeline(fs.createReadStream(raw), parser);
    await Promise.all(writes);
  } catch (error) {
    await Promise.allSettled(writes);
    await discard();
    if (problem) throw problem;
    if (PressroomError.is(error)) throw error;
    throw badRequest(error);
  }
  if (problem) {
    await discard();
    throw problem;
  }
  return { fields, files };
}

function badRequest(error: unknown): PressroomError {
  return new PressroomError(
    'BAD_REQUEST',
    `The multipart body could not be read (${describeError(error)}). Check the boundary in Content-Type and the part headers, or let your HTTP client build the form.`,
  );
}
