import { describe, expect, it } from 'vitest';
import { anchorsShowing, ARTICLE_LIST_ORDER, CHANNEL_LIST_ORDER, firstAfter, pageAfter, sortedPositions, withItemAnchors, type ListPosition } from './list-pages.ts';

const at = (day: number, id: number): ListPosition => ({ p: `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`, id });
const same = (p: ListPosition) => p;
/** Ten articles, one a day, newest first. */
const items = Array.from({ length: 10 }, (_, i) => at(20 - i, 100 - i));

describe('list pages', () => {
  it('orders articles newest first, then by id descending; channels by id', () => {
    expect(sortedPositions([at(1, 1), at(2, 2), at(2, 3), at(2, 3)], ARTICLE_LIST_ORDER)).toEqual([at(2, 3), at(2, 2), at(1, 1)]);
    expect(sortedPositions([{ p: '', id: 3 }, { p: '', id: 1 }], CHANNEL_LIST_ORDER).map((c) => c.id)).toEqual([1, 3]);
  });

  it('starts the page after an anchor at the first item after its position, whether or not the anchor is still listed', () => {
    expect(pageAfter(items, same, items[2]!, 3, ARTICLE_LIST_ORDER).shown).toEqual(items.slice(3, 6));
    // A withdrawn item between the 3rd and 4th: its page starts at the 4th, exactly as if it were still there.
    const gone = { p: items[2]!.p, id: items[2]!.id - 1 };
    expect(firstAfter(items, same, gone, ARTICLE_LIST_ORDER)).toBe(3);
    const last = pageAfter(items, same, items[8]!, 3, ARTICLE_LIST_ORDER);
    expect(last).toEqual({ shown: [items[9]], last: items[9], more: false });
    expect(pageAfter(items, same, items[9]!, 3, ARTICLE_LIST_ORDER)).toEqual({ shown: [], last: null, more: false });
  });

  it('keeps the anchors array when every item is already an anchor, and adds new positions in order', () => {
    const anchors = Object.freeze([...items]);
    expect(withItemAnchors(anchors, items, same, ARTICLE_LIST_ORDER)).toEqual({ anchors, added: [] });
    expect(withItemAnchors(anchors, items, same, ARTICLE_LIST_ORDER).anchors).toBe(anchors);
    const fresh = at(25, 200);
    const merged = withItemAnchors(anchors, [fresh, ...items], same, ARTICLE_LIST_ORDER);
    expect(merged.added).toEqual([fresh]);
    expect(merged.anchors[0]).toEqual(fresh);
  });

  it('finds the same new positions however the items come: in order, out of order, repeated, sparse or dense', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const naive = (anchors: readonly ListPosition[], list: readonly ListPosition[]) =>
      list.filter((p) => !anchors.some((a) => ARTICLE_LIST_ORDER(a, p) === 0)).map((p) => ({ p: p.p, id: p.id }));
    for (let round = 0; round < 200; round++) {
      const universe = sortedPositions(Array.from({ length: 1 + Math.floor(random() * 300) }, () => at(1 + Math.floor(random() * 28), 1 + Math.floor(random() * 500))), ARTICLE_LIST_ORDER);
      const anchors = Object.freeze(universe.filter(() => random() < [0, 0.1, 0.5, 1][round % 4]!));
      let list = universe.filter(() => random() < [1, 0.05, 0.5][round % 3]!);
      if (round % 5 === 1) list = [...list].reverse();
      if (round % 5 === 2) list = [...list, ...list.slice(0, 3)];
      if (round % 5 === 3) list = [...list].sort(() => random() - 0.5);
      const merged = withItemAnchors(anchors, list, same, ARTICLE_LIST_ORDER);
      expect(merged.added).toEqual(naive(anchors, list));
      expect(merged.anchors).toEqual(sortedPositions([...anchors, ...list], ARTICLE_LIST_ORDER));
    }
  });

  // Table: which anchors' pages (3 items) show the item at a position, and whether the first page does.
  it.each([
    ['the newest item: the first page only', items[0]!, { from: 0, to: 0, firstPage: true }],
    ['the third: the first page and the pages after the first two', items[2]!, { from: 0, to: 2, firstPage: true }],
    ['the sixth: the pages after the 3rd, 4th and 5th', items[5]!, { from: 2, to: 5, firstPage: false }],
    ['the oldest: the pages after the 7th, 8th and 9th', items[9]!, { from: 6, to: 9, firstPage: false }],
  ])('%s', (_name, position, expected) => {
    expect(anchorsShowing(items, items, same, position, 3, ARTICLE_LIST_ORDER)).toEqual(expected);
    // Every page in the range shows it, and no other page does.
    items.forEach((anchor, i) => {
      const shows = pageAfter(items, same, anchor, 3, ARTICLE_LIST_ORDER).shown.includes(position);
      expect(shows, `page after anchor ${i}`).toBe(i >= expected.from && i < expected.to);
    });
  });
});
