/**
 * The one way a caught value becomes text for a log line or a message: its
 * message (or, with `stack`, its stack and the stacks of its causes),
 * whatever was thrown, with the permanent code of an internal failure
 * (`internal-error.ts`). A leaf: every layer may use it, the store included.
 * @module
 */

/** Causes followed at most, in case one points back at another. */
const MAX_CAUSES = 5;

/**
 * What `error` says. `stack: true` gives the stack (which starts with the
 * message) and each cause's, for failures that are bugs, where the report
 * needs the place.
 * @example log.warn('job failed', { error: describeError(error) })
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): string {
  if (!(error instanceof Error)) return String(error);
  const { code } = error as { code?: unknown };
  const coded = error.name === 'InternalError' && typeof code === 'string' ? ` [${code}]` : '';
  if (!options.stack) return `${error.message}${coded}`;
  let text = `${error.stack ?? error.message}${coded}`;
  let cause = error.cause;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    text += `\ncaused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}
