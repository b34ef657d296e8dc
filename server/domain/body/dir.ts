/**
 * Enforcement of the `dir` rule on HTML trees.
 *
 * Runs before the sanitiser, which also restricts `dir`, because the
 * sanitiser is silent and case-sensitive: we want `RTL` to become `rtl`
 * rather than vanish, and we want to count removals to warn the publisher.
 * @module
 */

import type { Element, Root } from 'hast';
import { eachElement } from './tree-walk.ts';
import { normaliseDir } from './schema.ts';

/** Options for `enforceDir`. */
export interface EnforceDirOptions {
  /** Elements that may keep a valid `dir`. */
  blockTags: ReadonlySet<string>;
  /**
   * Elements to leave alone because the sanitiser will drop them anyway;
   * their loss is reported as removed HTML, not as a removed `dir`.
   */
  ignore?: (element: Element) => boolean;
}

/**
 * Normalises `dir` to lowercase where allowed and removes it elsewhere, in
 * place.
 * @returns how many `dir` attributes were removed.
 */
export function enforceDir(tree: Root, options: EnforceDirOptions): number {
  let removed = 0;
  eachElement(tree, (element: Element) => {
    const raw = element.properties['dir'];
    if (raw === undefined || raw === null) return;
    if (options.ignore?.(element)) return;
    const value = options.blockTags.has(element.tagName) ? normaliseDir(raw) : null;
    if (value) {
      element.properties['dir'] = value;
    } else {
      delete element.properties['dir'];
      removed++;
    }
  });
  return removed;
}
