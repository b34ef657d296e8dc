/**
 * A failing CDN delays a purge but never loses one, and is never silent
 * (issue 35): the real service (`scripts/start.ts`) purges through a signed
 * webhook whose receiver answers 503. The article stays "being published"
 * with `EDGE_DELIVERY_DELAYED` naming the CDN's answer; the server is killed
 * with SIGKILL and started again with the receiver healthy; the pending
 * delivery goes out (with the tags of the article's files) and only then is
 * the article reported published.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookSignature } from '../../server/edge/purgers/webhook.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startRecorder, type RequestRecorder } from '../helpers/request-recorder.ts';
import { npmRun, serviceEnv, startServerProcess, type ServerProcess } from '../helpers/service-process.ts';

const SECRET = 'edge-test-secret-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-edge-'));
let recorder: RequestRecorder;
let server: ServerProcess | null = null;
let cdnUp = false;

beforeAll(async () => {
  recorder = await startRecorder(() => (cdnUp ? { status: 204 } : { status: 503, body: 'CDN maintenance' }));
});
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await recorder.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () =>
  serviceEnv(dir, {
    PRESSROOM_IMPORT_CONTENT: 'false',
    PRESSROOM_SOCIAL_CARDS: 'false',
    PRESSROOM_PURGE_WEBHOOK_URL: `${recorder.url}/purge`,
    PRESSROOM_PURGE_WEBHOOK_SECRET: SECRET,
  });

async function call(key: string, method: string, p: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server!.url}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

it('a purge that fails is retried, survives a SIGKILL, and only its success reports the article published', async () => {
  server = await startServerProcess(env());
  const key = fs.readFileSync(path.join(dir, 'data', 'dev-api-key.txt'), 'utf8').trim();
  expect((await call(key, 'POST', '/channels', { slug: 'held', default_language: 'en', translations: [{ language: 'en', title: 'Held' }] })).status).toBe(201);
  const written = await call(key, 'POST', '/channels/held/pages', { slug: 'waiting', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Waiting', content_markdown: 'For the CDN.' }] });
  expect(written.status).toBe(201);

  // The build places the files; the CDN refuses the purge, again and again.
  const held = await pollUntil(
    async () => (await call(key, 'GET', '/channels/held/pages/waiting')).json,
    (a) => a.translations[0].moderation === 'passed' && a.warnings.some((w: { code: string }) => w.code === 'EDGE_DELIVERY_DELAYED'),
    { what: 'the article to say the CDN holds it back', timeoutMs: 60_000 },
  );
  expect(held.translations[0].status).toBe('moderation_review');
  expect(held.translations[0].moderation).toBe('passed');
  const warning = held.warnings.find((w: { code: string }) => w.code === 'EDGE_DELIVERY_DELAYED');
  expect(warning.message).toMatch(/webhook: 503 .*CDN maintenance/);
  expect(warning.message).toMatch(/retries by itself/);
  // The files reach the origin meanwhile: readers of the origin itself get them while the publishing API still
  // reports the change held back. (The warning can come first: the CDN already refused the channel's build.)
  await pollUntil(async () => (await fetch(`${server!.url}/held/waiting`)).status, (status) => status === 200, { what: 'the origin to serve the page', timeoutMs: 60_000 });
  expect((await call(key, 'GET', '/channels/held/pages/waiting')).json.translations[0].status).toBe('moderation_review');
  expect(recorder.requests.length).toBeGreaterThan(0);
  // And to the operator.
  const admin = await npmRun('admin', ['edge'], env());
  expect(admin.code, admin.stderr).toBe(0);
  expect(admin.stdout).toMatch(/waiting for their purge/);
  expect(admin.stdout).toMatch(/Failed \d+ time\(s\); last: webhook: 503/);

  server.child.kill('SIGKILL');
  await new Promise((resolve) => server!.child.once('exit', resolve));
  cdnUp = true;
  const before = recorder.requests.length;
  server = await startServerProcess(env());

  const published = await pollUntil(
    async () => (await call(key, 'GET', '/channels/held/pages/waiting')).json,
    (a) => a.translations[0].status === 'published',
    { what: 'the article published once the CDN took the purge', timeoutMs: 60_000 },
  );
  expect(published.warnings).toEqual([]);
  const delivered = recorder.requests.slice(before).filter((r) => r.headers['x-pressroom-timestamp']);
  expect(delivered.length).toBeGreaterThan(0);
  const last = delivered[delivered.length - 1]!;
  expect(last.headers['x-pressroom-signature']).toBe(webhookSignature(SECRET, Number(last.headers['x-pressroom-timestamp']), last.body));
  const tags = delivered.flatMap((r) => (JSON.parse(r.body) as { tags: string[] }).tags);
  for (const tag of ['pressroom:f:/held/waiting.html', 'pressroom:f:/api/public/v1/channels/held/articles/waiting.json', 'pressroom:f:/held/index.html', 'pressroom:q:held', 'pressroom:q']) {
    expect(tags).toContain(tag);
  }
  expect(await server.stop()).toBe(0);
  server = null;
}, 180_000);
