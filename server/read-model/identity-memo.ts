/**
 * The identity rule, and the one way the read side remembers work by it.
 *
 * **Built models are never changed.** A change to what is public makes new
 * objects: the public model reads fresh rows into new objects, and the
 * article index rebuilds a channel's group (a new array) when one of its
 * articles changed. So anything computed from a model object or array — a
 * sorted list, a sitemap entry, an llms.txt line, a summary — holds for as
 * long as that object lives, and a build that hands a renderer the same
 * object again gets the same answer without the work.
 *
 * The rule is enforced, not only written: under test (`npm test` turns it
 * on for every suite, `test/setup/freeze-models.ts`) the public model and
 * the builder freeze every object they hand out (`deepFreeze`), so code that
 * tried to change a model throws (modules are strict) instead of silently
 * serving a memo of the old value. In production the models are not frozen:
 * V8 reads frozen objects more slowly (builds took measurably longer;
 * docs/PERFORMANCE-HISTORY.md, "The read-model restructuring"), and the
 * tests already prove no code writes to one. `identity-memo.test.ts` and
 * the public model's tests check both halves.
 *
 * Everything that remembers by identity goes through `memoByIdentity` or
 * `memoForOneBuild` (the builder's own memo of rendered files,
 * `publish/builder/render-memo.ts`, compares `PlannedFile.inputs` by the same
 * rule).
 * @module
 */

/**
 * A function of an object remembered per object (a `WeakMap`, so a model no
 * build holds any more is forgotten with it). Only for functions of the
 * object's contents: by the identity rule those never change.
 */
export function memoByIdentity<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const memo = new WeakMap<K, V>();
  return (key) => remembered(memo, key, compute);
}

/** `memo`'s value for `key`, computed and kept the first time. */
function remembered<K extends object, V>(memo: WeakMap<K, V>, key: K, compute: (key: K) => V): V {
  if (memo.has(key)) return memo.get(key) as V;
  const value = compute(key);
  memo.set(key, value);
  return value;
}

const oneBuildMemos = new Set<() => void>();

/**
 * `memoByIdentity` for the pieces a full build makes of every article and
 * then seldom needs again: list items, sitemap entries, llms.txt lines. A
 * cold build makes each many times (an article's list item is on some twenty
 * cursor pages), so they are remembered through the build; after it they
 * would stay as long as the builder holds the articles (memory that grows
 * with the site; docs/PERFORMANCE.md, "What bounds them") for publishes that
 * re-render a few dozen of them. The builder forgets them when a full build
 * ends (`forgetOneBuildMemos`), and later builds remember what they make
 * again.
 */
export function memoForOneBuild<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  let memo = new WeakMap<K, V>();
  oneBuildMemos.add(() => {
    memo = new WeakMap<K, V>();
  });
  return (key) => remembered(memo, key, compute);
}

/** Forgets everything every `memoForOneBuild` function remembers (the end of a full build). */
export function forgetOneBuildMemos(): void {
  for (const forget of oneBuildMemos) forget();
}

let freezing = false;

/** Turns model freezing on or off for this process (the test setup turns it on). */
export function freezeModels(on: boolean): void {
  freezing = on;
}

/** Whether models are frozen in this process. */
export function modelsFrozen(): boolean {
  return freezing;
}

/**
 * Freezes a model handed out, when freezing is on (`freezeModels`); else
 * returns it as it is. @returns `value`.
 */
export function freezeModel<T>(value: T): T {
  return freezing ? deepFreeze(value) : value;
}

/**
 * Freezes `value` and everything reachable from it through plain objects and
 * arrays (already frozen parts are skipped, so shared objects such as a
 * channel are walked once). @returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value as object)) deepFreeze(child);
  return value;
}
