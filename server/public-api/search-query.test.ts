import { describe, expect, it } from 'vitest';
import { compareSearchPositions, searchScope, toFtsExpression, type SearchPosition } from './search-query.ts';

describe('toFtsExpression', () => {
  it.each([
    ['static sites', '"static" AND "sites"*'],
    ['  one ', '"one"*'],
    ['"quoted" OR NEAR(x)', '"quoted" AND "OR" AND "NEAR" AND "x"*'],
    ['café-au-lait', '"café" AND "au" AND "lait"*'],
    ['النشر الثابت', '"النشر" AND "الثابت"*'],
    ['!!', null],
    ['*:^', null],
  ])('%j → %j', (q, expected) => {
    expect(toFtsExpression(q)).toBe(expected);
  });

  it('uses at most 24 words', () => {
    expect(toFtsExpression(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))!.split(' AND ')).toHaveLength(24);
  });
});

describe('result order', () => {
  const pos = (t: number, p: string, id: number, l: string): SearchPosition => ({ t, p, id, l });
  it('puts title matches first, then newest, then higher id, then language', () => {
    const sorted = [
      pos(1, '2026-01-02', 5, 'en'),
      pos(0, '2026-01-01', 1, 'en'),
      pos(1, '2026-01-02', 7, 'en'),
      pos(1, '2026-01-02', 7, 'ar'),
      pos(0, '2026-03-01', 2, 'en'),
    ].sort(compareSearchPositions);
    expect(sorted).toEqual([pos(0, '2026-03-01', 2, 'en'), pos(0, '2026-01-01', 1, 'en'), pos(1, '2026-01-02', 7, 'ar'), pos(1, '2026-01-02', 7, 'en'), pos(1, '2026-01-02', 5, 'en')]);
  });
});

describe('searchScope', () => {
  it('differs by query and filters, not by case', () => {
    expect(searchScope('Static', null, null)).toBe(searchScope('static', null, null));
    expect(searchScope('static', 'en', null)).not.toBe(searchScope('static', null, null));
    expect(searchScope('static', null, 'a')).not.toBe(searchScope('static', null, 'b'));
  });
});
