/**
 * `npm run build` is safe while the server writes (issue 18, item 8): the
 * build runs as its own process (`scripts/build.ts`) over the same database
 * file while a burst of API writes arrives over real HTTP. No write may get
 * an answer ≥ 500 ("database is locked" was a 500), and the build succeeds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const root = path.resolve(import.meta.dirname, '../..');
let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService({}, { startWorker: true });
  key = await t.key('writer', 'pro');
  expect((await t.request('POST', '/api/v1/channels', { key, body: { slug: 'busy', default_language: 'en', translations: [{ language: 'en', title: 'Busy' }] } })).status).toBe(201);
  for (let i = 0; i < 30; i++) {
    const res = await t.request('POST', '/api/v1/channels/busy/pages', { key, body: article(`seed-${i}`) });
    expect(res.status).toBe(201);
  }
  await t.service.worker?.runDue();
});

afterAll(async () => {
  await t?.stop();
});

function article(slug: string) {
  return { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: `Title ${slug}`, content_markdown: `Body of ${slug}.\n\nA second paragraph.` }] };
}

/** Runs `scripts/build.ts` over the test service's data and output folders; resolves with its exit code and stderr. */
function runBuild(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PRESSROOM_DATA_DIR: t.config.dataDir,
      PRESSROOM_OUTPUT_DIR: t.config.outputDir,
      PRESSROOM_PUBLIC_URL: 'http://pressroom.test',
      PRESSROOM_IMPORT_CONTENT: 'false',
      PRESSROOM_LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

it('answers every API write with < 500 while a build runs in another process', async () => {
  let building = true;
  const build = runBuild().finally(() => (building = false));
  const statuses: number[] = [];
  const failures: string[] = [];
  let n = 0;
  // Four clients write until the build is over (at most 1,000 writes, to bound the test on a busy machine):
  // new articles, and edits of published ones.
  const client = async (c: number) => {
    while (building && n < 1_000) {
      const i = n++;
      const res =
        i % 2 === 0
          ? await t.request('POST', '/api/v1/channels/busy/pages', { key, body: article(`w-${c}-${i}`) })
          : await t.request('PUT', `/api/v1/channels/busy/pages/seed-${i % 30}/translations/en`, { key, body: { title: `Edited ${i}`, content_markdown: `Edited body ${i}.` } });
      statuses.push(res.status);
      if (res.status >= 500) failures.push(`${res.status} ${res.text}`);
    }
  };
  await Promise.all([0, 1, 2, 3].map(client));
  const { code, stderr } = await build;
  expect(code, stderr).toBe(0);
  expect(failures).toEqual([]);
  expect(statuses.length).toBeGreaterThan(10);
  expect(statuses.every((s) => s === 200 || s === 201), `statuses: ${[...new Set(statuses)].join(', ')}`).toBe(true);
  expect(fs.readdirSync(t.config.outputDir)).toContain('busy');
}, 120_000);
