/**
 * CloudFront with the generated Lambda@Edge function in front of an S3
 * bucket, as far as it can run here: a real S3-compatible server (s3rver,
 * from npm) filled with an output folder as a deploy stores it (the deploy's
 * own bucket client and object headers), the generated function itself
 * (`npm run host-config -- cloudfront`'s `index.mjs`, imported from a file
 * and called with the viewer-request event CloudFront builds), and the
 * generated distribution settings applied as CloudFront applies them: the
 * function's answers sent as they are, everything else fetched from the
 * bucket by the rewritten path (the query string dropped, conditional
 * headers passed on), the response headers policy added, and S3's 403/404
 * replaced by the error response's page. CloudFront itself cannot run here
 * (docs/HOSTING.md says so); this is the plumbing it documents, no more.
 * @module
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { renderCloudFrontFunction, renderCloudFrontSettings } from '../../server/hosting/cloudfront-config.ts';
import type { CfEvent, CfRequest, CfResponse } from '../../server/hosting/cloudfront-edge.ts';
import { s3Bucket } from '../../server/edge/bucket/s3-bucket.ts';
import { objectHeadersOf } from '../../server/edge/bucket/bucket-sync.ts';
import { DEFAULT_TAG_PREFIX } from '../../server/serving/cache-tags.ts';
import { outputFiles } from './output-files.ts';
import { S3_BUCKET, startS3 } from './s3-server.ts';
import { stopChild } from './stop-child.ts';

/** A running distribution. */
export interface CloudFrontHost {
  readonly url: string;
  stop(): Promise<void>;
}

/** The headers CloudFront passes from the origin to the viewer (the ones these answers carry). */
const ORIGIN_HEADERS = ['content-type', 'content-length', 'cache-control', 'etag', 'last-modified'];

interface Settings {
  ResponseHeadersPolicy: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string }; FrameOptions: { FrameOption: string }; ReferrerPolicy: { ReferrerPolicy: string } } };
  CustomErrorResponses: { Items: Array<{ ErrorCode: number; ResponsePagePath: string; ResponseCode: string }> };
}

/** The function's file run by Node in a process of its own, as Lambda runs it: one event a line in, one answer a line out. */
function startLambda(dir: string): { handler(event: CfEvent): Promise<CfRequest | CfResponse>; stop(): Promise<void> } {
  fs.writeFileSync(
    path.join(dir, 'runner.mjs'),
    `import { handler } from './index.mjs';
import readline from 'node:readline';
readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const { id, event } = JSON.parse(line);
  try { process.stdout.write(JSON.stringify({ id, out: await handler(event) }) + '\\n'); }
  catch (error) { process.stdout.write(JSON.stringify({ id, error: String(error && error.stack || error) }) + '\\n'); }
});
`,
  );
  const child = spawn(process.execPath, [path.join(dir, 'runner.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map<number, { resolve(out: CfRequest | CfResponse): void; reject(error: Error): void }>();
  let next = 0;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const { id, out, error } = JSON.parse(line) as { id: number; out?: CfRequest | CfResponse; error?: string };
    const waiter = pending.get(id);
    pending.delete(id);
    if (error !== undefined) waiter?.reject(new Error(`the function threw: ${error}`));
    else waiter?.resolve(out!);
  });
  return {
    handler: (event) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id, event })}\n`);
      }),
    stop: () => stopChild(child),
  };
}

/** Fills a bucket with `dist` (max-age 60, the default tag prefix) and serves it through the function. */
export async function startCloudFront(dist: string): Promise<CloudFrontHost> {
  const s3 = await startS3();
  const bucket = s3Bucket({ bucket: S3_BUCKET, endpoint: s3.endpoint, region: 'us-east-1', prefix: '', pathStyle: true }, { accessKeyId: s3.env.AWS_ACCESS_KEY_ID!, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY! });
  for (const file of outputFiles(dist)) await bucket.put(file, fs.readFileSync(path.join(dist, file)), objectHeadersOf(file, 60, DEFAULT_TAG_PREFIX));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-cloudfront-'));
  fs.writeFileSync(path.join(dir, 'index.mjs'), await renderCloudFrontFunction());
  const fn = startLambda(dir);
  const settings = renderCloudFrontSettings() as unknown as Settings;
  const security = settings.ResponseHeadersPolicy.SecurityHeadersConfig;
  const policyHeaders: Record<string, string> = {
    'content-security-policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
    'x-frame-options': security.FrameOptions.FrameOption,
    'referrer-policy': security.ReferrerPolicy.ReferrerPolicy,
    'x-content-type-options': 'nosniff',
  };

  /** One object from the bucket, as the origin answers CloudFront (path-style, the key percent-encoded as the function wrote it). */
  const origin = (uri: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${s3.endpoint}/${S3_BUCKET}${uri}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  const server = http.createServer((req, res) => {
    void (async () => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const headers: CfRequest['headers'] = {};
      for (const [name, values] of Object.entries(req.headersDistinct)) headers[name] = (values ?? []).map((value) => ({ key: name, value }));
      const request: CfRequest = { clientIp: req.socket.remoteAddress ?? '127.0.0.1', method: req.method ?? 'GET', uri: q < 0 ? target : target.slice(0, q), querystring: q < 0 ? '' : target.slice(q + 1), headers };
      const answer = await fn.handler({ Records: [{ cf: { request } }] });
      if ('status' in answer) {
        const out: Record<string, string> = { ...policyHeaders };
        for (const [name, values] of Object.entries(answer.headers)) out[name] = values.map((v) => v.value).join(', ');
        res.writeHead(Number(answer.status), out);
        res.end(req.method === 'HEAD' ? undefined : answer.body);
        return;
      }
      const conditional: Record<string, string> = {};
      for (const name of ['if-none-match', 'if-modified-since']) if (typeof req.headers[name] === 'string') conditional[name] = req.headers[name];
      let got = await origin(answer.uri, conditional);
      let status = got.status;
      const error = settings.CustomErrorResponses.Items.find((e) => e.ErrorCode === got.status);
      if (error) {
        got = await origin(error.ResponsePagePath, {});
        status = Number(error.ResponseCode);
      }
      const out: Record<string, string> = {};
      for (const name of ORIGIN_HEADERS) if (typeof got.headers[name] === 'string') out[name] = got.headers[name];
      Object.assign(out, policyHeaders);
      res.writeHead(status, out);
      res.end(req.method === 'HEAD' || status === 304 ? undefined : got.body);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await s3.stop();
      await fn.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
