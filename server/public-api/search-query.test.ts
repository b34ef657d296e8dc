import { describe, expect, it } from 'vitest';
import { searchScope, toFtsExpression } from './search-query.ts';

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

describe('searchScope', () => {
  it('differs by query and filters, not by case', () => {
    expect(searchScope('Static', null, null)).toBe(searchScope('static', null, null));
    expect(searchScope('static', 'en', null)).not.toBe(searchScope('static', null, null));
    expect(searchScope('static', null, 'a')).not.toBe(searchScope('static', null, 'b'));
  });
});
