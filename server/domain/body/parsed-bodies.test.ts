import { describe, expect, it } from 'vitest';
import { prepareBody, renderMarkdownBody } from './index.ts';
import { keepParsedBody, takeParsedBody } from './parsed-bodies.ts';
import { parseMarkdown } from './processors.ts';

const BODIES = [
  'See [other](./other-slug) and ~~old~~, `code`, https://example.com/a?b=1 and desk@example.com.\n',
  '## Section\n\n- one\n- two\n\n```ts\nconst x = 1;\n```\n\n> quoted *em* **strong**\n',
  'مرحبا بالعالم `npm test` [read more](https://example.com)\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
  'Raw <kbd>html</kbd> H<sub>2</sub>O\n\n<div>a block</div>\n\nA footnote[^1].\n\n[^1]: The note.\n',
  'Ends in an open fence\n\n```\ncode\n',
];

describe('a save renders the tree it parsed', () => {
  it.each(BODIES)('gives the bytes of a fresh render (%#)', (body) => {
    const fresh = renderMarkdownBody(body);
    const prepared = prepareBody({ title: 'Unrelated', contentMarkdown: body });
    expect(prepared.markdown).toBe(body);
    expect(renderMarkdownBody(prepared.markdown)).toEqual(fresh);
  });

  it.each(BODIES.map((body) => body.trimEnd()).concat(['Trailing space.  \n\n', 'Open fence\n\n```\ncode  \n\n\n', '<div>\nhtml  \t\n']))(
    'renders a body sent without its final newline, or with trailing whitespace, as a fresh render of what is stored (%#)',
    (body) => {
      const prepared = prepareBody({ title: 'Unrelated', contentMarkdown: body });
      expect(prepared.markdown).toBe(`${body.trimEnd()}\n`);
      expect(takeParsedBody(prepared.markdown)).toEqual(parseMarkdown(prepared.markdown));
      expect(renderMarkdownBody(prepared.markdown)).toEqual(renderMarkdownBody(`${body.trimEnd()}\n`));
    },
  );

  it('keeps the parse of exactly the stored Markdown, and none when a rule rewrote it', () => {
    prepareBody({ title: 'T', contentMarkdown: 'Kept as is.\n' });
    expect(takeParsedBody('Kept as is.\n')).toBeDefined();
    expect(takeParsedBody('Kept as is.\n')).toBeUndefined(); // taken once
    // Trimmed before it is parsed: the stored text's own tree.
    prepareBody({ title: 'T', contentMarkdown: 'Trailing space.  \n\n' });
    expect(takeParsedBody('Trailing space.\n')).toEqual(parseMarkdown('Trailing space.\n'));
    prepareBody({ title: 'T', contentMarkdown: '# Demoted\n' });
    expect(takeParsedBody('## Demoted\n')).toBeUndefined();
  });

  it('keeps only the last few trees', () => {
    for (let i = 0; i < 20; i++) keepParsedBody(`body ${i}\n`, parseMarkdown(`body ${i}\n`));
    expect(takeParsedBody('body 0\n')).toBeUndefined();
    expect(takeParsedBody('body 19\n')).toBeDefined();
  });
});
