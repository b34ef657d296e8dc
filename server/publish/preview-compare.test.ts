import { describe, expect, it } from 'vitest';
import { compareOutput, countChanges, isTextFile, sameBytes, sameInputs, type PlannedBytes } from './preview-compare.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('compareOutput', () => {
  const folder = new Map([
    ['c/en/a.html', bytes('<p>old</p>')],
    ['c/en/a.json', bytes('{"t":1}')],
    ['c/rss.xml', bytes('<rss/>')],
    ['c/en/gone.html', bytes('bye')],
  ]);
  const live = (path: string) => folder.get(path) ?? null;

  it.each([
    ['nothing there now', 'c/ar/a.html', '<p>new</p>', 'new'],
    ['other bytes', 'c/en/a.html', '<p>new</p>', 'changed'],
    ['the same bytes', 'c/en/a.json', '{"t":1}', 'unchanged'],
  ] as const)('%s: %s is %s', (_what, path, content, change) => {
    const [file] = compareOutput([{ path, owner: 'article:1', bytes: bytes(content) }], live);
    expect(file).toMatchObject({ path, owner: 'article:1', change, after: bytes(content), before: folder.get(path) ?? null });
  });

  it('counts a file whose inputs are the live ones as unchanged without reading it', () => {
    const read: string[] = [];
    const [file] = compareOutput([{ path: 'c/rss.xml', owner: 'channel:1', bytes: null }], (p) => (read.push(p), live(p)));
    expect(file).toMatchObject({ change: 'unchanged', before: null, after: null });
    expect(read).toEqual([]);
  });

  it('lists what the owners have and the plan no longer makes as deleted, unless already missing or planned', () => {
    const changes = compareOutput([{ path: 'c/en/a.html', owner: 'article:1', bytes: bytes('<p>old</p>') }], live, [
      { path: 'c/en/gone.html', owner: 'article:1' },
      { path: 'c/en/never-there.html', owner: 'article:1' },
      { path: 'c/en/a.html', owner: 'article:1' },
    ]);
    expect(changes.map((c) => [c.path, c.change])).toEqual([
      ['c/en/gone.html', 'deleted'],
      ['c/en/a.html', 'unchanged'],
    ]);
    expect(changes[0]!.before).toEqual(bytes('bye'));
  });

  it('orders new, changed, deleted, unchanged, each by path, and counts a path planned twice once', () => {
    const planned: PlannedBytes[] = [
      { path: 'c/en/a.json', owner: 'article:1', bytes: bytes('{"t":1}') },
      { path: 'z/new.html', owner: 'article:1', bytes: bytes('z') },
      { path: 'c/en/a.html', owner: 'article:1', bytes: bytes('changed') },
      { path: 'a/new.html', owner: 'article:1', bytes: bytes('a') },
      { path: 'a/new.html', owner: 'site', bytes: bytes('other') },
    ];
    const changes = compareOutput(planned, live, [{ path: 'c/en/gone.html', owner: 'article:1' }]);
    expect(changes.map((c) => [c.path, c.change, c.owner])).toEqual([
      ['a/new.html', 'new', 'article:1'],
      ['z/new.html', 'new', 'article:1'],
      ['c/en/a.html', 'changed', 'article:1'],
      ['c/en/gone.html', 'deleted', 'article:1'],
      ['c/en/a.json', 'unchanged', 'article:1'],
    ]);
    expect(countChanges(changes)).toEqual({ new: 2, changed: 1, deleted: 1, unchanged: 1 });
  });
});

describe('sameInputs', () => {
  const channel = { id: 1 };
  it.each([
    [[channel, 'en', 'x'], [channel, 'en', 'x'], true],
    [[channel, 'en'], [{ id: 1 }, 'en'], false],
    [[channel, 'en'], [channel, 'en', 'x'], false],
    [[NaN], [NaN], true],
    [undefined, [channel], false],
    [[channel], undefined, false],
  ] as const)('%j and %j: %s', (a, b, same) => {
    expect(sameInputs(a as readonly unknown[] | undefined, b as readonly unknown[] | undefined)).toBe(same);
  });
});

describe('sameBytes and isTextFile', () => {
  it('compares bytes, not lengths alone', () => {
    expect(sameBytes(bytes('abc'), bytes('abc'))).toBe(true);
    expect(sameBytes(bytes('abc'), bytes('abd'))).toBe(false);
    expect(sameBytes(bytes('abc'), bytes('ab'))).toBe(false);
  });
  it.each([
    ['c/en/a.html', true],
    ['c/en/a.json', true],
    ['c/en/a.md', true],
    ['c/rss.xml', true],
    ['c/llms.txt', true],
    ['c/en/a.png', false],
    ['media/x.webp', false],
  ])('%s: %s', (path, isText) => {
    expect(isTextFile(path)).toBe(isText);
  });
});
