/**
 * Search answers as soon as its index is in step, before the server holds the
 * public state (issue 36, item 4): a start loads that state on the build
 * thread, seconds at 10,000 articles, and a search that waited for it made
 * "start → search" that long. Until the state is held, the matches are
 * looked up in the store's public heads; the answer is the same.
 *
 * The builder runs in place here (`PRESSROOM_BUILD_WORKERS=0`) so the test
 * can drop its state (`release()`), which is what a start looks like to the
 * read API.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;

beforeAll(async () => {
  t = await startTestService(
    {
      PRESSROOM_STATIC_BUILD: 'true',
      PRESSROOM_BUILD_WORKERS: '0',
      PRESSROOM_IMPORT_CONTENT: 'true',
      PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content'),
      PRESSROOM_RATE_LIMIT_SEARCH: '0',
    },
    { startWorker: false },
  );
  await t.service.staticSite!.queue.idle();
  await t.service.searchIndex!.idle();
}, 300_000);

afterAll(async () => {
  await t?.stop();
});

/** The parts of a search answer that do not name its own address. */
function found(json: { results: unknown[]; returned_count: number; pagination: { has_more: boolean } }) {
  return { results: json.results, returned_count: json.returned_count, has_more: json.pagination.has_more };
}

describe('search before the public state is held', () => {
  it('answers from the store what it answers from the state', async () => {
    const builder = t.service.staticSite!.builder;
    expect(builder.heldState()).not.toBeNull();
    const queries = ['pressroom', 'markdown', 'welcome&language=en', 'pressroom&limit=2'];
    const fromState = new Map<string, unknown>();
    for (const q of queries) {
      const res = await t.request('GET', `/api/public/v1/search?q=${q}`);
      expect(res.status, res.text).toBe(200);
      fromState.set(q, found(res.json));
    }
    expect((fromState.get('pressroom') as { results: unknown[] }).results.length).toBeGreaterThan(0);

    await builder.release();
    expect(builder.heldState()).toBeNull();
    for (const q of queries) {
      // Another query string than the one answered above: the route keeps answers by query string.
      const res = await t.request('GET', `/api/public/v1/search?q=${q}&`);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
      expect(found(res.json), q).toEqual(fromState.get(q));
    }
    // The answers did not load the state: a start's search does not wait for it.
    expect(builder.heldState()).toBeNull();
  }, 120_000);
});
