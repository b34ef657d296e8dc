/**
 * Small rehype plugins used by the renderer.
 *
 * Each is a plain attacher with no options so the render processor can be
 * built once at module load; per-call work is only the tree walk.
 * @module
 */

import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeRaw from 'rehype-raw';
import { stripBidiInTree } from './bidi.ts';
import { enforceDir } from './dir.ts';
import { demoteH1Hast } from './headings.ts';
import { ARTICLE_SCHEMA, DIR_BLOCK_TAGS } from './schema.ts';
import { eachElement } from './tree-walk.ts';

const rawTransform = rehypeRaw();

function containsRaw(node: Root | Element): boolean {
  return node.children.some((child) => child.type === 'raw' || (child.type === 'element' && containsRaw(child)));
}

/**
 * rehype-raw, skipped when the Markdown had no raw HTML: it re-parses the
 * whole tree through parse5, which is the costliest step after parsing and
 * is pure overhead for the many bodies that are plain Markdown.
 */
export function rehypeRawIfNeeded() {
  return (tree: Root, file: Parameters<typeof rawTransform>[1]): Root =>
    containsRaw(tree) ? rawTransform(tree, file) : tree;
}

/**
 * Strips bidi controls again at render time: bodies stored before the rule
 * existed, or controls hidden in raw HTML as character references, must not
 * reach readers either.
 */
export function rehypeStripBidi() {
  return (tree: Root): void => {
    stripBidiInTree(tree);
  };
}

/** Demotes stray H1s (e.g. from raw HTML) so the title stays the only H1. */
export function rehypeDemoteH1() {
  return (tree: Root): void => {
    demoteH1Hast(tree);
  };
}

/** Applies the `dir` rule (lowercasing valid values) before sanitising. */
export function rehypeEnforceDir() {
  return (tree: Root): void => {
    enforceDir(tree, { blockTags: DIR_BLOCK_TAGS });
  };
}

const CLOBBER_PREFIX = ARTICLE_SCHEMA.clobberPrefix ?? '';

/**
 * The sanitiser prefixes every id with `user-content-` (DOM clobbering
 * protection) but leaves `href="#id"` alone, which breaks footnotes and
 * in-page links. Points such links at the prefixed id, but only when that
 * id exists, so links to page-level anchors outside the body still work.
 */
export function rehypeLinkClobberedIds() {
  return (tree: Root): void => {
    if (!CLOBBER_PREFIX) return;
    const ids = new Set<string>();
    eachElement(tree, (element: Element) => {
      const id = element.properties['id'];
      if (typeof id === 'string') ids.add(id);
    });
    if (ids.size === 0) return;
    eachElement(tree, (element: Element) => {
      const href = element.properties['href'];
      if (element.tagName !== 'a' || typeof href !== 'string' || !href.startsWith('#')) return;
      const target = href.slice(1);
      if (!target.startsWith(CLOBBER_PREFIX) && ids.has(CLOBBER_PREFIX + target)) {
        element.properties['href'] = `#${CLOBBER_PREFIX}${target}`;
      }
    });
  };
}

const URL_LIKE = /^(?:[a-z][a-z\d+.-]*:\/\/\S+|www\.\S+|mailto:\S+)$/i;
const EMAIL_LIKE = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** True when link text reads as a URL or an e-mail address. */
export function looksLikeUrlOrEmail(text: string): boolean {
  const trimmed = text.trim();
  return URL_LIKE.test(trimmed) || EMAIL_LIKE.test(trimmed);
}

/**
 * Marks code, URLs and e-mail addresses as left-to-right: inside RTL text
 * the bidi algorithm would otherwise reorder their punctuation (a URL's
 * slashes and dots), making them unreadable or misleading. A `pre` whose
 * author set `dir` keeps it, since the dir rule explicitly allows that.
 */
export function rehypeLtrIslands() {
  return (tree: Root): void => {
    eachElement(tree, (element: Element, parent) => {
      if (element.tagName === 'pre') {
        if (element.properties['dir'] === undefined) element.properties['dir'] = 'ltr';
      } else if (element.tagName === 'code') {
        const inPre = parent.type === 'element' && parent.tagName === 'pre';
        if (!inPre) element.properties['dir'] = 'ltr';
      } else if (element.tagName === 'a' && looksLikeUrlOrEmail(toString(element))) {
        element.properties['dir'] = 'ltr';
      }
    });
  };
}

const ALIGN_VALUES: ReadonlySet<string> = new Set(['left', 'center', 'right']);

/**
 * What the sanitised tree needs to be valid and accessible HTML, applied
 * after sanitising (so these attributes are ours, not the author's):
 * - table cells' `align` (GFM column alignment, or raw HTML) is obsolete
 *   in HTML: it becomes the class `align-left|center|right` (styled in
 *   `src/styles/site.css`; an inline `style` would need the CSP to allow it);
 * - a `<pre>` or a `<table>` may scroll sideways (`src/styles/site.css`), and
 *   a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe
 *   `scrollable-region-focusable`): they get `tabindex="0"`.
 */
export function rehypeAccessibleMarkup() {
  return (tree: Root): void => {
    eachElement(tree, (el) => {
      if (el.tagName === 'td' || el.tagName === 'th') {
        const align = el.properties.align;
        if (align === undefined) return;
        delete el.properties.align;
        const value = String(align).trim().toLowerCase();
        if (ALIGN_VALUES.has(value)) el.properties.className = [`align-${value}`];
      } else if (el.tagName === 'pre' || el.tagName === 'table') {
        el.properties.tabIndex = 0;
      }
    });
  };
}
