/**
 * The error handler: a database still locked by another process after the
 * busy timeout is a 503 the client may retry, never a 500 (issue 18, item 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { SQLite } from '../store/sqlite-binding.ts';
import { createErrorHandler } from './on-error.ts';

/** A real better-sqlite3 SQLITE_BUSY: one connection holds the write lock, another may not wait. */
function realBusyError(): unknown {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-busy-'));
  const file = path.join(dir, 'busy.db');
  const holder = new SQLite(file);
  const other = new SQLite(file);
  try {
    holder.exec('create table t (n integer); begin immediate; insert into t values (1);');
    other.pragma('busy_timeout = 0');
    other.exec('insert into t values (2)');
    throw new Error('expected SQLITE_BUSY');
  } catch (error) {
    return error;
  } finally {
    holder.close();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('createErrorHandler', () => {
  const app = new Hono();
  app.onError(createErrorHandler(createLogger('silent')));
  app.get('/busy', () => {
    throw realBusyError();
  });
  app.get('/bug', () => {
    throw new TypeError('boom');
  });

  it('answers SQLITE_BUSY with 503 DATABASE_BUSY and Retry-After', async () => {
    const res = await app.request('/busy');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ schema_version: '1.0', error: { code: 'DATABASE_BUSY' } });
  });

  it('still answers a bug with a 500 that reveals nothing', async () => {
    const res = await app.request('/bug');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INTERNAL');
    expect(body.error.message).not.toContain('boom');
  });
});
