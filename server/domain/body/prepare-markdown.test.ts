import { describe, expect, it } from 'vitest';
import { prepareBody } from './index.ts';
import { publicMarkdown } from './safe-markdown.ts';

const codes = (input: { title: string; contentMarkdown: string }) => prepareBody(input).warnings.map((w) => w.code);

describe('prepareBody (Markdown input)', () => {
  it('throws when neither or both contents are given', () => {
    expect(() => prepareBody({ title: 'T' })).toThrow(Error);
    expect(() => prepareBody({ title: 'T', contentMarkdown: 'a', contentHtml: '<p>a</p>' })).toThrow(Error);
  });

  it.each([
    ['ATX', '# Part one\n\nText.\n', '## Part one\n\nText.\n', 1],
    ['setext', 'Part one\n========\n\nText.\n', '## Part one\n\nText.\n', 1],
    ['two H1s and an H2', '# A\n\n## B\n\n# C\n', '## A\n\n## B\n\n## C\n', 2],
    ['H1 in a blockquote', '> # Quoted\n', '> ## Quoted\n', 1],
    ['H1 in raw HTML', 'Intro\n\n<h1 dir="rtl">Raw</h1>\n', 'Intro\n\n<h2 dir="rtl">Raw</h2>\n', 1],
  ])('demotes H1 to H2 (%s)', (_name, input, expected, count) => {
    const result = prepareBody({ title: 'Unrelated', contentMarkdown: input });
    expect(result.markdown).toBe(expected);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.code).toBe('BODY_H1_DEMOTED');
    expect(result.warnings[0]?.message).toContain(`${count} level-1 heading`);
    expect(result.warnings[0]?.message).toContain('##');
    expect(result.warnings[0]?.message).toContain('###');
  });

  it.each([
    ['H1 equal to the title', '# My Title\n\nBody.\n', 'Body.\n'],
    ['H3, different case and spacing', '###   my   TITLE  \n\nBody.\n', 'Body.\n'],
    ['setext H2', 'My Title\n--------\n\nBody.\n', 'Body.\n'],
    ['raw HTML heading', '<h1>My Title</h1>\n\nBody.\n', 'Body.\n'],
  ])('removes a first-block heading repeating the title (%s)', (_name, input, expected) => {
    const result = prepareBody({ title: ' My  Title ', contentMarkdown: input });
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_TITLE_HEADING_REMOVED']);
  });

  it.each([
    ['heading is not the first block', 'Intro.\n\n## My Title\n'],
    ['first heading differs', '## My Title, continued\n\nBody.\n'],
    ['first block is a paragraph with the title text', 'My Title\n\nBody.\n'],
  ])('keeps the heading when %s', (_name, input) => {
    const result = prepareBody({ title: 'My Title', contentMarkdown: input });
    expect(result.markdown).toBe(input);
    expect(result.warnings).toEqual([]);
  });

  it('removes the title heading and demotes later H1s, warning for each', () => {
    const result = prepareBody({ title: 'Title', contentMarkdown: '# Title\n\n# Next\n' });
    expect(result.markdown).toBe('## Next\n');
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_H1_DEMOTED', 'BODY_TITLE_HEADING_REMOVED']);
    expect(result.warnings[0]?.message).toContain('1 level-1 heading');
  });

  it('returns Markdown with nothing to fix unchanged, whatever its style', () => {
    const input = [
      'Intro with *emphasis*, __strong__ and a [link](./other-article-slug "Other").',
      '',
      'Sub heading',
      '-----------',
      '',
      '* star bullet',
      '+ plus bullet',
      '',
      '1) item',
      '',
      '~~~js',
      'const x = 1;',
      '~~~',
      '',
      '| a | b |',
      '|---|:-:|',
      '| 1 | 2 |',
      '',
      'Arabic مرحبا with RLM\u200F and LRM\u200E kept.',
      '',
    ].join('\n');
    const result = prepareBody({ title: 'Title', contentMarkdown: input });
    expect(result.markdown).toBe(input);
    expect(result.warnings).toEqual([]);
  });

  it('only trims trailing whitespace to a single newline when nothing changes', () => {
    expect(prepareBody({ title: 'T', contentMarkdown: 'Text.  \n\n\n' }).markdown).toBe('Text.\n');
    expect(prepareBody({ title: 'T', contentMarkdown: '   \n' }).markdown).toBe('');
  });

  it('re-serialises in the canonical style when something changes', () => {
    const input = '# Part\n\n* a *b* __c__\n\n~~~\ncode\n~~~\n';
    expect(prepareBody({ title: 'T', contentMarkdown: input }).markdown).toBe(
      '## Part\n\n- a _b_ **c**\n\n```\ncode\n```\n',
    );
  });

  it('keeps a relative ./slug link through re-serialisation', () => {
    const result = prepareBody({ title: 'T', contentMarkdown: '# Part\n\nSee [other](./other-article-slug).\n' });
    expect(result.markdown).toContain('[other](./other-article-slug)');
  });

  it.each([
    ['RLO/PDF', 'a \u202Eevil\u202C b\n', 'a evil b\n', 2],
    ['isolates', '\u2066x\u2067y\u2068z\u2069\n', 'xyz\n', 4],
    ['LRE/RLE/LRO', '\u202Aa\u202Bb\u202Dc\n', 'abc\n', 3],
  ])('strips bidi controls without re-serialising (%s)', (_name, input, expected, count) => {
    const result = prepareBody({ title: 'T', contentMarkdown: input });
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_BIDI_CONTROLS_STRIPPED']);
    expect(result.warnings[0]?.message).toContain(`Removed ${count} bidirectional`);
  });

  it.each([
    ['BEL and ESC from pasted text', 'ring\u0007 the \u001b[31mbell\n', 'ring the [31mbell\n', 2],
    ['C1 (NEL, CSI) and DEL', 'a\u0085b\u009bc\u007fd\n', 'abcd\n', 3],
    ['NUL', 'nul\u0000l\n', 'null\n', 1],
  ])('removes the control characters HTML forbids, so page, .md and JSON agree (issue 34: %s)', (_name, input, expected, count) => {
    const result = prepareBody({ title: 'T', contentMarkdown: input });
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_CONTROL_CHARACTERS_REMOVED']);
    expect(result.warnings[0]?.message).toContain(`Removed ${count} invisible control character`);
    expect(publicMarkdown(input)).toBe(publicMarkdown(expected)); // a row stored before the rule reads the same
  });

  it('keeps tab, line feed, form feed and carriage return', () => {
    const result = prepareBody({ title: 'T', contentMarkdown: 'a\tb\n\nc\n' });
    expect(result.markdown).toBe('a\tb\n\nc\n');
    expect(result.warnings).toEqual([]);
  });

  it('strips bidi controls written as character references', () => {
    const result = prepareBody({ title: 'T', contentMarkdown: 'a&#x202E;b &#8238;c\n' });
    expect(result.markdown).toBe('ab c\n');
    expect(result.warnings[0]?.message).toContain('Removed 2 bidirectional');
  });

  it('does not strip bidi controls from the title (it is not part of the body)', () => {
    const result = prepareBody({ title: '\u202BTitle\u202C', contentMarkdown: '# Title\n\nBody\n' });
    expect(result.markdown).toBe('Body\n');
    expect(codes({ title: '\u202BTitle\u202C', contentMarkdown: 'Body\n' })).toEqual([]);
  });
});
