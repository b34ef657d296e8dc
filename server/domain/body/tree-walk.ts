/**
 * Minimal depth-first walkers.
 *
 * unist-util-visit is general (tests, skip/exit, ancestor stacks) and that
 * generality costs measurably on every render; the body rules only ever
 * need "every node" or "every element", so these plain recursions suffice.
 * @module
 */

import type { Element, Parents as HastParents } from 'hast';
import type { Node, Parent } from 'unist';

/** Calls `fn` for every node below and including `node`, parents first. */
export function eachNode(node: Node, fn: (node: Node, parent: Parent | undefined) => void, parent?: Parent): void {
  fn(node, parent);
  const children = (node as Partial<Parent>).children;
  if (!children) return;
  for (const child of children) eachNode(child, fn, node as Parent);
}

/** Calls `fn` for every hast element below `tree`, with its parent. */
export function eachElement(tree: HastParents, fn: (element: Element, parent: HastParents) => void): void {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    fn(child, tree);
    eachElement(child, fn);
  }
}
