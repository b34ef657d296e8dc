import { describe, expect, it } from 'vitest';
import { partOf, partsOf, SEARCH_PART_SIZE, startsPart } from './search-parts.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('search parts', () => {
  it('cut about one id in the part size, so parts hold that many on average', () => {
    const ids = range(1, 200_001);
    const parts = partsOf(ids);
    const mean = ids.length / parts.size;
    expect(mean).toBeGreaterThan(SEARCH_PART_SIZE * 0.8);
    expect(mean).toBeLessThan(SEARCH_PART_SIZE * 1.25);
    expect(Math.max(...[...parts.values()].map((p) => p.length))).toBeLessThan(SEARCH_PART_SIZE * 10);
  });

  it('puts every id in exactly one part, in order, keyed by its first cut', () => {
    const ids = range(1, 5000).filter((id) => id % 3 !== 0);
    const parts = partsOf(ids, 50);
    expect([...parts.values()].flat()).toEqual(ids);
    for (const [key, members] of parts) {
      expect(key === 0 || startsPart(key, 50)).toBe(true);
      for (const id of members) expect(partOf(ids, id, 50)).toBe(key);
    }
  });

  it('publishing an article that is not a cut changes only the part it joins', () => {
    const ids = range(1, 3000);
    const before = partsOf(ids, 50);
    const added = range(3000, 4000).find((id) => !startsPart(id, 50))!;
    const after = partsOf([...ids, added], 50);
    const changed = [...after].filter(([key, members]) => JSON.stringify(before.get(key)) !== JSON.stringify(members)).map(([key]) => key);
    expect(changed).toEqual([partOf([...ids, added], added, 50)]);
  });

  it('withdrawing an article changes only its own part, or merges two when it was a cut', () => {
    const ids = range(1, 3000);
    const before = partsOf(ids, 50);
    for (const removed of [ids.find((id) => !startsPart(id, 50) && id > 100)!, ids.find((id) => startsPart(id, 50) && id > 100)!]) {
      const rest = ids.filter((id) => id !== removed);
      const after = partsOf(rest, 50);
      const changedKeys = new Set([...before.keys(), ...after.keys()].filter((key) => JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key))));
      // The part that held it (as the rest now see it) and, for a cut, the part it started.
      expect(changedKeys.has(partOf(rest, removed, 50))).toBe(true);
      expect(changedKeys.size).toBe(startsPart(removed, 50) ? 2 : 1);
    }
  });

  it('a part size of 1 makes every article its own part', () => {
    expect([...partsOf([3, 1, 2], 1).keys()]).toEqual([1, 2, 3]);
  });
});
