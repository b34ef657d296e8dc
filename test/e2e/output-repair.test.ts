/**
 * The output folder is checked and repaired (issue 40, item 4), as an
 * operator meets it: the real service (`npm start`'s script) on a data
 * folder, stopped and started again around what happens to `dist/` in
 * between. A deleted folder is rebuilt before the first answer; files
 * edited by hand or deleted are found by comparing the folder with the
 * manifest (size and mtime, a hash where they changed) and written again
 * while the service answers; `npm run build` repairs them too. Uploaded
 * images live in the data folder and come back with the output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmRun, serviceEnv, startServerProcess, type ServerProcess } from '../helpers/service-process.ts';
import { pollUntil } from '../helpers/poll.ts';

const PAGE = '/pressroom-journal/welcome';
const DOC = '/api/public/v1/channels/pressroom-journal/articles/welcome';
const PAGE_FILE = 'pressroom-journal/welcome.html';
const DOC_FILE = 'api/public/v1/channels/pressroom-journal/articles/welcome.json';

let dir: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess | null = null;
const original: Record<string, string> = {};
let image = '';

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-output-repair-'));
  env = serviceEnv(dir, { PRESSROOM_LOG_LEVEL: 'warn' });
  server = await startServerProcess(env);
  // An uploaded image: kept in the data folder, copied into the output's media/ (nothing else could make it again).
  const key = fs.readFileSync(path.join(dir, 'data', 'dev-api-key.txt'), 'utf8').trim();
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } }).png().toBuffer())]), 'photo.png');
  const uploaded = await fetch(`${server.url}/api/v1/channels/pressroom-journal/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  expect(uploaded.status).toBe(201);
  image = new URL(((await uploaded.json()) as { url: string }).url).pathname;
  for (const address of [PAGE, DOC, image]) {
    const answer = await get(`${server.url}${address}`);
    expect(answer.status, address).toBe(200);
    original[address] = answer.body;
  }
  await server.stop();
  server = null;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a start', () => {
  it('rebuilds an output folder deleted while it was stopped before it answers, uploaded images included', async () => {
    fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    server = await startServerProcess(env);
    try {
      for (const address of [PAGE, DOC, image]) expect(await get(`${server.url}${address}`), address).toEqual({ status: 200, body: original[address] });
      // The static hosts and the bucket read the output folder: the image is there again.
      expect(fs.existsSync(path.join(dir, 'dist', image))).toBe(true);
      expect(fs.existsSync(path.join(dir, 'data', image))).toBe(true);
      expect(server.stderr()).toContain('the output folder has no site');
    } finally {
      await server.stop();
      server = null;
    }
  }, 180_000);

  it('finds files edited by hand (even to the same size) or deleted, and writes them again while it answers', async () => {
    const page = path.join(dir, 'dist', PAGE_FILE);
    fs.writeFileSync(page, 'x'.repeat(fs.statSync(page).size)); // same size: only the hash tells
    fs.rmSync(path.join(dir, 'dist', DOC_FILE));
    server = await startServerProcess(env);
    try {
      const url = server.url;
      const both = async () => [(await get(`${url}${PAGE}`)).body, (await get(`${url}${DOC}`)).body];
      await pollUntil(both, ([page, doc]) => page === original[PAGE] && doc === original[DOC], { what: 'the repaired files', timeoutMs: 60_000 });
      await pollUntil(() => server!.stderr(), (log) => log.includes('output folder repaired'), { what: 'the repair in the log' });
    } finally {
      await server.stop();
      server = null;
    }
  }, 180_000);
});

describe('npm run build', () => {
  it('writes a file again whose bytes are not the recorded ones, instead of trusting the manifest', async () => {
    const page = path.join(dir, 'dist', PAGE_FILE);
    fs.writeFileSync(page, '<p>defaced</p>');
    const result = await npmRun('build', [], env);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readFileSync(page, 'utf8')).toBe(original[PAGE]);
  }, 300_000);
});
