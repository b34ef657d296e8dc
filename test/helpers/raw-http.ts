/**
 * A raw HTTP client for the corpora: sends the path exactly as given (no URL
 * normalisation, unlike `fetch`, which would resolve `../` and re-encode), any
 * method and any body bytes, over a keep-alive agent on loopback.
 * @module
 */
import http from 'node:http';

/** One request of a corpus. */
export interface RawRequest {
  /** Human-readable name, shown when the request fails its assertions. */
  readonly name: string;
  readonly method: string;
  /** Sent verbatim as the request target. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: string | Buffer;
}

/** What came back. */
export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A client bound to one server, with a bounded number of sockets. */
export function rawClient(baseUrl: string, sockets = 8) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  function send(request: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = { ...request.headers };
      if (request.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
        headers['content-length'] = String(Buffer.byteLength(request.body));
      }
      const req = http.request({ host: hostname, port, method: request.method, path: request.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(20_000, () => req.destroy(new Error(`timeout: ${request.method} ${request.path}`)));
      req.end(request.body);
    });
  }
  /** Sends every request, `sockets` at a time, and returns the responses in order. */
  async function sendAll(requests: readonly RawRequest[]): Promise<Array<RawResponse | Error>> {
    const out: Array<RawResponse | Error> = new Array(requests.length);
    let next = 0;
    const lane = async () => {
      while (next < requests.length) {
        const i = next++;
        out[i] = await send(requests[i]!).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      }
    };
    await Promise.all(Array.from({ length: sockets }, lane));
    return out;
  }
  return { send, sendAll, close: () => agent.destroy() };
}
