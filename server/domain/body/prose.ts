/**
 * A body's prose: the text of its paragraphs, and nothing else. Headings,
 * tables, code blocks, lists, quotes and images are left out, so a summary
 * cut from it reads as sentences rather than as "Observations Temperature:
 * 10 °C Time Reading 06:00 print(…)". Made from the rendered tree when the
 * body is rendered, and kept with it (`content_prose`).
 * @module
 */
import type { Element, ElementContent, Root } from 'hast';

/** Code points of prose kept: more than any summary needs (300), with room to cut at a sentence. */
export const PROSE_MAX_CHARS = 400;

/** A footnote reference (`<sup><a href="#…">1</a></sup>`): its number is not prose. */
function isFootnoteReference(node: Element): boolean {
  return node.tagName === 'sup' && node.children.some((c) => c.type === 'element' && c.tagName === 'a' && String(c.properties['href'] ?? '').startsWith('#'));
}

/**
 * The first `max` code points of `text` (all of it when shorter): counted
 * in code points so a cut never splits a surrogate pair.
 */
export function firstCodePoints(text: string, max: number): string {
  return text.length <= max ? text : Array.from(text.slice(0, max * 2)).slice(0, max).join('');
}

function textOf(node: Element | ElementContent, out: string[]): void {
  if (node.type === 'text') out.push(node.value);
  // A line break inside a paragraph separates words; an image's alt text is not prose.
  else if (node.type === 'element' && node.tagName === 'br') out.push(' ');
  else if (node.type === 'element' && !isFootnoteReference(node)) for (const child of node.children) textOf(child, out);
}

/**
 * The text of the body's top-level paragraphs, in order, whitespace
 * collapsed, at most `PROSE_MAX_CHARS` code points (cut only by the
 * summary, which marks a cut). '' when the body has no paragraph with text.
 */
export function proseOf(tree: Root): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (const node of tree.children) {
    if (node.type !== 'element' || node.tagName !== 'p') continue;
    const out: string[] = [];
    textOf(node, out);
    const text = out.join('').replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    paragraphs.push(text);
    length += text.length + 1;
    if (length > PROSE_MAX_CHARS * 2) break;
  }
  return firstCodePoints(paragraphs.join(' '), PROSE_MAX_CHARS);
}
