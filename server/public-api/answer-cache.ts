/**
 * Answers the read API rendered on demand, kept while what they were drawn
 * from is unchanged (issue 36: "every answer from a file, an index or a
 * cache sized to the answer"). An entry names its sources, objects of the
 * public state (an article's summary; a channel, its array of articles and
 * its list's anchors); the builder replaces such an object whenever what it
 * holds changes (the identity rule, `read-model/identity-memo.ts`), so an
 * entry whose sources are no longer the current ones is never served, and no
 * build has to say which answers it made stale.
 *
 * Each entry also knows how to find its sources in a newer state
 * (`recheck`), so the bundled server's fast path can serve it without the
 * app's routing: only while `recheck(state)` gives the very same objects.
 *
 * Bounded by the characters it holds (least recently used go first), so a
 * crawler asking every article for its HTML costs a fixed amount of memory.
 * @module
 */
import type { PublicState } from '../read-model/public-state.ts';
import type { ReadAnswer } from './public-reader.ts';

/**
 * The key of an answer kept for a request: its canonical path and its query
 * as the URL parser spells it (the app's router and the fast path alike).
 */
export function answerKey(canonicalPath: string, url: string): string {
  return `${canonicalPath}${new URL(url, 'http://localhost').search}`;
}

/**
 * Characters of answers kept at most by the server (list pages of other sizes; `include=html` documents rendered
 * whole while a build is between versions; the others are kept on disk, `http/answer-files.ts`):
 * about 128 MB of memory when full.
 */
export const ANSWER_CACHE_CHARS = 64 * 1024 * 1024;

/** Where an answer's sources are in a state: the same objects while nothing it shows changed; null when gone. */
export type Recheck = (state: PublicState) => readonly object[] | null;

/** The cache's operations. */
export interface AnswerCache {
  /** The answer kept for `key`, if it was drawn from `sources` themselves. */
  get(key: string, sources: readonly object[]): ReadAnswer | undefined;
  /** The answer kept for `key`, if its sources are still those of `state`. */
  current(key: string, state: PublicState): ReadAnswer | undefined;
  /** Keeps `answer`, drawn from `sources`; an answer larger than a quarter of the budget is not kept. */
  set(key: string, sources: readonly object[], answer: ReadAnswer, recheck: Recheck): void;
  /** Characters held (for tests and diagnostics). */
  size(): number;
}

const same = (a: readonly object[], b: readonly object[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/** A cache of at most `maxChars` characters of answers. */
export function createAnswerCache(maxChars: number): AnswerCache {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used first.
  const entries = new Map<string, { sources: readonly object[]; answer: ReadAnswer; recheck: Recheck }>();
  let held = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.answer.body.length;
  };
  const hit = (key: string, sources: (entry: { recheck: Recheck }) => readonly object[] | null): ReadAnswer | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const now = sources(entry);
    if (now === null || !same(entry.sources, now)) {
      drop(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry.answer;
  };
  return {
    get: (key, sources) => hit(key, () => sources),
    current: (key, state) => hit(key, (entry) => entry.recheck(state)),
    set(key, sources, answer, recheck) {
      drop(key);
      if (answer.body.length > maxChars / 4) return;
      entries.set(key, { sources, answer, recheck });
      held += answer.body.length;
      for (const oldest of entries.keys()) {
        if (held <= maxChars) break;
        drop(oldest);
      }
    },
    size: () => held,
  };
}
