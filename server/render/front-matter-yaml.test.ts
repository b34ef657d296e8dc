import * as jsyaml from 'js-yaml';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { frontMatterYaml } from './front-matter-yaml.ts';

/** What PyYAML's reader refuses (yaml/reader.py NON_PRINTABLE) or folds (NEL, LS, PS are line breaks in YAML 1.1). */
const NOT_SAFE_RAW = /[^\t\n\r\u0020-\u007e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]/u;

const CASES: readonly [string, string][] = [
  ['NEL', 'a\u0085b'],
  ['line separator', 'a\u2028b'],
  ['paragraph separator', 'a\u2029b'],
  ['BEL', 'a\u0007b'],
  ['escape', 'a\u001bb'],
  ['DEL', 'a\u007fb'],
  ['C1 control', 'a\u0080b\u009fc'],
  ['BOM inside', 'a\ufeffb'],
  ['non-characters', 'a\ufffeb\uffffc'],
  ['tab, CR, LF', 'a\tb\r\nc'],
  ['quotes and backslash', 'say "hi" \\ bye'],
  ['YAML 1.1 booleans', 'no'],
  ['YAML 1.1 booleans, other spellings', 'Off'],
  ['octal-looking', '0777'],
  ['sexagesimal', '1:20'],
  ['timestamp-looking', '2026-11-24'],
  ['null-looking', '~'],
  ['merge key', '<<'],
  ['infinity', '.inf'],
  ['document marker', '---'],
  ['RTL and emoji', 'مرحبا 🚀 \u200f'],
  ['astral and combining', '𝔘\u0301'],
];

describe('frontMatterYaml', () => {
  it.each(CASES)('%s: YAML 1.1, YAML 1.2 and js-yaml read the same value, and the bytes hold nothing a 1.1 reader folds or refuses', (_name, value) => {
    const text = frontMatterYaml({ title: value, list: [{ title: value }] });
    expect(text).not.toMatch(NOT_SAFE_RAW);
    for (const reading of [parse(text, { version: '1.1' }), parse(text), jsyaml.load(text)]) {
      expect(reading).toEqual({ title: value, list: [{ title: value }] });
    }
  });

  it('writes the named escapes of both versions', () => {
    expect(frontMatterYaml({ t: '\u0085\u2028\u2029\u007f\u0090\ufeff' })).toBe('t: "\\N\\L\\P\\x7F\\x90\\uFEFF"\n');
  });

  it('keeps null, numbers and booleans as they are', () => {
    const text = frontMatterYaml({ a: null, b: 1, c: true });
    expect(parse(text, { version: '1.1' })).toEqual({ a: null, b: 1, c: true });
  });
});
