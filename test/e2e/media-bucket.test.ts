/**
 * Uploads kept in the object store (issue 38, item 4): with a bucket
 * configured, an image upload is stored in it before it is acknowledged, and
 * a server on another machine (its own data and output folders, the same
 * Postgres database and bucket) that takes over from a killed one fetches
 * the images it lacks from the bucket, serves them with the same bytes and
 * places them in its output, and the bucket keeps them. A bucket that
 * refuses the upload makes it a 503 `MEDIA_STORE_UNAVAILABLE` with
 * `Retry-After`, and nothing is saved.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiValidator } from '../helpers/openapi-validator.ts';
import { pollUntil } from '../helpers/poll.ts';
import { sharedPostgres, type PostgresCluster } from '../helpers/postgres-cluster.ts';
import { startS3, type S3Server } from '../helpers/s3-server.ts';
import { killProcess, serviceEnv, startServerProcess, startStandbyProcess, type StandbyProcess } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const api = createOpenApiValidator(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi/publishing-api.yaml'));
let cluster: PostgresCluster;
let s3: S3Server;
let dir: string;
const processes: ChildProcess[] = [];
let refused: TestService | undefined;

beforeAll(async () => {
  cluster = await sharedPostgres();
  s3 = await startS3();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-media-bucket-'));
});
afterAll(async () => {
  await Promise.all(processes.map(killProcess));
  await refused?.stop();
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const photo = () => sharp({ create: { width: 640, height: 400, channels: 3, background: '#2a6f97' } }).jpeg().toBuffer();

async function upload(base: string, key: string, channel: string, image: Uint8Array): Promise<{ status: number; json: any; retryAfter: string | null }> {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
  form.set('alt', 'The harbour at dawn');
  const res = await fetch(`${base}/api/v1/channels/${channel}/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const json = await res.json();
  api.assertResponse('POST', '/channels/{channel_slug}/media', res.status, json);
  return { status: res.status, json, retryAfter: res.headers.get('retry-after') };
}

/** A standby, its process killed after the file's tests if still running. */
function startStandby(env: NodeJS.ProcessEnv): StandbyProcess {
  const standby = startStandbyProcess(env);
  processes.push(standby.child);
  return standby;
}

describe('uploads kept in the bucket', () => {
  it('reach a server on another machine that takes over: fetched from the bucket, served with the same bytes, kept there', async () => {
    const url = await cluster.createDatabase();
    const shared = { PRESSROOM_DATABASE_URL: url, PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_SOCIAL_CARDS: 'false', PRESSROOM_PUBLIC_URL: 'http://pressroom.test', ...s3.env };
    // Two machines: each its own data and output folders.
    const envA = serviceEnv(path.join(dir, 'a'), shared);
    const envB = serviceEnv(path.join(dir, 'b'), shared);
    const first = await startServerProcess(envA);
    processes.push(first.child);
    const key = fs.readFileSync(path.join(dir, 'a/data/dev-api-key.txt'), 'utf8').trim();
    const call = (base: string, method: string, p: string, body?: unknown) =>
      fetch(`${base}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    expect((await call(first.url, 'POST', '/channels', { slug: 'port', default_language: 'en', translations: [{ language: 'en', title: 'Port' }] })).status).toBe(201);

    const draft = await upload(first.url, key, 'port', await photo());
    expect(draft.status).toBe(201);
    const draftName = new URL(draft.json.url).pathname.slice(1);
    // In the bucket as soon as the upload is acknowledged, before any build.
    expect((await s3.objects()).has(draftName)).toBe(true);
    const bytes = fs.readFileSync(path.join(dir, 'a/data', draftName));

    const standby = startStandby(envB);
    await standby.waiting;
    const article = await call(first.url, 'POST', '/channels/port/pages', {
      slug: 'dawn',
      default_language: 'en',
      status: 'published',
      translations: [{ language: 'en', title: 'Dawn', content_markdown: `${draft.json.markdown}\n\nBoats leave.` }],
    });
    expect(article.status).toBe(201);
    const articleName = draftName.replace('/_drafts/', '/dawn/');
    // Killed at once: the article's copy of the image may not have reached the bucket through a build yet.
    first.child.kill('SIGKILL');

    const second = await standby.listening;
    expect(fs.readFileSync(path.join(dir, 'b/data', draftName)).equals(bytes)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'b/data', articleName)).equals(bytes)).toBe(true);
    for (const name of [draftName, articleName]) {
      const served = await fetch(`${second}/${name}`);
      expect(served.status, name).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes), name).toBe(true);
    }
    // Published on the new machine, with its image in its output and in the bucket.
    await pollUntil(
      async () => ((await (await call(second, 'GET', '/channels/port/pages/dawn')).json()) as { status: string }).status,
      (status) => status === 'published',
      { what: 'the article to be published by the server that took over', timeoutMs: 60_000, intervalMs: 200 },
    );
    await pollUntil(
      async () => fs.existsSync(path.join(dir, 'b/dist/port/en/dawn.html')) && fs.readFileSync(path.join(dir, 'b/dist/port/en/dawn.html'), 'utf8'),
      (html) => typeof html === 'string' && html.includes(`/${articleName}`),
      { what: 'the article page, with its image, in the new machine\'s output', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(fs.readFileSync(path.join(dir, 'b/dist', articleName)).equals(bytes)).toBe(true);
    const objects = await pollUntil(() => s3.objects(), (held) => held.has(articleName) && held.has('port/en/dawn.html'), { what: 'the bucket to hold the article and its image', timeoutMs: 60_000, intervalMs: 250 });
    expect(objects.get(articleName)!.bytes.equals(bytes)).toBe(true);
    expect(objects.get(draftName)!.bytes.equals(bytes)).toBe(true);
  }, 240_000);

  it('answers 503 MEDIA_STORE_UNAVAILABLE with Retry-After when the bucket refuses an upload, and saves nothing', async () => {
    // A bucket address where nothing listens.
    refused = await startTestService({ ...s3.env, PRESSROOM_DEPLOY_S3_ENDPOINT: 'http://127.0.0.1:9', PRESSROOM_STATIC_BUILD: 'false' });
    const key = await refused.key('editor', 'pro');
    expect((await refused.request('POST', '/api/v1/channels', { key, body: { slug: 'port', default_language: 'en', translations: [{ language: 'en', title: 'Port' }] } })).status).toBe(201);
    const answer = await upload(refused.url, key, 'port', await photo());
    expect(answer.status).toBe(503);
    expect(answer.json.error.code).toBe('MEDIA_STORE_UNAVAILABLE');
    expect(answer.json.error.message).toContain('Retry-After');
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await refused.service.db.selectFrom('media').select('id').execute()).toEqual([]);
  }, 120_000);
});
