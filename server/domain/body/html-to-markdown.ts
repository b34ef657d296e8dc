/**
 * Conversion of sanitised HTML (hast) to Markdown.
 *
 * Markdown cannot express `dir`, so a block that carries a kept `dir` is
 * written as a raw HTML block instead; rendering then reproduces it. A few
 * other things Markdown lacks (sized images, sup/sub) are kept as inline
 * HTML for the same reason: the stored body must not silently lose meaning.
 * @module
 */

import type { Element, Root } from 'hast';
import { defaultHandlers, toMdast, type Handle, type State } from 'hast-util-to-mdast';
import type { Html, Root as MdastRoot } from 'mdast';
import { stringifyHtml, stringifyMarkdown } from './processors.ts';
import { DIR_BLOCK_TAGS } from './schema.ts';

function hasDir(element: Element): boolean {
  return typeof element.properties['dir'] === 'string';
}

function hasDirDescendant(element: Element): boolean {
  return element.children.some((child) => child.type === 'element' && (hasDir(child) || hasDirDescendant(child)));
}

/**
 * Serialises an element as a raw HTML block safe to embed in Markdown.
 * A CommonMark HTML block ends at the first blank line, so blank lines in
 * the HTML (inside `pre`, or whitespace between children) are rewritten
 * with `&#10;` for the line break: the same text once parsed, but the line
 * is no longer blank.
 */
export function toRawHtml(element: Element): string {
  const html = stringifyHtml({ type: 'root', children: [element] });
  return html.replace(/\n([ \t]*)\n/g, '\n$1&#10;').replace(/\s+$/, '');
}

function rawHtml(state: State, element: Element): Html {
  const node: Html = { type: 'html', value: toRawHtml(element) };
  state.patch(element, node);
  return node;
}

function fallback(tagName: string): Handle {
  const handle = defaultHandlers[tagName as keyof typeof defaultHandlers] as Handle | undefined;
  return handle ?? ((state, element) => state.toFlow(state.all(element)));
}

// Writes the element as raw HTML when `needsHtml` says Markdown would lose
// something, otherwise converts it as usual.
function htmlWhen(tagName: string, needsHtml: (element: Element) => boolean): Handle {
  const base = fallback(tagName);
  return (state, element, parent) => (needsHtml(element) ? rawHtml(state, element) : base(state, element, parent));
}

function wrapInline(tagName: string): Handle {
  return (state, element) => [
    { type: 'html', value: `<${tagName}>` },
    ...state.all(element),
    { type: 'html', value: `</${tagName}>` },
  ];
}

const handlers: Record<string, Handle> = {};
for (const tag of DIR_BLOCK_TAGS) handlers[tag] = htmlWhen(tag, hasDir);
// Lists and tables are rebuilt from their items/cells, so a `dir` on an
// item or cell can only be kept by writing the whole container as HTML.
const listNeedsHtml = (element: Element): boolean =>
  hasDir(element) || element.children.some((child) => child.type === 'element' && child.tagName === 'li' && hasDir(child));
handlers['ul'] = htmlWhen('ul', listNeedsHtml);
handlers['ol'] = htmlWhen('ol', listNeedsHtml);
// Any `dir` inside a table forces HTML: a raw block inside a GFM cell
// could contain `|` or line breaks and break the table.
handlers['table'] = htmlWhen('table', (element) => hasDir(element) || hasDirDescendant(element));
handlers['img'] = htmlWhen(
  'img',
  (element) => element.properties['width'] !== undefined || element.properties['height'] !== undefined,
);
// The sanitiser drops unsafe hrefs (`javascript:`); what remains is text,
// not a Markdown link pointing nowhere.
const linkHandler = fallback('a');
handlers['a'] = (state, element, parent) =>
  typeof element.properties['href'] === 'string' ? linkHandler(state, element, parent) : state.all(element);
handlers['sup'] = wrapInline('sup');
handlers['sub'] = wrapInline('sub');

/** Converts a sanitised HTML tree to canonical Markdown (GFM, see `MARKDOWN_STYLE`). */
export function hastToMarkdown(tree: Root): string {
  const mdast = toMdast(tree, { handlers }) as MdastRoot;
  return stringifyMarkdown(mdast);
}
