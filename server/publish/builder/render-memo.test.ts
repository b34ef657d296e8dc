import { describe, expect, it } from 'vitest';
import { buildChannel } from '../../../test/support/view-models.ts';
import { createRenderMemo } from './render-memo.ts';
import type { PlannedFile } from './site-plan.ts';

const a = { id: 1 };
const b = { id: 2 };
const file = (inputs?: unknown[]): PlannedFile => ({ path: 'x/rss.xml', render: () => '', inputs });

describe('the render memo', () => {
  it.each([
    ['the same objects, recorded hash unchanged', [a, 'en', b], [a, 'en', b], 'h1', 'h1'],
    ['an equal but new object', [a, 'en'], [{ id: 1 }, 'en'], 'h1', null],
    ['another order', [a, b], [b, a], 'h1', null],
    ['one more input', [a], [a, b], 'h1', null],
    ['the manifest records another hash (another writer)', [a], [a], 'h2', null],
    ['the file is not in the manifest', [a], [a], undefined, null],
  ] as const)('%s', (_name, before, now, recorded, expected) => {
    const memo = createRenderMemo();
    memo.remember(file([...before]), 'h1');
    expect(memo.unchanged(file([...now]), recorded)).toBe(expected);
  });

  it('never skips a file that names no inputs, and forgets on clear', () => {
    const memo = createRenderMemo();
    memo.remember(file(), 'h1');
    expect(memo.unchanged(file(), 'h1')).toBeNull();
    memo.remember(file([a]), 'h1');
    memo.clear();
    expect(memo.unchanged(file([a]), 'h1')).toBeNull();
  });

  it('keeps the previous object of a channel whose JSON did not change', () => {
    const memo = createRenderMemo();
    const make = (title: string) => buildChannel({ id: 5, slug: 'c', defaultLanguage: 'en', translations: [{ language: 'en', title }] });
    const first = memo.sameChannel(make('C'));
    expect(memo.sameChannel(make('C'))).toBe(first);
    const renamed = make('C renamed');
    expect(memo.sameChannel(renamed)).toBe(renamed);
  });

  it("compares a copy once, however many articles bring it (a build's heads share one)", () => {
    const memo = createRenderMemo();
    const make = () => buildChannel({ id: 5, slug: 'c', defaultLanguage: 'en', translations: [{ language: 'en', title: 'C' }] });
    const first = memo.sameChannel(make());
    let compared = 0;
    const copy = make();
    const counted = Object.assign(Object.create(copy), { toJSON: () => (compared++, copy) });
    for (let i = 0; i < 5; i++) expect(memo.sameChannel(counted)).toBe(first);
    expect(compared).toBe(1);
    const renamed = buildChannel({ id: 5, slug: 'c', defaultLanguage: 'en', translations: [{ language: 'en', title: 'C renamed' }] });
    expect(memo.sameChannel(renamed)).toBe(renamed);
    // The copy is no longer equal to the channel the memo knows: compared again, it is a channel of its own.
    expect(memo.sameChannel(counted)).toBe(counted);
    expect(compared).toBe(2);
  });
});
