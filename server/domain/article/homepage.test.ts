import { describe, expect, it } from 'vitest';
import { isOnHomepage } from './homepage.ts';

const article = { status: 'published' as const, homepage_mode: 'inherit' as const, homepage_excluded: 0 };
const channel = { status: 'active' as const, homepage_enabled: 1, homepage_excluded: 0 };

describe('isOnHomepage', () => {
  it.each([
    ['inherit follows an enabled channel', {}, {}, true],
    ['inherit follows a disabled channel', {}, { homepage_enabled: 0 }, false],
    ['allow shows even when the channel is off', { homepage_mode: 'allow' }, { homepage_enabled: 0 }, true],
    ['hide always hides', { homepage_mode: 'hide' }, {}, false],
    ['admin exclusion of the article beats allow', { homepage_mode: 'allow', homepage_excluded: 1 }, {}, false],
    ['admin exclusion of the channel beats allow', { homepage_mode: 'allow' }, { homepage_excluded: 1 }, false],
    ['a draft is never on the homepage', { status: 'draft' }, {}, false],
    ['an archived article is never on the homepage', { status: 'archived', homepage_mode: 'allow' }, {}, false],
    ['a hidden channel shows nothing', { homepage_mode: 'allow' }, { status: 'hidden' }, false],
  ] as const)('%s', (_name, a, c, expected) => {
    expect(isOnHomepage({ ...article, ...a }, { ...channel, ...c })).toBe(expected);
  });
});
