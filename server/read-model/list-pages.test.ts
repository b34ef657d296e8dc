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
