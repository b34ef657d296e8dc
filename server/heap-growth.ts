/**
 * The one place that tunes V8's collector: how far the heap may grow past
 * what the last collection left live (`PRESSROOM_HEAP_GROWTH_PERCENT`).
 *
 * A build allocates far more than it keeps: every page rendered, every
 * search record encoded for Pagefind, is garbage moments later, and much of
 * it lives long enough to reach the old generation. Left to its own rule, V8
 * let the heap reach about twice what was live, which decided the whole
 * process tree's peak. A smaller growth factor collects sooner and more
 * often: at 10,000 articles the cost was within this machine's noise; at
 * 100,000 the collector was a large part of a warm build, where the builder
 * holds the whole manifest (docs/PERFORMANCE-HISTORY.md, issue 17's fourth
 * session).
 * And when a process has just dropped most of what it held, it can ask for
 * a full collection at once (`collectGarbageNow`).
 * @module
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Sets V8's heap growing factor for this process (its worker threads
 * included: V8 flags are per process) to `1 + percent / 100`; 0 leaves V8's
 * own rule. Call once, at the start of a process that builds.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

let fullCollection: (() => void) | undefined;

/**
 * Collects the whole heap now. For the moment a process has just dropped
 * most of what it held (`npm run build` after releasing the builder's
 * state): left to itself, V8 would let the heap grow a quarter past the
 * old live size before collecting, so the search index's first garbage
 * piled onto all that was already dead (docs/PERFORMANCE-HISTORY.md,
 * issue 17's seventh session). V8 offers this only to code that asked for
 * `--expose-gc`; the flag is set here and the function taken from a fresh
 * context, as test runners do for leak checks.
 */
export function collectGarbageNow(): void {
  if (!fullCollection) {
    v8.setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}
