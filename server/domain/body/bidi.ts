/**
 * Bidi override and embedding controls (U+202A–U+202E, U+2066–U+2069).
 *
 * They are invisible and can reorder what readers see versus what is stored
 * ("Trojan Source"-style spoofing), and an unbalanced one leaks its effect
 * into the surrounding page. Direction is expressed with `dir` on blocks
 * instead; the plain marks RLM/LRM (U+200F/U+200E) are harmless and stay.
 * @module
 */

import type { Node } from 'unist';
import { eachNode } from './tree-walk.ts';

const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
// Non-global twin for the fast path: almost no text contains controls, and
// a test is much cheaper than a replace with a callback.
const HAS_BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** Removes bidi controls from a string; `count` is how many were removed. */
export function stripBidiControls(text: string): { text: string; count: number } {
  if (!HAS_BIDI_CONTROL.test(text)) return { text, count: 0 };
  let count = 0;
  const stripped = text.replace(BIDI_CONTROLS, () => {
    count++;
    return '';
  });
  return { text: stripped, count };
}

// Fields that carry decoded text in mdast (value, url, title, alt, lang, meta)
// and hast (value). Character references such as `&#x202E;` only turn into
// controls once parsed, so stripping the raw source alone would miss them.
const TEXT_FIELDS = ['value', 'url', 'title', 'alt', 'lang', 'meta'] as const;

/**
 * Strips bidi controls from every text field and hast property of a tree,
 * in place. Works for both mdast and hast since it only touches strings.
 * @returns how many controls were removed.
 */
export function stripBidiInTree(tree: Node): number {
  let count = 0;
  const clean = (value: string): string => {
    if (!HAS_BIDI_CONTROL.test(value)) return value;
    const result = stripBidiControls(value);
    count += result.count;
    return result.text;
  };
  eachNode(tree, (node) => {
    const record = node as unknown as Record<string, unknown>;
    for (const field of TEXT_FIELDS) {
      const value = record[field];
      if (typeof value === 'string') record[field] = clean(value);
    }
    const properties = record['properties'];
    if (properties && typeof properties === 'object') {
      const props = properties as Record<string, unknown>;
      for (const [key, value] of Object.entries(props)) {
        if (typeof value === 'string') props[key] = clean(value);
        else if (Array.isArray(value)) props[key] = value.map((item) => (typeof item === 'string' ? clean(item) : item));
      }
    }
  });
  return count;
}
