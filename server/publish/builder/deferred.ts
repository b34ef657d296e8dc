/**
 * Two small promise helpers for work that starts before what it needs
 * exists: a full build hands articles to the render threads before it has
 * read the heads, and checks the output folder while it reads them.
 * @module
 */

/** A value promised now and given (or refused) later, by whoever holds it. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A new {@link Deferred}; its promise is awaited by its takers (see {@link awaitedLater}). */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = awaitedLater(new Promise<T>((yes, no) => ((resolve = yes), (reject = no))));
  return { promise, resolve, reject };
}

/**
 * `promise`, marked as handled: the caller awaits it later, and its failure
 * is thrown (or handled) there. Without the mark, a failure that comes
 * before the await would be reported as unhandled and stop the process.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
