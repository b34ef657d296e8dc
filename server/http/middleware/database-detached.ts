/**
 * The publishing API's answer while the server's database files are
 * detached (`database-guard.ts`): 503 `DATABASE_DETACHED` for every request,
 * reads included (the server's view of the database is no longer the one on
 * disk, and authenticating a key writes its last use).
 * @module
 */
import { createMiddleware } from 'hono/factory';
import { PressroomError } from '../../domain/errors.ts';
import { errorBody } from '../../serving/error-body.ts';

/** The part of the guard this needs. */
export interface DatabaseWatch {
  /** Checks now; non-null once the files are detached. */
  verify(): unknown;
  /** Non-null once the files were found detached. */
  state(): unknown;
}

/** Refuses requests once the database files are detached. */
export function refuseWhenDatabaseDetached(watch: DatabaseWatch) {
  return createMiddleware(async (c, next) => {
    if (watch.verify() !== null) throw new PressroomError('DATABASE_DETACHED');
    await next();
    // A write in flight when the guard tripped fails on the now read-only connection: say why, not 500.
    if (c.error && watch.state() !== null) c.res = c.json(errorBody('DATABASE_DETACHED'), 503);
  });
}
