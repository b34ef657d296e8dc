import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import type { RenderBatchOutcome } from '../../store/postgres/render-batches.ts';
import type { RenderedArticle } from '../builder/article-render.ts';
import type { RenderPool } from './render-pool.ts';
import { checkedResults, sharedRenderPool, type BatchPayload, type RemoteBatches } from './shared-render-pool.ts';

const rendered = (ids: readonly number[], by: string): RenderedArticle[] =>
  ids.map((id) => ({ id, head: null, textStarts: {}, files: [{ path: `${by}/${id}.html`, hash: by, written: true }] }));

/** This machine's threads: each batch waits until the test lets it finish (or at once with `instant`). */
function localThreads(instant = true) {
  const calls: Array<readonly number[]> = [];
  const held: Array<() => void> = [];
  const pool: RenderPool = {
    render: (ids) => {
      calls.push(ids);
      return instant ? Promise.resolve(rendered(ids, 'here')) : new Promise((resolve) => held.push(() => resolve(rendered(ids, 'here'))));
    },
    close: async () => undefined,
  };
  return { pool, calls, release: () => held.splice(0).forEach((f) => f()) };
}

/** The queue as the workers would see it, answered by the test. */
function queueOfBatches(lanes: number) {
  let next = 0;
  const batches = new Map<number, { payload: BatchPayload; answer?: { results: unknown } | { error: string }; cancelled?: boolean }>();
  const remote: RemoteBatches & { lanesNow: number; dropped: boolean } = {
    lanesNow: lanes,
    dropped: false,
    lanes: async () => remote.lanesNow,
    queue: async (payload) => {
      batches.set(++next, { payload });
      return next;
    },
    answered: async (ids) =>
      ids.flatMap((id): RenderBatchOutcome[] => {
        const b = batches.get(id);
        if (!b?.answer || b.cancelled) return [];
        return [{ id, results: 'results' in b.answer ? b.answer.results : null, error: 'error' in b.answer ? b.answer.error : null, takenBy: 'pressroom-render-7-x' }];
      }),
    cancel: async (id) => {
      const b = batches.get(id);
      if (!b || b.answer) return false;
      b.cancelled = true;
      return true;
    },
    drop: async () => void (remote.dropped = true),
  };
  const open = () => [...batches].filter(([, b]) => !b.answer && !b.cancelled);
  return {
    remote,
    batches,
    /** Answers every open batch as a worker would. */
    answerAll: () => open().forEach(([, b]) => (b.answer = { results: rendered(b.payload.ids, 'worker') })),
    failAll: (error: string) => open().forEach(([, b]) => (b.answer = { error })),
    open,
  };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function makePool(local: RenderPool, localLanes: number, remote: RemoteBatches, extra: { deadlineMs?: number } = {}) {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-shared-pool-'));
  dirs.push(outputDir);
  const lines: string[] = [];
  const pool = sharedRenderPool({
    local,
    localLanes,
    remote,
    settings: { publicUrl: 'https://example.com', dashboardUrl: 'https://example.com/dashboard', site: { baseUrl: 'https://example.com', name: 'Site', contentSignal: '', socialCards: false }, fingerprint: 'f' },
    outputDir,
    log: createLogger('debug', 'test', (l) => lines.push(l)),
    run: 'run-1',
    answerPollMs: 2,
    lanesPollMs: 2,
    ...extra,
  });
  return { pool, outputDir, lines };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(check()).toBe(true);
};

describe('sharedRenderPool', () => {
  it('renders every batch on this machine when no build worker runs, and queues none', async () => {
    const local = localThreads();
    const { remote, batches } = queueOfBatches(0);
    const { pool } = makePool(local.pool, 2, remote);
    const results = await Promise.all([[1, 2], [3], [4, 5]].map((ids) => pool.render(ids, {}, true)));
    expect(results.map((r) => r.map((a) => a.id))).toEqual([[1, 2], [3], [4, 5]]);
    expect(batches.size).toBe(0);
    await pool.close();
  });

  it('gives workers the batches this machine has no lane for, with the builder\'s settings and the run\'s mark, which is in the folder until the pool closes', async () => {
    const local = localThreads(false);
    const queue = queueOfBatches(2);
    const { pool, outputDir, lines } = makePool(local.pool, 1, queue.remote);
    const mark = path.join(outputDir, '.pressroom-render-run-1.tmp');
    expect(fs.existsSync(mark)).toBe(true);
    const all = Promise.all([[1], [2], [3], [4]].map((ids) => pool.render(ids, { 'a/index.html': 'h' }, false)));
    await until(() => queue.open().length === 2);
    expect(local.calls).toEqual([[1]]);
    const payload = queue.batches.get(1)!.payload;
    expect(payload).toMatchObject({ ids: [2], known: { 'a/index.html': 'h' }, fresh: false, settings: { fingerprint: 'f', mark: '.pressroom-render-run-1.tmp' } });
    queue.answerAll();
    local.release();
    await until(() => local.calls.length + queue.batches.size === 4);
    queue.answerAll();
    local.release();
    const results = await all;
    expect(results.flat().map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(results[1]![0]!.files[0]!.hash).toBe('worker');
    await pool.close();
    expect(fs.existsSync(mark)).toBe(false);
    expect(queue.remote.dropped).toBe(true);
    expect(lines.join('\n')).toContain('build workers rendered batches of this build');
  });

  it('renders a batch here when its worker answers with an error, and sends no more out', async () => {
    const local = localThreads(false);
    const queue = queueOfBatches(4);
    const { pool, lines } = makePool(local.pool, 1, queue.remote);
    const all = Promise.all([[1], [2], [3]].map((ids) => pool.render(ids, {}, true)));
    await until(() => queue.open().length === 2);
    queue.failAll('build worker w writes into /elsewhere, which is not the builder\'s output folder');
    await until(() => lines.some((l) => l.includes('get no more batches')));
    for (let i = 0; i < 3; i++) {
      local.release();
      await new Promise((r) => setTimeout(r, 10));
    }
    await until(() => local.calls.length === 3);
    local.release();
    const results = await all;
    expect(results.flat().map((r) => r.files[0]!.hash)).toEqual(['here', 'here', 'here']);
    expect(queue.batches.size).toBe(2);
    expect(lines.join('\n')).toContain('not the builder');
    await pool.close();
  });

  it('takes a batch back when no worker is left, and after the deadline', async () => {
    const local = localThreads(false);
    const queue = queueOfBatches(1);
    const { pool, lines } = makePool(local.pool, 1, queue.remote);
    const all = Promise.all([[1], [2]].map((ids) => pool.render(ids, {}, true)));
    await until(() => queue.open().length === 1);
    queue.remote.lanesNow = 0;
    await until(() => lines.some((l) => l.includes('no build worker is running')));
    local.release();
    await until(() => local.calls.length === 2);
    local.release();
    expect((await all).flat().map((r) => r.files[0]!.hash)).toEqual(['here', 'here']);
    await pool.close();

    const second = queueOfBatches(1);
    const late = makePool(localThreads(false).pool, 0, second.remote, { deadlineMs: 20 });
    const one = late.pool.render([9], {}, true);
    await until(() => late.lines.some((l) => l.includes('no answer in')));
    expect(second.batches.get(1)!.cancelled).toBe(true);
    void one.catch(() => undefined);
    await late.pool.close();
  });
});

describe('checkedResults', () => {
  it('takes one result per id in order, with files, and nothing else', () => {
    const good = rendered([1, 2], 'w');
    expect(checkedResults(good, [1, 2])).toEqual(good);
    expect(checkedResults(good, [2, 1])).toBeNull();
    expect(checkedResults(good, [1])).toBeNull();
    expect(checkedResults([{ ...good[0], files: [{ path: 'a', hash: 1, written: true }] }], [1])).toBeNull();
    expect(checkedResults('nope', [1])).toBeNull();
  });
});
