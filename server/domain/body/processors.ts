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
import remarkParse from 'remark-parse';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { unified } from 'unified';

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

const markdownParser = unified().use(remarkParse).use(remarkGfm).freeze();
const markdownSerializer = unified().use(remarkGfm).use(remarkStringify, MARKDOWN_STYLE).freeze();
const htmlFragmentParser = unified().use(rehypeParse, { fragment: true }).freeze();
const htmlSerializer = unified().use(rehypeStringify).freeze();

/** Parses Markdown (CommonMark + GFM) to mdast. */
export function parseMarkdown(markdown: string): MdastRoot {
  return markdownParser.parse(markdown);
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
