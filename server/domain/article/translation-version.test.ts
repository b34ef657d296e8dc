import { describe, expect, it } from 'vitest';
import { PressroomError } from '../errors.ts';
import { checkIfMatch, checkIfNoneMatch, translationVersion } from './translation-version.ts';

const texts = { title: 'Hello', excerpt: null, content_markdown: 'Hi.', seo_title: null, seo_description: null };

describe('translation versions', () => {
  it('change with any text an editor writes, and only with those', () => {
    const base = translationVersion(texts);
    expect(base).toMatch(/^[0-9a-f]{24}$/);
    for (const change of [{ title: 'Hello!' }, { excerpt: 'x' }, { content_markdown: 'Hi!' }, { seo_title: 's' }, { seo_description: 'd' }]) {
      expect(translationVersion({ ...texts, ...change })).not.toBe(base);
    }
    expect(translationVersion({ ...texts })).toBe(base);
  });

  const current = translationVersion(texts);
  const cases: Array<[string, string, string | null, boolean]> = [
    ['the current version', `"${current}"`, current, true],
    ['one of a list', `"0000", "${current}"`, current, true],
    ['any existing translation', '*', current, true],
    ['an older version', '"0123456789abcdef01234567"', current, false],
    ['the current version, weak', `W/"${current}"`, current, false],
    ['the current version, unquoted', current, current, false],
    ['a translation that does not exist, by tag', `"${current}"`, null, false],
    ['a translation that does not exist, with *', '*', null, false],
  ];
  it.each(cases)('If-Match with %s: matches = %s', (_name, header, version, matches) => {
    let error: unknown = null;
    try {
      checkIfMatch(header, version, 'en');
    } catch (e) {
      error = e;
    }
    expect(error === null).toBe(matches);
    if (error) {
      expect(PressroomError.is(error) && error.code).toBe('TRANSLATION_CHANGED');
      expect((error as PressroomError).details).toEqual({ current_version: version });
    }
  });

  it('If-None-Match: * creates only: refused when the translation exists, ignored otherwise', () => {
    expect(() => checkIfNoneMatch('*', null, 'ar')).not.toThrow();
    expect(() => checkIfNoneMatch('"abc"', current, 'ar')).not.toThrow();
    expect(() => checkIfNoneMatch('*', current, 'ar')).toThrow(/already/);
  });
});
