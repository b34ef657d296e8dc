/**
 * The one way a caught value becomes text for a log line or a message: its
 * message (or, with `stack`, its stack), whatever was thrown. A leaf: every
 * layer may use it, the store included.
 * @module
 */

/**
 * What `error` says. `stack: true` gives the stack (which starts with the
 * message) for failures that are bugs, where the report needs the place.
 * @example log.warn('job failed', { error: describeError(error) })
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): string {
  if (error instanceof Error) return options.stack ? (error.stack ?? error.message) : error.message;
  return String(error);
}
