import { describe, expect, it } from 'vitest';
import { searchScope, searchWords } from './search-query.ts';

describe('searchWords', () => {
  it.each([
    ['static sites', ['static', 'sites']],
    ['  one ', ['one']],
    ['"quoted" OR NEAR(x)', ['quoted', 'OR', 'NEAR', 'x']],
    ['café-au-lait', ['café', 'au', 'lait']],
    ['النشر الثابت', ['النشر', 'الثابت']],
    ['a:b & c | !d <-> e', ['a', 'b', 'c', 'd', 'e']],
    ['!!', null],
    ['*:^', null],
  ])('%j → %j', (q, expected) => {
    expect(searchWords(q)).toEqual(expected);
  });

  it('uses at most 24 words', () => {
    expect(searchWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(24);
  });
});

describe('searchScope', () => {
  it('differs by query and filters, not by case', () => {
    expect(searchScope('Static', null, null)).toBe(searchScope('static', null, null));
    expect(searchScope('static', 'en', null)).not.toBe(searchScope('static', null, null));
    expect(searchScope('static', null, 'a')).not.toBe(searchScope('static', null, 'b'));
  });
});
