/**
 * The running worker, not driven by hand: innocuous content is published
 * within a second on an idle server, and a schedule whose time passed while
 * the service was down is published at the next start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { manualClock } from '../../server/clock.ts';
import { loadConfig } from '../../server/config.ts';
import { createLogger } from '../../server/logger.ts';
import { startService, type RunningService } from '../../server/main.ts';
import { startTestService } from '../helpers/test-service.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

// The worker is woken by the write and polls at least every 250 ms, so on an idle server innocuous content
// is published well within a second (npm start shows ~25 ms). Tests share two cores with other suites, so
// the bound asserted here is generous; the latency itself is a benchmark figure.
it('publishes innocuous content promptly, without anyone driving the worker', async () => {
  const t = await startTestService({}, { startWorker: true });
  try {
    const key = await t.key('quick');
    await t.request('POST', '/api/v1/channels', { key, body: { slug: 'quick', default_language: 'en', translations: [{ language: 'en', title: 'Quick' }] } });
    const started = Date.now();
    const res = await t.request('POST', '/api/v1/channels/quick/pages', {
      key,
      body: { slug: 'now', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Now', content_markdown: 'Plain text.' }] },
    });
    expect(res.json.status).toBe('moderation_review');
    let status = '';
    while (Date.now() - started < 5000) {
      status = (await t.request('GET', '/api/v1/channels/quick/pages/now', { key })).json.status;
      if (status === 'published') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe('published');
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await t.stop();
  }
});

it('publishes at the next start a schedule whose time passed while the service was down', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-down-'));
  dirs.push(dir);
  const config = loadConfig(
    { PORT: '0', PRESSROOM_DATA_DIR: path.join(dir, 'data'), PRESSROOM_OUTPUT_DIR: path.join(dir, 'dist'), PRESSROOM_IMPORT_CONTENT: 'false', PRESSROOM_LOG_LEVEL: 'silent', PRESSROOM_STATIC_BUILD: 'false' },
    dir,
  );
  const clock = manualClock('2026-11-22T12:00:00.000Z');
  const start = () => startService(config, { clock, log: createLogger('silent'), startWorker: false });
  const first: RunningService = await start();
  const key = first.newDevKey!;
  const call = (s: RunningService, method: string, p: string, body?: unknown) =>
    fetch(`${s.url}/api/v1${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
  await call(first, 'POST', '/channels', { slug: 'down', default_language: 'en', translations: [{ language: 'en', title: 'Down' }] });
  await call(first, 'POST', '/channels/down/pages', {
    slug: 'while-down',
    default_language: 'en',
    status: 'scheduled',
    scheduled_at: '2026-11-22T13:00:00Z',
    translations: [{ language: 'en', title: 'While down', content_markdown: 'Text.' }],
  });
  await first.worker.runDue();
  expect((await call(first, 'GET', '/channels/down/pages/while-down')).status).toBe('scheduled');
  await first.stop();

  clock.set('2026-11-22T18:00:00.000Z'); // the service was down when the time came
  const second = await start();
  try {
    await second.worker.runDue(); // what the started worker does first
    const article = await call(second, 'GET', '/channels/down/pages/while-down');
    expect(article).toMatchObject({ status: 'published', published_at: '2026-11-22T18:00:00.000Z' });
  } finally {
    await second.stop();
  }
});
