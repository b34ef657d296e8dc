import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { renderMarkdownBody } from '../domain/body/render.ts';
import { DANGEROUS_MARKDOWN } from '../../test/fixtures/dangerous-markdown.ts';
import { corpusBody } from '../../scripts/bench/corpus.ts';
import { GROWTH_SHAPES } from '../../test/support/burst-inputs.ts';
import { absoluteHtmlLinks, parsedAbsoluteHtmlLinks } from './absolute-links.ts';
import { pageHtmlOf } from './public-body.ts';
import { encodeValue, rewriteSerializedLinks } from './serialized-html-links.ts';

const BASES = ['https://news.example/harbour/ar/tides', 'https://news.example/harbour/tides', 'http://127.0.0.1:4321/a b/c?d=1&e="2"'];

// Bodies as the renderer writes them: the shapes the scan must read as the parser does.
const MARKDOWN: ReadonlyArray<readonly [string, string]> = [
  ['links of every kind', 'See [boats](./boats "Boats"), [again](<./boats and more>), ![a *b*](img/x.png "t") and [ref][r].\n\n[r]: ../sahara/dunes\n\n[frag](#notes) [abs](https://example.org/?a=1&b=2) [q](./x?a=1&b="2"\'3`)\n'],
  ['raw HTML links', 'x <a href="./raw?a=1&amp;b=2">raw</a> <img src=\'pic.png\' alt="a &quot;q&quot;"> <a href=unquoted>u</a>\n\n<div><a href="../up">up</a></div>\n'],
  ['text that looks like markup', 'Write `<a href="./not">` or `href="./no"` in code, and a < b > c & d "e" in text.\n\n```html\n<a href="./fenced">x</a>\n```\n\n&lt;a href="./escaped"&gt;\n'],
  ['tables, lists, quotes, footnotes', '| [a](./a) | b |\n| - | - |\n| ![i](./i.png) | [c](c) |\n\n- [one](1)\n  - [two](./2)\n\n> [quoted](../q)\n\nNote[^n].\n\n[^n]: With [a link](./n).\n'],
  ['unicode and spaces in targets', '[ü](./über/straße) [sp](<./a b>) [emoji](./😀) [rtl](./مرحبا) [pct](./%20x)\n'],
  ['autolinks and headings', '# [Heading](./h)\n\nwww.example.com and https://example.org/x and <https://example.net/> and a@b.example\n'],
  ...DANGEROUS_MARKDOWN,
  ['a corpus body', corpusBody(7, 'en')],
  ['an Arabic corpus body', corpusBody(8, 'ar')],
  ...Object.entries(GROWTH_SHAPES).map(([name, make]) => [name, make(40)] as const),
];

describe('rewriting links in a rendered body without parsing it', () => {
  // The same document as a parser reads it: parsing and serialising the scan's result gives the parse's bytes.
  // (Byte for byte the scan keeps the body as stored, as a body without relative links always was: a footnote
  // reference's bare `data-footnote-ref` stays bare, where the parse wrote `data-footnote-ref=""`.)
  const asParsed = (html: string) => toHtml(fromHtml(html, { fragment: true }));
  it.each(MARKDOWN)('gives the document parsing gives: %s', (_name, markdown) => {
    const { html } = renderMarkdownBody(markdown);
    for (const base of BASES) {
      expect(asParsed(absoluteHtmlLinks(html, base))).toBe(parsedAbsoluteHtmlLinks(html, base));
      const origin = new URL(base).origin;
      const shown = (absolute: string) => (absolute.startsWith(`${origin}/`) ? absolute.slice(origin.length) : absolute);
      expect(asParsed(pageHtmlOf({ html, htmlUrl: base }, origin))).toBe(parsedAbsoluteHtmlLinks(html, base, shown));
    }
  });

  it('changes nothing but the link values', () => {
    const { html } = renderMarkdownBody(MARKDOWN[3]![1]);
    const rewritten = absoluteHtmlLinks(html, BASES[0]!);
    const outsideValues = (text: string) => text.replace(/ (href|src)="[^"]*"/g, ' $1=""');
    expect(outsideValues(rewritten)).toBe(outsideValues(html));
    expect(rewritten).not.toBe(html);
  });

  it('reads every body the renderer writes for ordinary Markdown (the fast path is taken)', () => {
    for (const [name, markdown] of MARKDOWN.filter(([n]) => !DANGEROUS_MARKDOWN.some(([d]) => d === n))) {
      expect(rewriteSerializedLinks(renderMarkdownBody(markdown).html, () => null), name).not.toBeNull();
    }
  });

  it.each([
    ['a comment', '<p>a</p><!-- <a href="x"> -->'],
    ['a script', '<script>if (a < b) x("<a href=\'y\'>")</script>'],
    ['a < that opens no tag', '<p>a < b</p>'],
    ['an unquoted value', '<a href=x>y</a>'],
    ['a single-quoted value', "<a href='x'>y</a>"],
    ['a named reference in a value', '<a href="x?a=1&amp;b=2">y</a>'],
    ['an unterminated value', '<a href="x>y</a>'],
  ])('leaves HTML it does not read to the parser: %s', (_name, html) => {
    expect(rewriteSerializedLinks(html, () => 'z')).toBeNull();
  });

  it('keeps every byte but the values it rewrites, and writes them as the serialiser does', () => {
    const html = '<p class="x" hidden><a href="./a?b=1&#x26;c=2" title="t">a</a> <img src="i.png" alt=""></p>';
    expect(rewriteSerializedLinks(html, (v) => (v.startsWith('./') ? `/abs/${v.slice(2)}&"'\`` : null))).toBe(
      '<p class="x" hidden><a href="/abs/a?b=1&#x26;c=2&#x26;&#x22;&#x27;&#x60;" title="t">a</a> <img src="i.png" alt=""></p>',
    );
    expect(encodeValue('a\0b')).toBe('a&#x0;b');
  });
});
