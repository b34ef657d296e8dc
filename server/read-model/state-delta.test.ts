import { describe, expect, it } from 'vitest';
import { createDeltaTracker, createStateMirror, type StateDelta } from './state-delta.ts';
import { article, builderLikeState, channel } from '../../test/support/public-state.ts';

/** Through another thread: a structured clone, as postMessage makes. */
const carried = (delta: StateDelta | null) => (delta ? structuredClone(delta) : null);

describe('the public state from deltas', () => {
  it('is whole at first, then only what changed; nothing changed is no delta', () => {
    const c1 = channel(1);
    const s = builderLikeState([c1], [article(1, c1), article(2, c1)]);
    const tracker = createDeltaTracker();
    const mirror = createStateMirror();
    const first = tracker.take(s.state())!;
    expect(first.whole).toBe(true);
    expect(first.articles).toHaveLength(2);
    mirror.apply(carried(first)!);
    expect(tracker.take(s.state())).toBeNull();
    expect(mirror.state()!.articles.get(1)!.slug).toBe('a1');
    s.index.set(2, article(2, c1, 'changed'));
    const next = tracker.take(s.state())!;
    expect(next.whole).toBe(false);
    expect(next.articles.map((a) => a.id)).toEqual([2]);
    expect(next.channelsChanged).toBe(false);
  });

  it('keeps unchanged parts the same objects, and shares channel objects between channels and articles', () => {
    const [c1, c2] = [channel(1), channel(2)];
    const s = builderLikeState([c1, c2], [article(1, c1), article(2, c2), article(3, c2)]);
    const tracker = createDeltaTracker();
    const mirror = createStateMirror();
    s.anchors.set('x', Object.freeze([{ p: 'a', id: 1 }]));
    s.anchors.set('y', Object.freeze([{ p: 'b', id: 2 }]));
    mirror.apply(carried(tracker.take(s.state()))!);
    const before = mirror.state()!;
    expect(before.articles.get(2)!.channel).toBe(before.channels[1]);
    // The maps are changed in place (as the builder's are): keep the groups themselves.
    const [groupOf1, groupOf2] = [before.byChannel.get(1), before.byChannel.get(2)];
    const first = before.articles.get(1);
    const anchorsY = before.anchors.get('y');
    s.index.set(3, article(3, c2, 'changed'));
    s.anchors.set('x', Object.freeze([{ p: 'a', id: 1 }, { p: 'c', id: 3 }]));
    mirror.apply(carried(tracker.take(s.state()))!);
    const after = mirror.state()!;
    expect(after.byChannel.get(1)).toBe(groupOf1);
    expect(after.byChannel.get(2)).not.toBe(groupOf2);
    expect(after.byChannel.get(2)!.map((a) => a.id)).toEqual([3, 2]);
    expect(after.articles.get(3)!.channel).toBe(after.channels[1]);
    expect(after.articles.get(1)).toBe(first);
    expect(after.anchors.get('y')).toBe(anchorsY);
    expect(after.anchors.get('x')).toHaveLength(2);
  });

  it('removes articles no longer public and follows new channels', () => {
    const c1 = channel(1);
    const s = builderLikeState([c1], [article(1, c1), article(2, c1)]);
    const tracker = createDeltaTracker();
    const mirror = createStateMirror();
    mirror.apply(carried(tracker.take(s.state()))!);
    const renamed = channel(1, 'renamed');
    s.channels = [renamed];
    s.index.set(1, null);
    s.index.set(2, article(2, renamed));
    s.through = 7;
    const delta = tracker.take(s.state())!;
    expect(delta.removed).toEqual([1]);
    expect(delta.channelsChanged).toBe(true);
    mirror.apply(carried(delta)!);
    const now = mirror.state()!;
    expect([...now.articles.keys()]).toEqual([2]);
    expect((now.channels[0] as unknown as { title: string }).title).toBe('renamed');
    expect(now.articles.get(2)!.channel).toBe(now.channels[0]);
    expect(now.through).toBe(7);
  });

  it('starts again whole after a reset, and a mirror refuses a first delta that is not whole', () => {
    const c1 = channel(1);
    const s = builderLikeState([c1], [article(1, c1)]);
    const tracker = createDeltaTracker();
    tracker.take(s.state());
    s.index.set(2, article(2, c1));
    const part = tracker.take(s.state())!;
    expect(() => createStateMirror().apply(carried(part)!)).toThrow(/whole/);
    tracker.reset();
    const again = tracker.take(s.state())!;
    expect(again.whole).toBe(true);
    const mirror = createStateMirror();
    mirror.apply(carried(again)!);
    expect([...mirror.state()!.articles.keys()].sort()).toEqual([1, 2]);
    mirror.forget();
    expect(mirror.state()).toBeNull();
  });

  it('sends, from what the index set since the last delta, exactly what comparing every article would (random changes)', () => {
    const channels = [channel(1), channel(2), channel(3)];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const s = builderLikeState(channels, Array.from({ length: 40 }, (_, i) => article(i + 1, channels[i % 3]!)));
    const followed = createDeltaTracker();
    const mirror = createStateMirror();
    mirror.apply(carried(followed.take(s.state()))!);
    for (let round = 0; round < 60; round++) {
      // A full comparison, as before the journal: a tracker that last saw the same articles, on a copy of the map.
      const reference = createDeltaTracker();
      reference.take({ ...s.state(), articles: new Map(s.index.articles) });
      for (let change = random(6); change > 0; change--) {
        const id = random(60) + 1;
        const kind = random(4);
        if (kind === 0) s.index.set(id, null);
        else if (kind === 1 && s.index.articles.has(id)) s.index.set(id, s.index.articles.get(id)!); // the same object: no change
        else s.index.set(id, article(id, channels[random(3)]!, `t${round}`));
      }
      if (random(5) === 0) s.through = round;
      const delta = followed.take(s.state());
      const expected = reference.take({ ...s.state(), articles: new Map(s.index.articles) });
      expect(delta?.articles.map((a) => a.id).sort() ?? [], `round ${round}`).toEqual(expected?.articles.map((a) => a.id).sort() ?? []);
      expect(delta?.removed.slice().sort() ?? [], `round ${round}`).toEqual(expected?.removed.slice().sort() ?? []);
      if (delta) mirror.apply(carried(delta)!);
      const held = mirror.state()!;
      expect([...held.articles.keys()].sort(), `round ${round}`).toEqual([...s.index.articles.keys()].sort());
      for (const [id, a] of s.index.articles) expect((held.articles.get(id) as unknown as { title: string }).title).toBe((a as unknown as { title: string }).title);
    }
  });

  it('compares every article again when the builder holds another index (its state was dropped and read again)', () => {
    const c1 = channel(1);
    const first = builderLikeState([c1], [article(1, c1), article(2, c1)]);
    const tracker = createDeltaTracker();
    tracker.take(first.state());
    first.index.set(1, article(1, c1, 'seen'));
    tracker.take(first.state());
    // Read again: a new index with another article 2 and without article 1, none of it set through the new index.
    const again = builderLikeState([c1], [article(2, c1, 'reread'), article(3, c1)]);
    const delta = tracker.take(again.state())!;
    expect(delta.articles.map((a) => a.id).sort()).toEqual([2, 3]);
    expect(delta.removed).toEqual([1]);
  });

  it('gives two trackers of one builder state every change each (the request thread\'s mirror and the database\'s state feed)', () => {
    const c1 = channel(1);
    const s = builderLikeState([c1], [article(1, c1)]);
    const [mirrorSide, feedSide] = [createDeltaTracker(), createDeltaTracker()];
    const [mirror, feedMirror] = [createStateMirror(), createStateMirror()];
    for (let round = 0; round < 4; round++) {
      s.index.set(10 + round, article(10 + round, c1));
      if (round === 2) s.index.set(1, null);
      // The feed takes first, as after a build (its listener runs before the request thread's).
      const fromFeed = feedSide.take(s.state());
      if (fromFeed) feedMirror.apply(carried(fromFeed)!);
      const fromThread = mirrorSide.take(s.state());
      if (fromThread) mirror.apply(carried(fromThread)!);
      for (const m of [mirror, feedMirror]) expect([...m.state()!.articles.keys()].sort()).toEqual([...s.state().articles.keys()].sort());
    }
  });
});
