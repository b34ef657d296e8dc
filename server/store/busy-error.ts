/**
 * Recognises SQLite's "another connection holds the lock" failures, which
 * remain possible after `busy_timeout` when another process (a site build, an
 * admin command) keeps the write lock longer than the timeout. They are not
 * bugs and nothing was written (the transaction rolled back), so the HTTP
 * edge answers them with 503 `DATABASE_BUSY` and `Retry-After` instead of 500.
 * @module
 */

/** Seconds a client is told to wait after a busy database. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 1;

/** The SQLite codes (`SQLITE_…`) of `error` and of the errors it wraps as `cause`, outermost first. */
function* sqliteCodes(error: unknown): Generator<string> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) yield code;
  }
}

const BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/**
 * True when `error` (or an error it wraps as `cause`) is better-sqlite3's
 * SQLITE_BUSY or SQLITE_LOCKED, with any extended code (SQLITE_BUSY_SNAPSHOT…).
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && BUSY_CODE.test(code);
}

/**
 * The SQLite code a log names for `error` (`SQLITE_BUSY_SNAPSHOT`…): its busy code when it has one, else its
 * first; undefined when neither it nor what it wraps is SQLite's.
 */
export function sqliteCode(error: unknown): string | undefined {
  const codes = [...sqliteCodes(error)];
  return codes.find((code) => BUSY_CODE.test(code)) ?? codes[0];
}
