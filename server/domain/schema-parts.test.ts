import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { articleSlugSchema, characterCount, dateTimeSchema, findControlCharacter, isRealDateTime, plainTextSchema, slugSchema, titleSchema } from './schema-parts.ts';
import { parseInput } from './validation.ts';

describe('dateTimeSchema', () => {
  it.each([
    ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
    ['2026-12-01T10:00:00+01:00', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01T10:00+0100', '2026-12-01T09:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'],
    // The hour-only offset of ISO 8601 (issue 13).
    ['2026-11-24T10:00:00+01', '2026-11-24T09:00:00.000Z'],
    ['2026-11-24T10:00:00-05', '2026-11-24T15:00:00.000Z'],
    ['2026-11-24T05:30:00+05:30', '2026-11-24T00:00:00.000Z'],
    ['2026-11-24T00:30:00+01', '2026-11-23T23:30:00.000Z'],
    ['2026-11-24t10:00:00z', '2026-11-24T10:00:00.000Z'],
    ['2026-11-24T10:00:00.123456789+00:00', '2026-11-24T10:00:00.123Z'],
    ['2026-11-24T10:00:00.5Z', '2026-11-24T10:00:00.500Z'],
  ])('accepts %s as %s', (value, iso) => {
    expect(dateTimeSchema.parse(value)).toBe(iso);
  });

  it.each([
    '2027-02-29T09:00:00Z', // not a leap year: used to become 2027-03-01
    '2026-04-31T09:00:00Z',
    '2026-13-01T09:00:00Z',
    '2026-00-10T09:00:00Z',
    '2026-12-00T09:00:00Z',
    '2026-12-01T24:00:00Z',
    '2026-12-01T09:60:00Z',
    '2026-12-01T09:00:60Z',
    '2026-12-01T09:00:00+24:00',
    '2026-12-01T09:00:00', // no zone
    '2026-12-01',
    '2026-12-01T09:00:00+1', // one-digit offset
    '2026-12-01T09:00:00+01:0',
    '2026-12-01T09:00:00+01:60',
    '0099-12-01T09:00:00Z',
  ])('refuses %s', (value) => {
    expect(isRealDateTime(value)).toBe(false);
    expect(() => parseInput(z.object({ scheduled_at: dateTimeSchema }), { scheduled_at: value })).toThrow(
      expect.objectContaining({ details: { fields: { scheduled_at: expect.stringContaining('must exist in the calendar') } } }),
    );
  });
});

describe('control and bidi characters in text fields', () => {
  const DANGEROUS = [
    ['RLO', 'Invoice \u202Egpj.exe', 'U+202E at position 9'],
    ['LRE', '\u202Ax', 'U+202A at position 1'],
    ['PDI', 'a\u2069', 'U+2069 at position 2'],
    ['FSI', 'a\u2068b', 'U+2068 at position 2'],
    ['NUL', 'a\u0000b', 'U+0000 at position 2'],
    ['BEL', 'a\u0007b', 'U+0007 at position 2'],
    ['ESC', 'a\u001b[31mred', 'U+001B at position 2'],
    ['DEL', 'a\u007f', 'U+007F at position 2'],
    ['NEL', 'a\u0085b', 'U+0085 at position 2'],
    ['CSI (C1)', 'a\u009bb', 'U+009B at position 2'],
    ['after an astral character', '😀\u202E', 'U+202E at position 2'],
  ] as const;

  it.each(DANGEROUS)('finds %s', (_name, value, where) => {
    expect(findControlCharacter(value)).toBe(where);
  });

  const FIELDS = [
    ['title', titleSchema],
    ['single-line text', plainTextSchema(300, { singleLine: true })],
    ['multi-line text', plainTextSchema(500)],
  ] as const;

  it.each(FIELDS.flatMap(([field, schema]) => DANGEROUS.map(([name, value, where]) => [field, name, schema, value, where] as const)))(
    'a %s refuses %s with a 422 naming the character',
    (_field, _name, schema, value, where) => {
      expect(() => parseInput(z.object({ text: schema }), { text: value })).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED', details: { fields: { text: expect.stringContaining(where) } } }),
      );
    },
  );

  it('keeps RLM/LRM marks, tabs and (in multi-line fields) line breaks', () => {
    expect(titleSchema.parse('\u200Fשלום\u200E\tworld')).toBe('\u200Fשלום\u200E\tworld');
    expect(plainTextSchema(500).parse('one\r\ntwo\nthree')).toBe('one\r\ntwo\nthree');
    expect(plainTextSchema(300, { singleLine: true }).safeParse('one\ntwo').success).toBe(false);
  });
});

describe('slugs', () => {
  it.each(['38', '0', '2026'])('an article slug "%s" (all digits) is refused, saying why', (slug) => {
    expect(slugSchema.safeParse(slug).success).toBe(true);
    expect(() => parseInput(z.object({ slug: articleSlugSchema }), { slug })).toThrow(
      expect.objectContaining({ details: { fields: { slug: expect.stringContaining('digits as the article id') } } }),
    );
  });

  it.each(['issue-38', '38-a', 'a38', '2026-review'])('an article slug "%s" is fine', (slug) => {
    expect(articleSlugSchema.parse(slug)).toBe(slug);
  });
});

describe('lengths count characters (Unicode code points), not UTF-16 code units', () => {
  const emoji = (n: number) => '😀'.repeat(n);
  it.each([
    ['300 emoji in a title', titleSchema, emoji(300), true],
    ['301 emoji in a title', titleSchema, emoji(301), false],
    ['320 emoji in a 320-character field', plainTextSchema(320), emoji(320), true],
    ['321 emoji in a 320-character field', plainTextSchema(320), emoji(321), false],
    ['320 letters with combining marks counted per code point', plainTextSchema(320), 'e\u0301'.repeat(160), true],
  ])('%s', (_name, schema, value, ok) => {
    expect(schema.safeParse(value).success).toBe(ok);
  });

  it('says "characters" when too long', () => {
    const result = titleSchema.safeParse(emoji(301));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/at most 300 characters/);
  });

  it('characterCount counts code points', () => {
    expect(characterCount('😀a')).toBe(2);
    expect('😀a'.length).toBe(3);
  });
});
