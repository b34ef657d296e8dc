import { describe, expect, it } from 'vitest';
import { deltaFromParts, partChanges } from './state-parts.ts';
import { createDeltaTracker, createStateMirror } from './state-delta.ts';
import type { PublicState } from './public-state.ts';
import { article, builderLikeState, channel } from '../../test/support/public-state.ts';

/** What a state shows, as plain data. */
const shown = (state: PublicState) => ({
  channels: state.channels.map((c) => [c.id, (c as unknown as { title: string }).title]),
  articles: [...state.articles.values()].map((a) => JSON.stringify(a)).sort(),
  anchors: [...state.anchors].map(([scope, positions]) => [scope, JSON.stringify(positions)]).sort(),
  through: state.through,
});

describe('a public state as parts with hashes', () => {
  it('gives a reader that followed a chain exactly what a state loaded again changed, whatever changed (random)', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const channels = [channel(1), channel(2), channel(3, 'three')];
    for (let round = 0; round < 40; round++) {
      // A chain of builds, followed by a reader, with the parts kept as the feed keeps them.
      const b = builderLikeState(channels.slice(0, 2), [article(1, channels[0]!), article(2, channels[1]!)]);
      const tracker = createDeltaTracker();
      const mirror = createStateMirror();
      const parts = new Map<string, string>();
      const change = (s: typeof b, step: number) => {
        const what = random(5);
        const id = 1 + random(12);
        if (what === 0) s.index.set(id, null);
        else if (what === 1) s.channels = random(2) === 0 ? channels.slice(0, 2) : [channels[0]!, channels[1]!, channel(3, `three ${step}`)];
        else if (what === 2) s.anchors.set(`c${1 + random(3)}:en`, Object.freeze([{ p: `p${step}`, id }]));
        else s.index.set(id, article(id, s.channels[random(s.channels.length)]!, `t${round}.${step}`));
        s.through = step;
      };
      for (let step = 0; step < 1 + random(8); step++) {
        change(b, step);
        const delta = tracker.take(b.state());
        if (!delta) continue;
        if (delta.whole) parts.clear();
        for (const [key, hash] of partChanges(delta)) {
          if (hash === null) parts.delete(key);
          else parts.set(key, hash);
        }
        mirror.apply(delta);
      }
      if (!mirror.state()) continue;
      // A server starts: the state loaded again into objects of its own, after some changes while none built.
      const again = builderLikeState(
        b.channels.map((c) => ({ ...c })),
        [...b.state().articles.values()].map((a) => ({ ...a, channel: { ...a.channel } })),
      );
      for (const [scope, positions] of b.anchors) again.anchors.set(scope, positions.map((p) => ({ ...p })));
      again.through = b.through;
      for (let step = 100; step < 100 + random(4); step++) change(again, step);
      const whole = createDeltaTracker().take(again.state())!;
      const delta = deltaFromParts(parts, whole, partChanges(whole));
      if (delta) mirror.apply(delta);
      const expected = shown(again.state());
      // Anchors a reader holds are never taken back (as between builds): compare those the state has.
      const held = shown(mirror.state()!);
      expect({ ...held, anchors: held.anchors.filter(([scope]) => again.anchors.has(scope as string)), through: expected.through }, `round ${round}`).toEqual(expected);
    }
  });

  it('says nothing changed for the same state in other objects, and what did otherwise', () => {
    const c1 = channel(1);
    const b = builderLikeState([c1], [article(1, c1), article(2, c1)]);
    const first = createDeltaTracker().take(b.state())!;
    const parts = new Map(partChanges(first).map(([key, hash]) => [key, hash!]));
    const same = builderLikeState([{ ...c1 }], [{ ...article(1, c1) }, { ...article(2, c1) }]);
    const whole = createDeltaTracker().take(same.state())!;
    expect(deltaFromParts(parts, whole, partChanges(whole))).toBeNull();
    same.channels = [channel(1, 'renamed')];
    same.index.set(2, null);
    const after = createDeltaTracker().take(same.state())!;
    expect(deltaFromParts(parts, after, partChanges(after))).toMatchObject({ whole: false, channelsChanged: true, articles: [], removed: [2] });
  });
});
