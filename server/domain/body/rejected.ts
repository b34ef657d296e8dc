/**
 * The error of a body refused for what it is (limits, time limit, parser failure).
 * @module
 */
import type { BodyLimitProblem } from './limits.ts';

/**
 * A body refused for what it is, not for a fault of ours: over one of the
 * limits, over the time limit, or one the parsers could not handle. The
 * message says which limit and how to fix it; callers answer 422 naming the
 * field.
 */
export class BodyRejectedError extends Error {
  override readonly name = 'BodyRejectedError';
  constructor(
    message: string,
    /** The limit's name (`BODY_LIMITS`, or `timeMs`), or `unprocessable`. */
    readonly limit: string,
  ) {
    super(message);
  }

  /** The error for a body over one of `BODY_LIMITS`. */
  static over(problem: BodyLimitProblem, converted = false): BodyRejectedError {
    const where = converted ? ' (in the Markdown the HTML converts to)' : '';
    return new BodyRejectedError(`${problem.message.replace(/\. /, `${where}. `)}`, problem.limit);
  }
}

