/**
 * The edge delivery's batching rules, on a real SQLite file with a purger
 * that records what it is asked (the CDNs themselves are tested in
 * test/e2e/edge-varnish.test.ts and the purgers' own tests).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { insertEdgeDelivery, readEdgeBacklog } from '../store/edge-delivery.repository.ts';
import { insertJob } from '../store/job.repository.ts';
import { insertPublicationEvent, lastEventId, markEventsBuilt } from '../store/publication-event.repository.ts';
import { createEdgeDelivery, mergeSearchFiles, type SearchFiles } from './edge-delivery.ts';
import type { PurgeRequest } from './purger.ts';

let dir: string;
let db: Db;
let purged: PurgeRequest[];
let deployed: Array<SearchFiles | null>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-edge-delivery-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  purged = [];
  deployed = [];
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const now = () => new Date().toISOString();

/** What a build's settle does: its event marked built and its news in the edge's outbox. */
async function build(paths: string[]): Promise<void> {
  const through = await lastEventId(db);
  await db.transaction().execute(async (trx) => {
    await markEventsBuilt(trx, through, now());
    await insertEdgeDelivery(trx, { through, paths, shown: new Map(), everything: false, now: now() });
  });
}

const announce = (articleId: number) => insertPublicationEvent(db, { kind: 'article_public_changed', channelId: 1, articleId, languages: ['en'], now: now() });

// The gathering bound is tested on its own; elsewhere it is long, so a slow machine's late timer cannot split a round.
function delivery(options: { gatherMs?: number } = { gatherMs: 60_000 }) {
  return createEdgeDelivery({
    db,
    clock: systemClock,
    log: createLogger('error'),
    tagPrefix: 'p',
    purgers: [
      {
        name: 'recorder',
        async purge(request) {
          purged.push(request);
          return 1;
        },
      },
    ],
    async deploy(paths, scope) {
      deployed.push(scope.search);
      return { paths: [], uploaded: 0, deleted: 0 };
    },
    deployName: 's3://test/',
    searchDelayMs: 60_000,
    ...options,
  });
}

it('a round waits for the builds already on their way: two translations moderated apart go out in one purge', async () => {
  await announce(1);
  await announce(2);
  // The first translation's build is done; the second one's event is announced but not built yet.
  await insertEdgeDelivery(db, { through: 1, paths: ['news/one.html'], shown: new Map(), everything: false, now: now() });
  await db.updateTable('publication_events').set({ built_at: now() }).where('id', '=', 1).execute();
  const edge = delivery();
  edge.kick();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await build(['news/two.html']);
  await edge.settle(10_000);
  await edge.stop();
  expect((await readEdgeBacklog(db)).pending).toBe(0);
  // The first round is the start's full bucket compare, with both builds.
  expect(purged).toHaveLength(1);
  expect(purged[0]!.tags).toEqual(expect.arrayContaining(['p:f:/news/one.html', 'p:f:/news/two.html']));
  expect(edge.stats()).toMatchObject({ rounds: 1, deliveries: 2, requests: 1 });
});

it('a round also waits for a moderation job that is due: its translation joins the round', async () => {
  await announce(1);
  await build(['news/one.html']);
  // The second translation's moderation job has not run yet: no event announced so far.
  const job = await insertJob(db, { kind: 'moderate_revision', payload: { revisionId: 2 }, runAt: now(), now: now() });
  const edge = delivery();
  edge.kick();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await db.updateTable('jobs').set({ state: 'done' }).where('id', '=', job.id).execute();
  await announce(2);
  await build(['news/two.html']);
  await edge.settle(10_000);
  await edge.stop();
  expect(purged).toHaveLength(1);
  expect(purged[0]!.tags).toEqual(expect.arrayContaining(['p:f:/news/one.html', 'p:f:/news/two.html']));
});

it('waits no longer than its bound for a build that does not come', async () => {
  await announce(1);
  await insertEdgeDelivery(db, { through: 0, paths: ['news/one.html'], shown: new Map(), everything: false, now: now() });
  const edge = delivery({ gatherMs: 100 });
  edge.kick();
  await edge.settle(10_000);
  await edge.stop();
  expect((await readEdgeBacklog(db)).pending).toBe(0);
  expect(purged).toHaveLength(1);
});

it('a rebuilt search index compares only the bundles it rewrote, and goes with the next build', async () => {
  const edge = delivery();
  edge.kick();
  await edge.settle(10_000);
  expect(deployed).toEqual([null]);
  edge.refresh({ folders: ['pagefind/news/en.0'], files: ['pagefind/shards.json'] });
  edge.refresh({ folders: ['pagefind/news/ar.0'], files: ['pagefind/shards.json'] });
  await announce(1);
  await build(['news/one.html']);
  edge.kick();
  await edge.settle(10_000);
  await edge.stop();
  expect(deployed[1]).toEqual({ folders: ['pagefind/news/en.0', 'pagefind/news/ar.0'], files: ['pagefind/shards.json'] });
  expect(purged.at(-1)!.tags).toEqual(expect.arrayContaining(['p:f:/news/one.html', 'p:s']));
  expect(edge.stats().requests).toBe(1);
});

it('merges changes of the search index', () => {
  const a = { folders: ['pagefind/a/en.0'], files: ['pagefind/shards.json'] };
  expect(mergeSearchFiles(null, a)).toBe(a);
  expect(mergeSearchFiles(a, null)).toBe(a);
  expect(mergeSearchFiles(a, 'all')).toBe('all');
  expect(mergeSearchFiles(a, { folders: ['pagefind/b/en.0', 'pagefind/a/en.0'], files: ['pagefind/shards.json'] })).toEqual({ folders: ['pagefind/a/en.0', 'pagefind/b/en.0'], files: ['pagefind/shards.json'] });
});
