import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { createStateFeedWriter } from '../publish/state-feed.ts';
import type { PublicState } from '../read-model/public-state.ts';
import { readStateFeed } from '../store/state-feed.repository.ts';
import { article, builderLikeState, channel } from '../../test/support/public-state.ts';
import { databaseBefore, type DatabaseBefore } from '../../test/helpers/migrated-database.ts';
import { followState } from './state-follower.ts';

/** What a state shows, as plain data (the mirror's objects are its own). */
const shown = (state: PublicState) => ({
  channels: state.channels.map((c) => c.id),
  articles: [...state.articles.values()].map((a) => [a.id, a.translations[0]!.title, a.channel.id]).sort(),
  groups: [...state.byChannel].map(([id, group]) => [id, group.map((a) => a.id)]).sort(),
  anchors: [...state.anchors].sort(),
  through: state.through,
});

const log = createLogger('error');
let database: DatabaseBefore | null = null;
afterEach(async () => {
  await database?.remove();
  database = null;
});

/** A migrated SQLite database for one test (removed after it), and state feed writers over it: each a server's. */
async function feedDatabase() {
  database = await databaseBefore('9999');
  const db = database.db;
  const clock = manualClock(new Date('2026-12-07T00:00:00Z'));
  return {
    db,
    newWriter: (minChars?: number) => createStateFeedWriter({ db, clock, log }, minChars),
    /** A web instance's follower that looks only when the test says (`catchUp`). */
    follow: (o: { log?: typeof log; onPaths?: (paths: readonly string[]) => void } = {}) => followState({ db, log: o.log ?? log, onPaths: o.onPaths ?? (() => undefined), pollMs: 60_000 }),
  };
}

describe('the state feed, from the building server to web instances', () => {
  it('gives a web instance the builder state and each build\'s paths, in order, with channels shared as on the builder', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const writer = newWriter();
    const [c1, c2] = [channel(1), channel(2)];
    const b = builderLikeState([c1, c2], [article(1, c1), article(2, c2)]);
    b.anchors.set('c1:en', Object.freeze([{ p: 'x', id: 1 }]));
    await writer.offer(b.state(), []);
    const placed: string[][] = [];
    const follower = follow({ onPaths: (paths) => void placed.push([...paths]) });
    try {
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
      const held = follower.heldState()!;
      expect(held.articles.get(2)!.channel).toBe(held.channels[1]);

      b.index.set(3, article(3, c1));
      b.index.set(2, null);
      b.through = 7;
      await writer.offer(b.state(), ['/c1/en/a3/index.html', '/c2/en/a2/index.html']);
      // A build that changed files but not the state still reaches the caches.
      await writer.offer(b.state(), ['/robots.txt']);
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
      expect(follower.through()).toBe(7);
      expect(placed).toEqual([['/c1/en/a3/index.html', '/c2/en/a2/index.html'], ['/robots.txt']]);
      expect(follower.heldState()!.articles.get(3)!.channel).toBe(follower.heldState()!.channels[0]);
      // A row whose channels did not change names them by place in the list the reader holds, not the whole list again.
      const rows = await readStateFeed(db, 0, 10);
      expect(rows.map((r) => 'channels' in (JSON.parse(r.delta) as object))).toEqual([true, false, false]);
    } finally {
      await follower.close();
    }
  });

  it('writes the whole state again once the deltas add up to its size, prunes the rows before the previous whole one, and a late instance starts from the newest whole row', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const writer = newWriter(1);
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1), article(2, c1), article(3, c1)]);
    let wholes = 0;
    for (let i = 4; i <= 40; i++) {
      b.index.set(i % 5 === 0 ? 1 : i, article(i % 5 === 0 ? 1 : i, c1, `v${i}`));
      b.through = i;
      await writer.offer(b.state(), [`/c1/en/a${i}/index.html`]);
      const [newest] = await db.selectFrom('state_feed').select(['whole', 'delta']).orderBy('id', 'desc').limit(1).execute();
      if (Number(newest!.whole) === 1) wholes++;
    }
    const rows = await readStateFeed(db, 0, 1000);
    // Whole rows came again as the deltas grew (not at every offer), and only the chains of the last two are kept.
    expect(wholes).toBeGreaterThan(1);
    expect(wholes).toBeLessThan(20);
    expect(rows[0]!.whole).toBe(true);
    expect(rows.filter((r) => r.whole).length).toBeLessThanOrEqual(2);
    for (let i = 1; i < rows.length; i++) if (!rows[i]!.whole) expect(rows[i]!.base).toBe(rows[i - 1]!.id);
    const deltaChars = rows.filter((r) => !r.whole).reduce((n, r) => n + r.delta.length, 0);
    const newestWhole = [...rows].reverse().find((r) => r.whole)!;
    expect(deltaChars).toBeLessThanOrEqual(2 * newestWhole.delta.length + 2 * rows[rows.length - 1]!.delta.length);
    const follower = follow();
    try {
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
    } finally {
      await follower.close();
    }
  });

  it('writes offers in the order made, one at a time (a start\'s whole state is not awaited by whoever asked for it)', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const writer = newWriter();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1)]);
    const whole = writer.offer(b.state(), []);
    b.index.set(2, article(2, c1));
    b.through = 2;
    await writer.offer(b.state(), ['/c1/en/a2/index.html']);
    await whole;
    const rows = await readStateFeed(db, 0, 10);
    expect(rows.map((r) => [r.whole, r.paths])).toEqual([[true, []], [false, ['/c1/en/a2/index.html']]]);
    expect(rows[1]!.base).toBe(rows[0]!.id);
  });

  it('after a row it could not write, writes what changed since the row written before, and a follower holds what it had until then', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const writer = newWriter();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1)]);
    await writer.offer(b.state(), []);
    const follower = follow();
    try {
      await follower.catchUp();
      await sql`ALTER TABLE state_feed RENAME TO state_feed_away`.execute(db);
      b.index.set(2, article(2, c1));
      b.through = 2;
      await writer.offer(b.state(), ['/c1/en/a2/index.html']);
      await sql`ALTER TABLE state_feed_away RENAME TO state_feed`.execute(db);
      await follower.catchUp();
      expect(follower.heldState()!.articles.size).toBe(1);
      b.index.set(3, article(3, c1));
      b.through = 3;
      await writer.offer(b.state(), ['/c1/en/a3/index.html']);
      // The parts kept with the rows are those of the last row written (the failed one's transaction changed none).
      const rows = await readStateFeed(db, 0, 10);
      expect(rows.map((r) => r.whole)).toEqual([true, false]);
      expect((JSON.parse(rows[1]!.delta) as { articles: Array<{ id: number }> }).articles.map((a) => a.id).sort()).toEqual([2, 3]);
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
    } finally {
      await follower.close();
    }
  });

  it('starts again from the newest whole row when a row it needs is gone, serving what it held meanwhile', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const first = newWriter();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1)]);
    await first.offer(b.state(), []);
    const follower = follow();
    try {
      await follower.catchUp();
      expect(follower.heldState()!.articles.size).toBe(1);
      // Another server takes over (its feed starts whole), and a delta of the first one's is lost meanwhile.
      b.index.set(2, article(2, c1));
      b.through = 2;
      await first.offer(b.state(), []);
      await db.deleteFrom('state_feed').where('whole', '=', 0).execute();
      b.index.set(3, article(3, c1));
      b.through = 3;
      const second = newWriter();
      await second.offer(b.state(), []);
      b.index.set(4, article(4, c1));
      b.through = 4;
      await second.offer(b.state(), ['/c1/en/a4/index.html']);
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
    } finally {
      await follower.close();
    }
  });

  it('does not go round in circles over a gap it cannot mend: it keeps its state and mends it at the next whole row', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const writer = newWriter();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1)]);
    await writer.offer(b.state(), []);
    const follower = follow();
    try {
      await follower.catchUp();
      for (const id of [2, 3]) {
        b.index.set(id, article(id, c1));
        b.through = id;
        await writer.offer(b.state(), []);
      }
      const [, lost] = await readStateFeed(db, 0, 10);
      await db.deleteFrom('state_feed').where('id', '=', lost!.id).execute();
      await follower.catchUp();
      expect(follower.heldState()!.articles.size).toBe(1);
      const later = newWriter();
      await later.offer(b.state(), []);
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(b.state()));
    } finally {
      await follower.close();
    }
  });

  it('goes on with the feed when a server starts again: only what changed while none built, and a follower reads on without starting again', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1), article(2, c1), article(3, c1)]);
    b.anchors.set('c1:en', Object.freeze([{ p: 'x', id: 1 }]));
    const first = newWriter();
    await first.offer(b.state(), []);
    b.index.set(4, article(4, c1));
    b.through = 4;
    await first.offer(b.state(), ['/c1/en/a4/index.html']);
    const warnings: string[] = [];
    const watching = { ...log, warn: (message: string) => void warnings.push(message) } as typeof log;
    const follower = follow({ log: watching });
    /** The state a server that starts loads from the store: objects of its own, with `change` made while none built. */
    const reload = (change: (state: ReturnType<typeof builderLikeState>) => void) => {
      const again = builderLikeState([{ ...c1 }], [...b.state().articles.values()].map((a) => ({ ...a, channel: { ...a.channel } })));
      for (const [scope, positions] of b.anchors) again.anchors.set(scope, positions);
      again.through = b.through;
      change(again);
      return again;
    };
    try {
      await follower.catchUp();
      const heldBefore = follower.heldState()!;

      // Started again on the same state, one event later (a change nobody reads): a row with the event id only.
      const same = reload((s) => (s.through = 5));
      await newWriter().offer(same.state(), []);
      let rows = await readStateFeed(db, 0, 10);
      expect(rows.map((r) => [r.whole, r.through])).toEqual([[true, 0], [false, 4], [false, 5]]);
      expect(JSON.parse(rows[2]!.delta)).toMatchObject({ whole: false, articles: [], removed: [], anchors: [] });
      await follower.catchUp();
      expect(follower.through()).toBe(5);
      // The follower kept what it held: the same article objects, not a whole state read again.
      expect(follower.heldState()!.articles.get(1)).toBe(heldBefore.articles.get(1));

      // Started on the same state and event id: nothing written at all.
      await newWriter().offer(same.state(), []);
      expect((await readStateFeed(db, 0, 10)).length).toBe(3);

      // Started after writes while no server built: one article changed, one gone, one new, a list's anchors moved.
      const changed = reload((s) => {
        s.through = 8;
        s.index.set(2, article(2, c1, 'retitled meanwhile'));
        s.index.set(3, null);
        s.index.set(5, article(5, c1));
        s.anchors.set('c1:en', Object.freeze([{ p: 'y', id: 5 }]));
      });
      const server = newWriter();
      await server.offer(changed.state(), []);
      rows = await readStateFeed(db, 0, 10);
      expect(rows.map((r) => r.whole)).toEqual([true, false, false, false]);
      const sent = JSON.parse(rows[3]!.delta) as { articles: Array<{ id: number }>; removed: number[]; anchors: unknown[]; channels?: unknown };
      expect(sent.articles.map((a) => a.id).sort()).toEqual([2, 5]);
      expect(sent.removed).toEqual([3]);
      expect(sent.anchors).toHaveLength(1);
      expect(sent.channels).toBeUndefined();
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(changed.state()));
      expect(follower.heldState()!.articles.get(1)).toBe(heldBefore.articles.get(1));

      // The next build's delta follows on.
      changed.index.set(6, article(6, c1));
      changed.through = 9;
      await server.offer(changed.state(), ['/c1/en/a6/index.html']);
      await follower.catchUp();
      expect(shown(follower.heldState()!)).toEqual(shown(changed.state()));
      expect(warnings).toEqual([]);
      expect((await readStateFeed(db, 0, 10)).map((r) => r.whole)).toEqual([true, false, false, false, false]);
    } finally {
      await follower.close();
    }
  });

  it('writes the whole state at a start on a feed without parts (written before migration 0022)', async () => {
    const { db, newWriter, follow } = await feedDatabase();
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1)]);
    await newWriter().offer(b.state(), []);
    await db.deleteFrom('state_feed_parts').execute();
    await newWriter().offer(b.state(), []);
    expect((await readStateFeed(db, 0, 10)).map((r) => r.whole)).toEqual([true, true]);
  });
});
