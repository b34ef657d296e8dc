import { describe, expect, it } from 'vitest';
import { formatTable, formatTime, plural } from './table.ts';

describe('formatTable', () => {
  it('aligns columns two spaces apart without trailing spaces', () => {
    const text = formatTable(['NAME', 'PLAN', 'NOTE'], [['ana', 'free', ''], ['bartholomew', 'pro', 'x']]);
    expect(text.split('\n')).toEqual(['NAME         PLAN  NOTE', 'ana          free  -', 'bartholomew  pro   x']);
  });

  it('indents header-less lists and blanks out control characters', () => {
    expect(formatTable(null, [['a\nb', 'c\u001b[31m']], '  ')).toBe('  a b  c [31m');
  });
});

describe('formatTime and plural', () => {
  it('shows minutes in UTC, or "-" when absent', () => {
    expect(formatTime('2026-11-22T12:34:56.789Z')).toBe('2026-11-22 12:34');
    expect(formatTime(null)).toBe('-');
  });

  it('pluralises', () => {
    expect([plural(1, 'editor'), plural(0, 'editor'), plural(2, 'editor')]).toEqual(['1 editor', '0 editors', '2 editors']);
  });
});
