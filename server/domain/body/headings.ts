/**
 * Heading rules shared by both input formats.
 *
 * The title is stored apart from the body and rendered as the page's only
 * H1, so a body must neither contain an H1 nor start by repeating the title.
 * This file holds the text comparison and the HTML (hast) side; the
 * Markdown side lives in `markdown-input.ts`.
 * @module
 */

import type { Element, ElementContent, Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';
import { stripBidiControls } from './bidi.ts';
import { eachElement } from './tree-walk.ts';

const HEADING_TAG = /^h[1-6]$/;

// Wrappers that do not count as "the first block" themselves: editors often
// wrap a whole pasted article in one of these.
const TRANSPARENT_WRAPPERS = new Set(['div', 'section']);

/**
 * Canonical form used to compare a heading with the title: trimmed,
 * whitespace collapsed, case-folded, NFC, and without bidi controls (which
 * are stripped from the body but not from the title, so they must not make
 * an otherwise identical heading differ).
 */
export function normaliseHeadingText(text: string): string {
  return stripBidiControls(text).text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** True when heading text repeats the title. An empty title matches nothing. */
export function headingRepeatsTitle(headingText: string, title: string): boolean {
  const wanted = normaliseHeadingText(title);
  return wanted !== '' && normaliseHeadingText(headingText) === wanted;
}

/** True for h1–h6 elements. */
export function isHeadingElement(node: RootContent | ElementContent): node is Element {
  return node.type === 'element' && HEADING_TAG.test(node.tagName);
}

function isBlank(node: RootContent | ElementContent): boolean {
  return (node.type === 'text' && node.value.trim() === '') || node.type === 'comment';
}

/**
 * Removes the body's first block when it is a heading repeating the title,
 * in place. Looks through leading div/section wrappers.
 * @returns whether a heading was removed.
 */
export function removeTitleHeadingHast(tree: Root | Element, title: string): boolean {
  const children: Array<RootContent | ElementContent> = tree.children;
  const index = children.findIndex((node) => !isBlank(node));
  const first = children[index];
  if (!first || first.type !== 'element') return false;
  if (HEADING_TAG.test(first.tagName)) {
    if (!headingRepeatsTitle(toString(first), title)) return false;
    children.splice(index, 1);
    return true;
  }
  return TRANSPARENT_WRAPPERS.has(first.tagName) ? removeTitleHeadingHast(first, title) : false;
}

/**
 * Renames every `h1` to `h2`, in place, keeping attributes (a valid `dir`
 * stays valid since h2 accepts it).
 * @returns how many were renamed.
 */
export function demoteH1Hast(tree: Root): number {
  let count = 0;
  eachElement(tree, (element: Element) => {
    if (element.tagName === 'h1') {
      element.tagName = 'h2';
      count++;
    }
  });
  return count;
}
