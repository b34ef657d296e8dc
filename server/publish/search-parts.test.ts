import { describe, expect, it } from 'vitest';
import { partMax, partOf, partsOf, SEARCH_PART_SIZE, startsPart } from './search-parts.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('search parts', () => {
  it('cut by hash about one id in the part size and end parts at partMax, so an article’s part holds ~680', () => {
    const ids = range(1, 300_001);
    const parts = partsOf(ids);
    const max = partMax(SEARCH_PART_SIZE);
    expect(max).toBe(750);
    const sizes = [...parts.values()].map((p) => p.length);
    const mean = ids.length / parts.size;
    expect(mean).toBeGreaterThan(max * 0.7);
    expect(mean).toBeLessThan(max * 0.8);
    // No part holds more than partMax, and an article's part (what a publish re-indexes) holds ~0.9 of it on average.
    expect(Math.max(...sizes)).toBe(max);
    const articlesPart = sizes.reduce((sum, n) => sum + n * n, 0) / ids.length;
    expect(articlesPart).toBeGreaterThan(max * 0.85);
    expect(articlesPart).toBeLessThan(max * 0.95);
  });

  it('puts every id in exactly one part, in order, keyed by its first cut', () => {
    const ids = range(1, 5000).filter((id) => id % 3 !== 0);
    const parts = partsOf(ids, 50);
    expect([...parts.values()].flat()).toEqual(ids);
    let previous: number[] = [];
    for (const [key, members] of parts) {
      // A part starts at a hashed cut, or after a part that reached the most a part holds.
      expect(key === 0 || startsPart(key, 50) || previous.length === partMax(50)).toBe(true);
      expect(members.length).toBeLessThanOrEqual(partMax(50));
      for (const id of members) expect(partOf(parts, id)).toBe(key);
      previous = members;
    }
  });

  it('publishing an article that is not a cut changes only the part it joins', () => {
    const ids = range(1, 3000);
    const before = partsOf(ids, 50);
    const added = range(3000, 4000).find((id) => !startsPart(id, 50))!;
    const after = partsOf([...ids, added], 50);
    const changed = [...after].filter(([key, members]) => JSON.stringify(before.get(key)) !== JSON.stringify(members)).map(([key]) => key);
    expect(changed).toEqual([partOf(after, added)]);
  });

  it('withdrawing an article changes its own part, and only the parts after it up to the next hashed cut', () => {
    const ids = range(1, 3000);
    const before = partsOf(ids, 50);
    for (const removed of ids.filter((id) => id > 100).slice(0, 400)) {
      const rest = ids.filter((id) => id !== removed);
      const after = partsOf(rest, 50);
      const changedKeys = [...new Set([...before.keys(), ...after.keys()])].filter((key) => JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key)));
      // The part that held it changed, and every change lies between it and the next hashed cut after it:
      // the parts that had reached the most a part holds start one article later.
      const held = partOf(before, removed);
      const nextCut = ids.find((id) => id > removed && startsPart(id, 50)) ?? Infinity;
      expect(changedKeys).toContain(held);
      for (const key of changedKeys) expect(key >= Math.min(held, partOf(after, removed)) && key <= nextCut, `withdrawing ${removed}: part ${key}`).toBe(true);
      // What the keeper rebuilds (the part the article falls in now, and every part with a new name) covers every change.
      const rebuilt = new Set([partOf(after, removed), ...[...after.keys()].filter((key) => !before.has(key))]);
      for (const key of changedKeys) if (after.has(key)) expect(rebuilt.has(key), `withdrawing ${removed}: part ${key}`).toBe(true);
    }
  });

  it('a part size of 1 makes every article its own part', () => {
    expect([...partsOf([3, 1, 2], 1).keys()]).toEqual([1, 2, 3]);
  });
});
