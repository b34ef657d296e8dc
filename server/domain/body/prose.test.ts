import { describe, expect, it } from 'vitest';
import { renderMarkdownBody } from './render.ts';
import { PROSE_MAX_CHARS } from './prose.ts';

const prose = (markdown: string) => renderMarkdownBody(markdown).prose;

describe('a body\'s prose', () => {
  it('is its paragraphs only: no headings, tables, code, list items, quotes or image text', () => {
    const body = [
      '## Observations',
      'Temperature fell overnight.',
      '| Time | Reading |\n| - | - |\n| 06:00 | 135 |',
      '```py\nprint("note 45")\n```',
      '- Wind: 3 m/s\n- Rain: none',
      '> A quoted line.',
      '![A photo of the coast](https://example.com/coast.webp)',
      'The *second* paragraph has `inline code`, a [link](../other) and a footnote[^1].',
      '[^1]: The note.',
    ].join('\n\n');
    expect(prose(body)).toBe('Temperature fell overnight. The second paragraph has inline code, a link and a footnote.');
  });

  it('is empty for a body without a paragraph of text', () => {
    expect(prose('## Only a heading\n\n- and\n- a list\n\n![image](https://example.com/i.webp)')).toBe('');
  });

  it('keeps a line break as a space and right-to-left text as it is', () => {
    expect(prose('First line  \nsecond line.')).toBe('First line second line.');
    expect(prose('مرحبا بالعالم.\n\nفقرة ثانية.')).toBe('مرحبا بالعالم. فقرة ثانية.');
  });

  it('keeps at most PROSE_MAX_CHARS code points, never splitting a surrogate pair', () => {
    const long = prose(`${'😀'.repeat(PROSE_MAX_CHARS + 50)}\n\nMore.`);
    expect(Array.from(long)).toHaveLength(PROSE_MAX_CHARS);
    expect(long.endsWith('😀')).toBe(true);
  });
});
