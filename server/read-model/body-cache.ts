/**
 * Rendered bodies by content hash. Rendering Markdown is most of the cost of
 * a page, and most bodies do not change between builds, so the builder keeps
 * one cache for its whole life. Bounded so a very large site cannot exhaust
 * memory; least recently used entries go first.
 * @module
 */

import type { RenderedBody } from '../domain/body/index.ts';

export type { RenderedBody };

/** A bounded cache of rendered bodies. */
export interface BodyCache {
  /** The rendering of `markdown` (whose hash is `hash`), rendering it on a miss. */
  get(hash: string, markdown: string, render: (markdown: string) => RenderedBody): RenderedBody;
  readonly size: number;
}

/**
 * Creates a cache.
 * @param maxEntries how many bodies to keep (default 20,000: about two per article of a 10k-article site).
 */
export function createBodyCache(maxEntries = 20_000): BodyCache {
  const entries = new Map<string, RenderedBody>();
  return {
    get(hash, markdown, render) {
      const hit = entries.get(hash);
      if (hit) {
        // Re-insert to mark as most recently used (Map keeps insertion order).
        entries.delete(hash);
        entries.set(hash, hit);
        return hit;
      }
      const value = render(markdown);
      entries.set(hash, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
