/**
 * The inputs of issue 40's probe that one key holder sends to stall
 * everyone: the body shapes that were quadratic, a body of nested list
 * markers inside every limit, a 9.4 MB image that does not compress, and a
 * multipart upload sent with node:http from buffers made once (so a burst
 * of a hundred costs the client nothing). Shared by the tests
 * (`server/domain/body/body-growth.test.ts`,
 * `test/e2e/key-holder-bursts.test.ts`) and the bodies benchmark.
 * @module
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import sharp from 'sharp';

/** The probe's body shapes, `n` lines each. */
export const GROWTH_SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'nested list markers': (n) => ('- '.repeat(24) + 'x\n').repeat(n),
  'mixed nested lists': (n) => ('* '.repeat(16) + '1. '.repeat(8) + 'x\n').repeat(n),
  'lists of growing depth': (n) => Array.from({ length: n }, (_, i) => '- '.repeat(1 + (i % 30)) + 'x\n').join(''),
  'one-line headings': (n) => '# h\n'.repeat(n),
};

/** 51 KB of nested list markers, inside every structural limit: 7.9 s to save before issue 40. */
export const NESTED_MARKERS_51KB = GROWTH_SHAPES['nested list markers']!(1040);

/** A PNG of noise of about 9.4 MB (1770 × 1770, under the 10 MB upload limit), or `side` × `side`. */
export function noisePng(side = 1770): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
}

/** What an upload was answered, and when (`performance.now()`). */
export interface UploadAnswer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
  readonly at: number;
}

/** POSTs `image` as the multipart field `image` to `{base}/api/v1/channels/{channel}/media`. */
export function uploadImage(base: string, key: string, channel: string, image: Buffer): Promise<UploadAnswer> {
  const boundary = 'pressroom-burst-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="upload.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`${base}/api/v1/channels/${channel}/media`), { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + image.length + tail.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: Buffer.concat(chunks).toString(), at: performance.now() }));
    });
    // A refused upload is answered before its body is read: the rest of the write may fail, which is fine.
    // Should the connection be reset before the answer is read (a server that closes with the body unread
    // and no lingering close), that is reported as status 0, never a hang.
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.on('close', () => {
      if (!answered) resolve({ status: 0, retryAfter: undefined, body: 'the connection was reset before an answer was read', at: performance.now() });
    });
    req.write(head);
    req.write(image);
    req.end(tail);
  });
}
