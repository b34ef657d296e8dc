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

/**
 * True when `error` (or an error it wraps as `cause`) is better-sqlite3's
 * SQLITE_BUSY or SQLITE_LOCKED, with any extended code (SQLITE_BUSY_SNAPSHOT…).
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
  }
  return false;
}

/** The SQLite code of a busy failure (`SQLITE_BUSY_SNAPSHOT`…), from `error` or an error it wraps; undefined for none. */
export function sqliteCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  }
  return undefined;
}
