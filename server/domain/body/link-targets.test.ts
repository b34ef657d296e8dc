import { describe, expect, it } from 'vitest';
import { absoluteMarkdownLinks } from '../../render/absolute-links.ts';
import { corpusBody } from '../../../scripts/bench/corpus.ts';
import { findLinkTargets, findLinkTargetsInTree, readLinkTargets, storedLinkTargets } from './link-targets.ts';
import { parseMarkdown } from './processors.ts';
import { renderMarkdownBody } from './render.ts';

const BASE = 'https://news.example/harbour/ar/tides';

// Bodies whose targets sit in every place the parser knows of, and places that only look like one.
const BODIES: Array<[string, string]> = [
  ['no links', 'Plain text (with parentheses) and [brackets].\n'],
  ['absolute and fragment only', 'Only [absolute](https://example.org) and [fragment](#x).\n'],
  ['link, title, angle brackets, image, reference', 'See [the boats](./boats "Boats"), [again](<./boats and more>), ![a *b*](img/x.png) and [ref][r].\n\n[r]: ../sahara/dunes\n'],
  ['table cell and footnote', '| [cell](boats) | [abs](https://example.org/) |\n| - | - |\n\nNote[^1].\n\n[^1]: With [a link](./stars).\n'],
  ['code span and fenced code are not links', 'A `[code](./not-a-link)`.\n\n```\n[fenced](./nope)\n```\n\n    [indented](./nope)\n'],
  ['raw HTML', '<a href="./raw">raw</a> <img src=\'pic.png\' alt="">\n\n<div><a href="https://example.org/">abs</a></div>\n'],
  ['escapes and entities', '[x](./a\\(b\\)&amp;c) [y](<./sp ace>)\n'],
  ['astral characters before a target', '😀 𝒳 [x](./after-astral) 😀\n'],
  ['nested lists and quotes', '> - [q](./in-quote)\n>   1. [deep](../deeper)\n'],
  ['a link across lines in a quote', '> See [the\n> boats](./boats\n> "Boats") now.\n'],
  ['a destination on the next line of a definition', '[r]:\n  ./next-line "Title"\n\nUse [r].\n'],
  ['image inside a link, titles with parentheses', '[![pic](./a.png "a (b)")](./b "c)") and [x](<./y z> \'t\')\n'],
  ['escaped pipe in a table cell', '| a | b |\n| - | - |\n| [p](./x\\|y) | `[c](./no)` |\n'],
  ['autolinks and literals', '<https://example.org/x> www.example.com/a [w](./w) mail@example.org\n'],
  ['emphasis around links', '*[a](./a)* **[b](./b)** ~~[c](./c)~~\n'],
  ['multi-line raw HTML block', '<div>\n<a href="./inside">in</a>\n</div>\n\n[after](./after)\n'],
  ['inline HTML with a relative and an absolute attribute', 'x <a href="./rel">r</a> <a href="https://abs.example/">a</a> <img src=pic.png>\n'],
  ['link text with brackets and code', '[a [nested] `]` text](./n) [not a link] (./x)\n'],
  ['list items with links', '- [one](./1)\n- [two](./2)\n  continued [three](./3)\n'],
];

describe('link targets stored with a body', () => {
  it.each(BODIES)('%s: applying the stored targets gives what parsing gives', (_name, markdown) => {
    const stored = readLinkTargets(storedLinkTargets(markdown), markdown);
    expect(stored).not.toBeNull();
    expect(absoluteMarkdownLinks(markdown, BASE, stored!)).toBe(absoluteMarkdownLinks(markdown, BASE));
  });

  it.each(BODIES)('%s: read from the render\'s own tree, the targets are those of a whole parse', (_name, markdown) => {
    expect(findLinkTargetsInTree(markdown, parseMarkdown(markdown))).toEqual(findLinkTargets(markdown));
  });

  it('reads the generated corpus\'s bodies from the tree as a whole parse reads them', () => {
    for (let n = 0; n < 20; n++) {
      for (const language of ['en', 'ar']) {
        const markdown = corpusBody(n, language);
        expect(findLinkTargetsInTree(markdown, parseMarkdown(markdown))).toEqual(findLinkTargets(markdown));
      }
    }
  });

  it('finds only relative destinations and raw HTML with a relative attribute, in document order', () => {
    const md = '[a](https://x.example) [b](./b) <span>x</span> <a href="c">c</a> [d](#d)\n';
    expect(findLinkTargets(md).map((t) => md.slice(t.start, t.end))).toEqual(['./b', '<a href="c">']);
    expect(findLinkTargets(md).map((t) => t.url ?? null)).toEqual(['./b', null]);
  });

  it('is what the body renderer stores', () => {
    const md = BODIES[2]![1];
    expect(renderMarkdownBody(md).links).toBe(storedLinkTargets(md));
    expect(JSON.parse(renderMarkdownBody('No links.\n').links!)).toEqual([]);
  });

  it('is null for a body over the limits, which the build handles itself', () => {
    const hostile = `${'['.repeat(200_000)}\n`;
    expect(storedLinkTargets(hostile)).toBeNull();
    expect(renderMarkdownBody(hostile).links).toBeNull();
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['not JSON', '[[1,2'],
    ['not a list', '{"a":1}'],
    ['wrong arity', '[[1]]'],
    ['not whole numbers', '[[1.5,2]]'],
    ['backwards', '[[5,2]]'],
    ['overlapping', '[[1,5],[3,6]]'],
    ['past the end', '[[1,99]]'],
    ['url not a string', '[[1,2,3]]'],
  ])('refuses a stored value that is %s, so the build finds the targets again', (_name, stored) => {
    expect(readLinkTargets(stored, '0123456789')).toBeNull();
  });

  it('refuses targets that no longer spell their URL in the text (it changed since they were found)', () => {
    const md = 'See [a](./a) and <a href="./b">b</a>.\n';
    const stored = storedLinkTargets(md)!;
    expect(readLinkTargets(stored, md)).toHaveLength(2);
    expect(readLinkTargets(stored, `X${md}`)).toBeNull();
    expect(readLinkTargets(stored, md.replace('./a', './z'))).toBeNull();
  });

  it('keeps a stored value that fits', () => {
    expect(readLinkTargets('[[0,3,"./a"],[5,9]]', './a, <b>x')).toEqual([{ start: 0, end: 3, url: './a' }, { start: 5, end: 9 }]);
    expect(readLinkTargets('[]', '')).toEqual([]);
  });
});
