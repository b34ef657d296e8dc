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

/** Characters a title or URL could hold that matter to a YAML reader, plus ordinary ones. */
const ALPHABET = [...'aZ09 -:#&*!|>\'"%@`{}[],?\\/~.<=', '\n', '\r', '\t', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f', '\u00a0', '\u2028', '\u2029', '\ufeff', '\ufffe', '\uffff', 'é', 'ع', '🚀', '---', '...', 'no', 'yes', '0x1F', '1e3', '.nan', '<<', 'null', '~', ' '];

function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('frontMatterYaml on generated front matter', () => {
  it('reads back equal under YAML 1.1, YAML 1.2 and js-yaml for 2,000 generated documents of the front matter shape', () => {
    const random = seeded(17);
    const text = (): string => Array.from({ length: Math.floor(random() * 12) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 2 || pick < 0.45) return text();
      if (pick < 0.5) return null;
      if (pick < 0.55) return random() < 0.5;
      if (pick < 0.6) return Math.round((random() - 0.5) * 1e6) / 100;
      if (pick < 0.8) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k_${i}`, value(depth + 1)]));
    };
    for (let n = 0; n < 2000; n++) {
      const doc = Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i) => [`key${i}`, value(0)]));
      const yaml = frontMatterYaml(doc);
      expect(yaml).not.toMatch(NOT_SAFE_RAW);
      // No value spans lines: every line is a key, a dash or both, so none can start a document marker.
      for (const line of yaml.slice(0, -1).split('\n')) expect(line).toMatch(/^ *(- )*(-( .+)?|[A-Za-z_][A-Za-z0-9_]*:( .+)?)$/);
      for (const reading of [parse(yaml, { version: '1.1' }), parse(yaml), jsyaml.load(yaml)]) expect(reading).toEqual(doc);
    }
  });

  it('refuses what is not front matter: a key YAML could misread, a non-finite number, a date', () => {
    expect(() => frontMatterYaml({ 'a b': 1 })).toThrow(/plain ASCII name/);
    expect(() => frontMatterYaml({ a: Number.NaN })).toThrow(/\$\.a/);
    expect(() => frontMatterYaml({ a: [new Date(0)] })).toThrow(/\$\.a\[0\]/);
  });
});
