/**
 * Parse/serialise processors shared by the body module.
 *
 * Built once at module load and frozen: configuring unified plugins is far
 * more expensive than running them, and bodies are processed on hot paths.
 * @module
 */

// micromark's event edits in linear time (issue 40): before any Markdown is parsed.
import './micromark-linear-edits.ts';
import type { Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { unified } from 'unified';
import type { Node, Point } from 'unist';
import { markdownSegments } from './markdown-segments.ts';
import { parseGfm } from './gfm-parser.ts';

/**
 * How canonical Markdown is written, whenever we have to write it ourselves.
 * Fixed so that stored bodies look alike whoever produced them.
 */
export const MARKDOWN_STYLE: Readonly<StringifyOptions> = Object.freeze({
  bullet: '-',
  emphasis: '_',
  strong: '*',
  fence: '`',
  fences: true,
  setext: false,
});

const markdownSerializer = unified().use(remarkGfm).use(remarkStringify, MARKDOWN_STYLE).freeze();
const htmlFragmentParser = unified().use(rehypeParse, { fragment: true }).freeze();
const htmlSerializer = unified().use(rehypeStringify).freeze();

/**
 * Parses Markdown (CommonMark + GFM) to mdast. A long body is parsed part by
 * part (`markdown-segments.ts`), to the same tree: what micromark spends on
 * a part is bounded by that part.
 */
export function parseMarkdown(markdown: string): MdastRoot {
  const starts = markdownSegments(markdown);
  if (starts.length === 1) return parseGfm(markdown);
  const parts = starts.map((start, i) => parseMarkdownPart(markdown.slice(start, starts[i + 1] ?? markdown.length), i < starts.length - 1));
  return parts.includes(null) ? parseGfm(markdown) : joinParsedSegments(markdown, starts, parts as MdastRoot[]);
}

// What follows a part that is not the last: a line as the next part begins (a letter in the first column,
// after the blank line the part ends with), so that what is open at the part's end closes as it does in the
// whole body. At the end of the text, a raw HTML block in a list item would keep the blank line instead.
const NEXT_PART = 'a';

/**
 * Parses one part of a body (`markdownSegments`). `followed`: a part comes
 * after it. Null when the part did not parse as the scan expected (its
 * follower did not stay a paragraph of its own); the caller then parses
 * the whole body.
 */
export function parseMarkdownPart(part: string, followed = false): MdastRoot | null {
  if (!followed) return parseGfm(part);
  const tree = parseGfm(part + NEXT_PART);
  const last = tree.children.pop();
  const text = last?.type === 'paragraph' && last.children.length === 1 ? last.children[0] : undefined;
  if (text?.type !== 'text' || text.value !== NEXT_PART || last!.position?.start.offset !== part.length) return null;
  if (tree.position) tree.position.end = { line: last!.position.start.line, column: 1, offset: part.length };
  return tree;
}

/**
 * The tree of the whole `markdown` from the trees of its parts, cut at
 * `starts` (`markdownSegments`): their children in order, positions moved
 * by the lines and characters before each part (parts begin at a line's
 * first column, so columns stay).
 */
export function joinParsedSegments(markdown: string, starts: readonly number[], parts: readonly MdastRoot[]): MdastRoot {
  const root = parts[0]!;
  let line = 0;
  let counted = 0;
  for (let i = 1; i < parts.length; i++) {
    const start = starts[i]!;
    for (let at = markdown.indexOf('\n', counted); at !== -1 && at < start; at = markdown.indexOf('\n', at + 1)) line++;
    counted = start;
    for (const child of parts[i]!.children) {
      shiftPositions(child, line, start);
      root.children.push(child);
    }
  }
  const last = parts[parts.length - 1]!.position;
  if (root.position && last) root.position.end = movedPoint(last.end, line, starts[starts.length - 1]!);
  return root;
}

function movedPoint(point: Point, lines: number, offset: number): Point {
  return { line: point.line + lines, column: point.column, offset: point.offset === undefined ? undefined : point.offset + offset };
}

function shiftPositions(node: Node, lines: number, offset: number): void {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at.position) at.position = { start: movedPoint(at.position.start, lines, offset), end: movedPoint(at.position.end, lines, offset) };
    const children = (at as { children?: Node[] }).children;
    if (children) for (const child of children) stack.push(child);
  }
}

/** Writes mdast as canonical Markdown (see `MARKDOWN_STYLE`). */
export function stringifyMarkdown(tree: MdastRoot): string {
  return markdownSerializer.stringify(tree);
}

/** Parses an HTML fragment (no implied html/head/body) to hast. */
export function parseHtmlFragment(html: string): HastRoot {
  return htmlFragmentParser.parse(html);
}

/** Serialises hast to HTML. */
export function stringifyHtml(tree: HastRoot): string {
  return htmlSerializer.stringify(tree);
}
