/**
 * Works out what the sanitiser removed, for the BODY_HTML_REMOVED warning.
 *
 * hast-util-sanitize does not report what it drops, and mirroring its rules
 * here would drift. Instead we count elements and attributes before and
 * after sanitising and describe the difference.
 * @module
 */

import type { Element, Root } from 'hast';
import { eachNode } from './tree-walk.ts';

/** Counts of what an HTML tree contains. */
export interface HtmlInventory {
  elements: Map<string, number>;
  /** Keyed by tag name and hast property name, separated by a space. */
  attributes: Map<string, number>;
  comments: number;
}

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Counts elements, attributes and comments in a tree. */
export function takeInventory(tree: Root): HtmlInventory {
  const inventory: HtmlInventory = { elements: new Map(), attributes: new Map(), comments: 0 };
  eachNode(tree, (node) => {
    if (node.type === 'comment') inventory.comments++;
    if (node.type !== 'element') return;
    const element = node as Element;
    increment(inventory.elements, element.tagName);
    for (const [name, value] of Object.entries(element.properties)) {
      if (value !== undefined && value !== null && value !== false) increment(inventory.attributes, `${element.tagName} ${name}`);
    }
  });
  return inventory;
}

// hast property names are camelCase; publishers know the HTML spelling.
function attributeName(property: string): string {
  if (property === 'className') return 'class';
  if (property === 'htmlFor') return 'for';
  if (/^(data|aria)[A-Z0-9]/.test(property)) {
    return property.slice(0, 4) + property.slice(4).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  }
  return property.toLowerCase();
}

// The sanitiser drops these when the URL has a disallowed scheme such as
// `javascript:`; saying so is more helpful than just naming the attribute.
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite', 'longdesc']);

/**
 * Describes what disappeared between two inventories, sorted for stable
 * messages: `<iframe>`, `<script>`, `onclick attribute`, `comments`.
 * Attributes of dropped elements are not listed separately (the element
 * is), and `dir` is left out because it has its own warning.
 */
export function describeRemovals(before: HtmlInventory, after: HtmlInventory): string[] {
  const elements = new Set<string>();
  for (const [tag, count] of before.elements) {
    if ((after.elements.get(tag) ?? 0) < count) elements.add(tag);
  }
  const attributes = new Set<string>();
  for (const [key, count] of before.attributes) {
    const [tag = '', property = ''] = key.split(' ');
    if (property === 'dir' || elements.has(tag)) continue;
    if ((after.attributes.get(key) ?? 0) < count) attributes.add(attributeName(property));
  }
  const parts = [
    ...[...elements].sort().map((tag) => `<${tag}>`),
    ...[...attributes].sort().map((name) => (URL_ATTRIBUTES.has(name) ? `${name} attribute (unsafe URL)` : `${name} attribute`)),
  ];
  if (after.comments < before.comments) parts.push('comments');
  return parts;
}
