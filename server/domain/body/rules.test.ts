import { describe, expect, it } from 'vitest';
import { stripBidiControls } from './bidi.ts';
import { headingRepeatsTitle } from './headings.ts';
import { BODY_WARNING_CODES } from './index.ts';
import { looksLikeUrlOrEmail } from './rehype-plugins.ts';
import { ARTICLE_SCHEMA, DIR_BLOCK_TAGS, PREPARE_SCHEMA, normaliseDir } from './schema.ts';

describe('body rules', () => {
  it('lists every warning code once', () => {
    expect(new Set(BODY_WARNING_CODES).size).toBe(9);
    expect([...BODY_WARNING_CODES].sort()).toEqual([
      'BODY_BIDI_CONTROLS_STRIPPED',
      'BODY_CONTROL_CHARACTERS_REMOVED',
      'BODY_DIR_REMOVED',
      'BODY_H1_DEMOTED',
      'BODY_HTML_REMOVED',
      'BODY_IMAGE_ALT_MISSING',
      'BODY_IMAGE_SRC_UNRESOLVED',
      'BODY_TITLE_HEADING_REMOVED',
      'BODY_UNSAFE_URL_REMOVED',
    ]);
  });

  it.each([
    ['rtl', 'rtl'],
    ['LTR', 'ltr'],
    [' Auto ', 'auto'],
    ['foo', null],
    ['', null],
    [undefined, null],
  ])('normaliseDir(%j) is %j', (value, expected) => {
    expect(normaliseDir(value)).toBe(expected);
  });

  it('allows dir only on block elements, and h1 only before conversion', () => {
    expect(DIR_BLOCK_TAGS.has('p')).toBe(true);
    expect(DIR_BLOCK_TAGS.has('span')).toBe(false);
    expect(ARTICLE_SCHEMA.attributes?.['*']).not.toContain('dir');
    expect(ARTICLE_SCHEMA.tagNames).not.toContain('h1');
    expect(ARTICLE_SCHEMA.tagNames).toEqual(expect.arrayContaining(['figure', 'figcaption', 'table', 'img', 'section']));
    expect(PREPARE_SCHEMA.tagNames).toContain('h1');
    expect(PREPARE_SCHEMA.clobber).toEqual([]);
  });

  it.each([
    ['a\u202Ab\u202Bc\u202Cd\u202De\u202Ef', 'abcdef', 5],
    ['\u2066\u2067\u2068\u2069', '', 4],
    ['rlm\u200F lrm\u200E', 'rlm\u200F lrm\u200E', 0],
  ])('stripBidiControls(%j)', (input, text, count) => {
    expect(stripBidiControls(input)).toEqual({ text, count });
  });

  it.each([
    ['My Title', 'my title', true],
    ['  My\n\tTitle ', 'My Title', true],
    ['My Title!', 'My Title', false],
    ['', '', false],
  ])('headingRepeatsTitle(%j, %j) is %j', (heading, title, expected) => {
    expect(headingRepeatsTitle(heading, title)).toBe(expected);
  });

  it.each([
    ['https://example.com/a', true],
    ['http://x.y', true],
    ['www.example.com', true],
    ['mailto:a@b.c', true],
    ['desk@example.com', true],
    ['read more', false],
    ['example', false],
    ['see https://example.com', false],
  ])('looksLikeUrlOrEmail(%j) is %j', (text, expected) => {
    expect(looksLikeUrlOrEmail(text)).toBe(expected);
  });
});
