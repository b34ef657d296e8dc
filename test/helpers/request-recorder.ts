/**
 * An HTTP server on loopback that records every request and answers as a
 * test says: the stand-in for a CDN's API where no real service can run
 * here (Cloudflare, Fastly, CloudFront; docs/HOSTING.md, "CDN and object
 * storage"). Requests are kept whole: method, path with query, headers, body.
 * @module
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded request. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** What to answer. */
export interface RecordedAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** A running recorder. */
export interface RequestRecorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Changes the answer from now on. */
  answer(answer: (request: RecordedRequest) => RecordedAnswer): void;
  stop(): Promise<void>;
}

/** Starts a recorder answering with `answer` (default: 200, empty). */
export async function startRecorder(answer: (request: RecordedRequest) => RecordedAnswer = () => ({})): Promise<RequestRecorder> {
  const requests: RecordedRequest[] = [];
  let respond = answer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const a = respond(recorded);
      res.writeHead(a.status ?? 200, a.headers ?? {});
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      respond = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
