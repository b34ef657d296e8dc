import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInlineUploadParser, createThreadUploadParser, type UploadParser } from './upload-parser.ts';

const BOUNDARY = 'test-boundary';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const LIMITS = { maxBodyBytes: 1024 * 1024, maxParts: 4, maxFieldBytes: 64 };

// Made at once: the cases' bodies below are written while the tests are collected.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-upload-parser-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A multipart body of text fields and file parts, written to a file as the route writes the request's. */
function rawBody(parts: Array<{ name: string; value: string | Buffer; filename?: string }>, tail = `--${BOUNDARY}--\r\n`): string {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${part.filename ? 'Content-Type: image/png\r\n' : ''}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(tail));
  const file = path.join(dir, `raw-${Math.random().toString(16).slice(2)}`);
  fs.writeFileSync(file, Buffer.concat(chunks));
  return file;
}

/** The files in the folder other than the raw bodies: what the parser wrote. */
const partFiles = () => fs.readdirSync(dir).filter((name) => name.startsWith('.upload.'));

describe.each([
  ['on its thread', createThreadUploadParser],
  ['inline', createInlineUploadParser],
] as const)('the upload parser %s', (_name, create) => {
  let parser: UploadParser;
  beforeAll(() => void (parser = create()));
  afterAll(() => parser.close());

  it('gives the fields and writes each file part to a file of its own', async () => {
    const image = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    const parsed = await parser.parse(rawBody([{ name: 'alt', value: 'A quiet harbour' }, { name: 'image', value: image, filename: 'a.png' }]), TYPE, dir, LIMITS);
    expect(parsed.fields).toEqual({ alt: ['A quiet harbour'] });
    expect(parsed.files.image).toHaveLength(1);
    const file = parsed.files.image![0]!;
    expect(file.size).toBe(image.length);
    expect(fs.readFileSync(file.path).equals(image)).toBe(true);
    fs.rmSync(file.path);
  });

  it.each([
    ['a body cut short', rawBody([{ name: 'image', value: 'x', filename: 'a.png' }], `--${BOUNDARY}\r\nContent-Disposition: form-data; name="more"; filename="b.png"\r\n\r\npartial`), TYPE, 'BAD_REQUEST', /could not be read/],
    ['more parts than allowed', rawBody(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, value: 'v' }))), TYPE, 'BAD_REQUEST', /more than 4 parts/],
    ['a field over its limit', rawBody([{ name: 'alt', value: 'x'.repeat(100) }]), TYPE, 'VALIDATION_FAILED', /"alt" is longer than 64 bytes/],
    ['a Content-Type without a boundary', rawBody([]), 'multipart/form-data', 'BAD_REQUEST', /boundary/],
  ])('refuses %s with a clear error and leaves no file behind', async (_case, raw, type, code, message) => {
    const error = await parser.parse(raw, type, dir, LIMITS).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'PressroomError', code });
    expect((error as Error).message).toMatch(message);
    expect(partFiles()).toEqual([]);
  });
});

describe('the parser thread', () => {
  it('fails the parses it held when it stops, and starts again for the next upload', async () => {
    const parser = createThreadUploadParser();
    const raw = rawBody([{ name: 'image', value: Buffer.alloc(200_000, 7), filename: 'a.png' }]);
    const held = parser.parse(raw, TYPE, dir, LIMITS).then(() => null, (error: unknown) => error);
    await parser.close();
    expect(await held).toMatchObject({ name: 'InternalError', code: 'UPLOAD_PARSER_FAILED' });
    const parsed = await parser.parse(raw, TYPE, dir, LIMITS);
    expect(parsed.files.image![0]!.size).toBe(200_000);
    await parser.close();
    for (const name of partFiles()) fs.rmSync(path.join(dir, name));
  });
});
