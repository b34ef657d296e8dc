/**
 * One log line per request: method, path, status, duration.
 * @module
 */
import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../logger.ts';

/** Logs each request after it is answered. */
export function requestLog(log: Logger) {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const line = { method: c.req.method, path: c.req.path, status: c.res.status, ms };
    if (c.res.status >= 500) log.error('request', line);
    else log.info('request', line);
  });
}
