import { describe, expect, it } from 'vitest';
import { freshSize, partMax, partOf, partsOf, partsToIndex, SEARCH_PART_SIZE, startsPart } from './search-parts.ts';

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
      // What the keeper rebuilds covers every change.
      const rebuilt = new Set(partsToIndex(after, new Set(before.keys()), [removed], (p) => before.get(p)?.length ?? null));
      for (const key of changedKeys) if (after.has(key)) expect(rebuilt.has(key), `withdrawing ${removed}: part ${key}`).toBe(true);
    }
  });

  it('splits the newest articles of the last part off into a fresh part of fewer than freshSize, and nothing else', () => {
    expect(freshSize(SEARCH_PART_SIZE)).toBe(27);
    expect(freshSize(50)).toBe(5);
    expect(freshSize(4)).toBe(1);
    for (const end of [3001, 3002, 3005, 3006, 3011]) {
      const ids = range(1, end);
      const whole = [...partsOf(ids, 50, 1)];
      const split = [...partsOf(ids, 50)];
      const [lastKey, last] = whole.at(-1)!;
      expect(split.slice(0, whole.length - 1)).toEqual(whole.slice(0, -1));
      const newest = last.length % 5;
      if (last.length <= 5 || newest === 0) expect(split).toEqual(whole);
      else expect(split.slice(whole.length - 1)).toEqual([[lastKey, last.slice(0, -newest)], [last[last.length - newest], last.slice(-newest)]]);
    }
  });

  /**
   * What the keeper holds after each change, as a model: part key → the ids
   * of its bundle, each rebuild giving the parts `partsToIndex` chose their
   * members now and removing the parts that are gone.
   */
  function publishOneByOne(start: Map<number, number[]>, ids: number[], added: number[], fresh?: number) {
    const bundles = new Map(start);
    let records = 0;
    for (const id of added) {
      ids.push(id);
      const now = partsOf(ids, SEARCH_PART_SIZE, fresh);
      for (const key of partsToIndex(now, new Set(bundles.keys()), [id], (p) => bundles.get(p)?.length ?? null)) {
        bundles.set(key, now.get(key)!);
        records += now.get(key)!.length;
      }
      for (const key of [...bundles.keys()]) if (!now.has(key)) bundles.delete(key);
      expect(new Map([...bundles].sort((a, b) => a[0] - b[0])), `after publishing ${id}`).toEqual(now);
    }
    return records / added.length;
  }

  it('a stream of publishes re-indexes about freshSize records each, and every bundle holds its part', () => {
    const ids = range(1, 2_001);
    const added = range(2_001, 4_001);
    const fresh = publishOneByOne(partsOf(ids), [...ids], added);
    const whole = publishOneByOne(partsOf(ids, SEARCH_PART_SIZE, 1), [...ids], added, 1);
    expect(fresh).toBeLessThan(2 * freshSize(SEARCH_PART_SIZE));
    expect(whole).toBeGreaterThan(250);
  });

  it('an index made with whole last parts is set right by the first publish to the channel: no article in two bundles', () => {
    for (const end of [3001, 3003, 3017]) {
      const ids = range(1, end);
      publishOneByOne(partsOf(ids, SEARCH_PART_SIZE, 1), ids, [end, end + 1, end + 2]);
    }
  });

  it('a rebuild cut short after the fresh part and before the part it left is finished by the next publish', () => {
    const ids = range(1, 3010);
    const whole = partsOf(ids, SEARCH_PART_SIZE, 1);
    const now = partsOf(ids);
    const [lastKey] = [...whole.keys()].slice(-1);
    const freshKey = [...now.keys()].at(-1)!;
    expect(freshKey).not.toBe(lastKey);
    // The fresh part's bundle was written; the last part's still holds the whole (the process died between).
    const start = new Map([...now].map(([key, members]) => [key, key === lastKey ? whole.get(lastKey)! : members]));
    publishOneByOne(start, [...ids], [3010]);
  });

  it('a part size of 1 makes every article its own part', () => {
    expect([...partsOf([3, 1, 2], 1).keys()]).toEqual([1, 2, 3]);
  });
});
