import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { ordinaryMarkdown } from '../../../test/support/ordinary-markdown.ts';
import { markdownDivision, markdownSegments } from './markdown-segments.ts';
import { joinParsedSegments, parseMarkdown, parseMarkdownPart } from './processors.ts';

/** The tree of `markdown` parsed part by part, cut at every place `markdownSegments` allows. */
function cutParse(markdown: string): { tree: Root; parts: number } {
  const starts = markdownSegments(markdown, 1);
  const parts = starts.map((start, i) => parseMarkdownPart(markdown.slice(start, starts[i + 1] ?? markdown.length), i < starts.length - 1));
  expect(parts).not.toContain(null);
  return { tree: joinParsedSegments(markdown, starts, parts as Root[]), parts: starts.length };
}

// Blocks that end, or do not end, at a blank line; the cut must follow every one.
const BLOCKS = [
  'A paragraph with *emphasis*, `code` and a [link](https://example.com).',
  'Another paragraph\nover two lines with https://example.com/autolink and www.example.org.',
  '## A heading',
  'Setext heading\n===',
  '- a list\n- of items',
  '- a loose list\n\n- of items',
  '1. ordered\n2. list',
  '- item\n\n  continued in the item\n\n  ```\n  indented fence\n\n  Letter inside\n  ```',
  '- item with a fence\n  ```\n  code\n\nLetter after the item\n  ```',
  '> a quote\n> on lines',
  '> a quote with a lazy\nline',
  '> ```\n> fenced in a quote\n\nLetter after the quote',
  '```js\nconst fenced = 1;\n\nLetter inside the fence\n```',
  '~~~\ntilde fence\n\nLetter inside\n~~~',
  '````\n```\n\nLetter inside a longer fence\n```\n````',
  '```\nunclosed at first\n\nLetter still inside\n``` not a closer\n\nLetter inside too\n```',
  '``` `not a fence` ```\n\nLetter after inline code',
  '   ```\nindented fence\n\nLetter inside\n```',
  '    indented code\n\n    more code\n\nLetter after code',
  '<div>\n```\n\nLetter after the HTML block\n```',
  '<div>\n\nLetter after a div',
  '<pre>\nraw\n\nLetter inside pre\n</pre>',
  '<pre>on one line</pre>\n\nLetter after pre',
  '<!-- a comment\n\nLetter inside the comment\n-->',
  '<!-->\n\nLetter after an empty comment',
  '<?php\n\nLetter inside\n?>',
  '<!DOCTYPE html\n\nLetter inside\n>',
  '<![CDATA[\n\nLetter inside\n]]>',
  '<span>inline</span> at the start\n```\ncode\n\nLetter inside\n```',
  '<script>\n\nLetter in a script\n</script>',
  '  <style>\n\nLetter in a style\n</style>',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  '- [ ] task\n- [x] done',
  'Text with ~~strike~~ and a footnote ref[^1] without definition.',
  '***',
  '\tTabbed code\n\nLetter after',
  '-\n\n  item after a blank start',
  '* * *',
  '- <pre>\n\nLetter after the item',
  '> <div>\n```\ncode\n\nLetter inside\n```',
  '- <div>\n```\ncode\n\nLetter inside\n```',
  'Paragraph\n```\nfence interrupting it\n\nLetter inside\n```',
  '- item\n```\nfence after a list\n\nLetter inside\n```',
  '<div>\n\n```\nfence after HTML\n\nLetter inside\n```',
  'Paragraph\n<!-- comment interrupting it\n\nLetter inside\n-->',
  '<table><tr><td>\n\nLetter after\n\n</td></tr></table>',
  '<custom-tag>\n\nLetter after',
  '   <div>\n\nLetter after',
  'a\n---\n\nLetter after',
  '> quote\n\n> another quote',
  '- list\n\n\n- after two blank lines',
  '1) item\n\n   ```\n   in item\n   ```\n\nLetter after',
  '- ```\n  fence on the marker line\n\n  more\n\nLetter after',
  '> quote\n>\n> same quote\n\nLetter after',
  '- nested\n  - deeper\n    - deepest\n\nLetter after',
  'Hard break  \nand a \\\nbackslash break',
  '&amp; &#35; &copy; entities',
  '<https://example.com> and <mail@example.com>',
  '![image](/x.png "title")',
];

// The blocks that stop the cutting (ambiguous to the scan): a soup without them is cut at every chance.
const STOPPERS = new Set([7, 8, 17, 19, 24, 28, 30, 51]);

/** A deterministic soup of `count` blocks, joined by a blank line or (one time in `1 - blankJoins`) a single newline. */
function soup(seed: number, count: number, blocks: readonly string[] = BLOCKS, blankJoins = 0.85): string {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(blocks[Math.floor(random() * blocks.length)]!);
    out.push(random() < blankJoins ? '\n\n' : '\n');
  }
  return out.join('');
}

describe('markdownSegments', () => {
  it('cuts only after a blank line, before a letter in the first column, once a part holds the target', () => {
    const text = 'Alpha\n\nBeta\n\n- list\n\nGamma\n';
    expect(markdownSegments(text, 1)).toEqual([0, 7, 21]);
    expect(markdownSegments(text, 10)).toEqual([0, 21]);
    expect(markdownSegments(text, 1000)).toEqual([0]);
  });

  // What stops the division, and the reason the body limits then give (`DivisionStop`).
  it.each([
    ['a definition anywhere', 'Alpha\n\nBeta [x]\n\n[x]: /url\n', 'reference definition'],
    ['a footnote definition', 'Alpha[^1]\n\nBeta\n\n[^1]: note\n', 'reference definition'],
    ['a carriage return', 'Alpha\r\n\r\nBeta\r\n', 'carriage return'],
    ['an indented fence (it may sit in a list item)', 'Alpha\n\n  ```\n\nBeta\n\nGamma\n', 'indented code fence'],
    ['a fence inside what may be an HTML block', 'Alpha\n\n<div>\n```\n\nBeta\n\nGamma\n', 'code fence follows an HTML line'],
    ['a comment whose end overlaps its start', 'Alpha\n\n<!-->\n\nBeta\n\nGamma\n', '<!-->'],
  ])('makes one part of a body with %s, and says why', (_, text, why) => {
    expect(markdownSegments(text, 1)).toEqual([0]);
    expect(markdownDivision(text, 1).stop?.why).toContain(why);
  });

  it.each([
    ['a fence', '```\n\nInside\n```\n\nAfter\n'],
    ['a longer fence closed by its own length only', '````\n```\n\nInside\n````\n\nAfter\n'],
    ['a raw <pre>', '<pre>\n\nInside\n</pre>\n\nAfter\n'],
    ['a comment', '<!--\n\nInside\n-->\n\nAfter\n'],
  ])('does not cut inside %s', (_, text) => {
    expect(markdownSegments(text, 1)).toEqual([0, text.indexOf('After')]);
  });

  it('cuts before what stops it, and names its place', () => {
    const text = 'Alpha\n\nBeta\n\n  ```\n\nGamma\n';
    expect(markdownDivision(text, 1)).toEqual({ starts: [0, 7], stop: { offset: 13, why: expect.stringContaining('indented code fence') } });
    expect(markdownDivision('Alpha\n\nBeta\n', 1).stop).toBeNull();
  });
});

describe('a body parsed part by part', () => {
  it.each([1, 2, 3, 5, 8, 13, 21, 34, 55, 89])('is the tree of the whole body (block soup, seed %i)', (seed) => {
    const text = soup(seed, 120);
    const { tree } = cutParse(text);
    expect(tree).toEqual(parseMarkdownPart(text));
  });

  it.each([1, 2, 3, 5, 8, 13, 21, 34, 55, 89])('is the tree of the whole body, cut in many parts (block soup without stoppers, seed %i)', (seed) => {
    const text = soup(seed, 200, BLOCKS.filter((_, i) => !STOPPERS.has(i)), 1);
    const { tree, parts } = cutParse(text);
    expect(parts).toBeGreaterThan(20);
    expect(tree).toEqual(parseMarkdownPart(text));
  });

  it.each(BLOCKS.map((block, i) => [i, block] as const))('is the tree of the whole body around block %i', (_, block) => {
    const text = `First paragraph.\n\n${block}\n\nLetter after.\n\n${block}\n${block}\n\nLast paragraph.\n`;
    const { tree } = cutParse(text);
    expect(tree).toEqual(parseMarkdownPart(text));
  });

  it('is the tree of ordinary Markdown, cut into many parts', () => {
    const text = ordinaryMarkdown(60_000);
    const { tree, parts } = cutParse(text);
    expect(parts).toBeGreaterThan(50);
    expect(tree).toEqual(parseMarkdownPart(text));
  });

  it('is what parseMarkdown answers for a long body (cut at the default target)', () => {
    const text = ordinaryMarkdown(400_000);
    expect(markdownSegments(text).length).toBeGreaterThan(2);
    expect(parseMarkdown(text)).toEqual(parseMarkdownPart(text));
  });
});
