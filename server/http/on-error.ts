/**
 * The one place where errors become HTTP responses. Domain errors carry their
 * code; a database still locked by another process after the busy timeout is
 * 503 `DATABASE_BUSY` with `Retry-After`; anything else is a bug or an
 * internal failure (`internal-error.ts`): logged with its code, stack and
 * causes, answered with a generic 500 that reveals nothing.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_CATALOGUE, PressroomError } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';
import { DATABASE_BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy, sqliteCode } from '../store/busy-error.ts';
import { errorBody } from '../serving/error-body.ts';
import { describeError } from '../describe-error.ts';
import { InternalError } from '../internal-error.ts';
import { lingerOnClose } from './lingering-close.ts';

/**
 * The 404 page a GET gets instead of the JSON body (`serving/not-found-page.ts`: outside `/api/`, when
 * `Accept` prefers HTML), or null for the JSON body.
 */
export type NotFoundPage = (c: Context) => Promise<Response | null>;

/** Creates the app's error handler; with `notFoundPage`, people get the site's 404 page. */
export function createErrorHandler(log: Logger, notFoundPage?: NotFoundPage) {
  return async (err: Error, c: Context): Promise<Response> => {
    if (PressroomError.is(err)) {
      if (err.code === 'NOT_FOUND' && notFoundPage && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
        const page = await notFoundPage(c);
        if (page) return page;
      }
      if (err.status === 401) c.header('WWW-Authenticate', 'Bearer realm="pressroom"');
      // A refusal that says when to come back (429 TOO_MANY_UPLOADS): the header clients and proxies read.
      if (typeof err.details?.retry_after_seconds === 'number') c.header('Retry-After', String(err.details.retry_after_seconds));
      // A body refused before it was read (an upload over the account's share, a body over its limit): the
      // connection closes once the answer is sent, rather than read (and drop) a whole body; the close
      // lingers, so the client reads the answer before the connection ends (lingering-close.ts).
      if (err.code === 'TOO_MANY_UPLOADS' || err.code === 'IMAGE_TOO_LARGE' || err.code === 'PAYLOAD_TOO_LARGE') {
        c.header('Connection', 'close');
        const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
        if (socket) lingerOnClose(socket);
      }
      return c.json(errorBody(err.code, err.message, err.details), err.status as ContentfulStatusCode);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = err.status === 413 ? 'PAYLOAD_TOO_LARGE' : err.status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      return c.json(errorBody(code), ERROR_CATALOGUE[code].status as ContentfulStatusCode);
    }
    if (isDatabaseBusy(err)) {
      // Another process held the write lock past busy_timeout; the transaction rolled back, so a retry is safe.
      // Its SQLite code and stack say which statement waited and how (SQLITE_BUSY after the timeout, or at once:
      // a snapshot another connection wrote past), for a busy answer that no other process explains.
      log.warn('database busy', { method: c.req.method, path: c.req.path, sqlite_code: sqliteCode(err), error: describeError(err, { stack: true }) });
      c.header('Retry-After', String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
      return c.json(errorBody('DATABASE_BUSY'), 503);
    }
    // The stack, an internal failure's code, and every cause: what a report needs; the client learns nothing.
    log.error('unhandled error', { method: c.req.method, path: c.req.path, ...(InternalError.is(err) && { code: err.code }), error: describeError(err, { stack: true }) });
    return c.json(errorBody('INTERNAL'), 500);
  };
}

/** Answers unknown paths with the JSON 404 body. */
export function notFound(c: Context): Response {
  return c.json(
    errorBody('NOT_FOUND', `Nothing exists at ${c.req.method} ${c.req.path}. Check the path against the API docs at /api/v1/openapi.json.`),
    404,
  );
}
