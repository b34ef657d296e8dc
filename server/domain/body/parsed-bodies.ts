/**
 * Trees of bodies parsed while they were normalised, kept for the render
 * that follows in the same save.
 *
 * A save parses a Markdown body to apply the heading and bidi rules
 * (`normaliseMarkdownBody`), then renders the stored Markdown to HTML and
 * text (`renderMarkdownBody`); parsing is most of either. When the stored
 * Markdown is exactly the text that was parsed, the second parse would build
 * the same tree, so the first is handed over instead. Keyed by the exact
 * Markdown, taken once, and only the last few are kept (one save's
 * translations), so a body never saved costs nothing lasting.
 * @module
 */
import type { Root } from 'mdast';

const MAX_KEPT = 8;
const kept = new Map<string, Root>();

/** Keeps `tree`, the untouched parse of exactly `markdown`, for one later `takeParsedBody(markdown)`. */
export function keepParsedBody(markdown: string, tree: Root): void {
  kept.delete(markdown);
  kept.set(markdown, tree);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** The kept parse of exactly `markdown`, removed from the keep (a render may change the tree); undefined when none. */
export function takeParsedBody(markdown: string): Root | undefined {
  const tree = kept.get(markdown);
  if (tree) kept.delete(markdown);
  return tree;
}
