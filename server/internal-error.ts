/**
 * Internal failures: what goes wrong inside the service rather than in a
 * request (a broken rule of the code, a dependency that failed, a file an
 * operator must fix). Each has a permanent code, as the API's errors do
 * (`domain/errors.ts`), so logs, alerts and issue reports can name it, and
 * keeps the error it came from as `cause`. They never reach a client: the
 * API answers them with a 500 `INTERNAL` that reveals nothing. A leaf, like
 * `describe-error.ts`: every layer may throw one.
 * @module
 */

/** Every internal failure, with what it means. Codes are permanent: never renamed or reused. */
export const INTERNAL_CODES = {
  /** A rule the code relies on does not hold: a bug, to report with the log line. */
  INVARIANT_BROKEN: 'A rule the code relies on does not hold',
  /** A job of a kind no handler serves (a newer version queued it). */
  JOB_KIND_UNKNOWN: 'A job has a kind no handler serves',
  /** Pagefind failed, or is not installed. */
  SEARCH_INDEX_FAILED: 'The search index could not be written',
  /** The Astro site in src/ failed to compile or load. */
  SITE_COMPILE_FAILED: 'The site could not be compiled',
  /** A database migration failed; nothing of it was applied. */
  MIGRATION_FAILED: 'A database migration failed',
  /** A backup failed; nothing was written. */
  BACKUP_FAILED: 'The backup failed',
  /** A configuration file (the moderation rules) cannot be read or is invalid. */
  CONFIG_FILE_INVALID: 'A configuration file is invalid',
  /** A path would leave the output or media folder. */
  PATH_OUTSIDE_FOLDER: 'A path would leave its folder',
  /** The image pipeline made other pixels than it planned. */
  IMAGE_PIPELINE_FAILED: 'The image pipeline failed',
  /** A rendered file is not what its renderer must make. */
  RENDER_FAILED: 'A file could not be rendered',
  /** A host configuration was asked for with values it cannot hold. */
  HOST_CONFIG_INVALID: 'A host configuration cannot be made',
  /** The upload parser thread stopped or could not start. */
  UPLOAD_PARSER_FAILED: 'The upload parser thread failed',
  /** The build thread stopped or could not start; the build it ran is retried on a new thread. */
  BUILD_THREAD_FAILED: 'The build thread failed',
  /** The Postgres database (PRESSROOM_DATABASE_URL) cannot be reached. */
  DATABASE_UNREACHABLE: 'The database cannot be reached',
  /** Another Pressroom server already runs on this Postgres database. */
  DATABASE_IN_USE: 'Another server uses the database',
} as const;

/** A permanent internal failure code. */
export type InternalCode = keyof typeof INTERNAL_CODES;

/** An internal failure: a code, a message that says what to do, and the error it came from. */
export class InternalError extends Error {
  readonly code: InternalCode;

  constructor(code: InternalCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InternalError';
    this.code = code;
  }

  /** Recognises one by its shape (its name and a known code), from any copy of this module. */
  static is(value: unknown): value is InternalError {
    if (typeof value !== 'object' || value === null) return false;
    const { name, code } = value as { name?: unknown; code?: unknown };
    return name === 'InternalError' && typeof code === 'string' && Object.hasOwn(INTERNAL_CODES, code) && value instanceof Error;
  }
}

/**
 * Asserts a rule the code relies on.
 * @throws InternalError INVARIANT_BROKEN with `message` when `condition` is false.
 */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InternalError('INVARIANT_BROKEN', message);
}
