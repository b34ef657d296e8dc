/**
 * The publishing API once the database files are detached: 503
 * `DATABASE_DETACHED` before anything runs, and for a write already in
 * flight that the now read-only connection refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { openDatabase, refuseWrites, sqliteConnection } from '../../store/database.ts';
import { createErrorHandler } from '../on-error.ts';
import { refuseWhenDatabaseDetached } from './database-detached.ts';

function appWith(watch: { tripped: boolean }, handler: () => Promise<Response> | Response) {
  const app = new Hono();
  app.onError(createErrorHandler(createLogger('silent')));
  app.use('*', refuseWhenDatabaseDetached({ verify: () => (watch.tripped ? {} : null), state: () => (watch.tripped ? {} : null) }));
  app.all('/api/v1/x', handler);
  return app;
}

describe('refuseWhenDatabaseDetached', () => {
  it('lets requests through while the files are intact, and answers 503 DATABASE_DETACHED for every method once they are not', async () => {
    const watch = { tripped: false };
    let ran = 0;
    const app = appWith(watch, () => (ran++, new Response('ok')));
    expect((await app.request('/api/v1/x')).status).toBe(200);
    watch.tripped = true;
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await app.request('/api/v1/x', { method });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ schema_version: '1.0', error: { code: 'DATABASE_DETACHED', message: expect.stringMatching(/restart the server/) } });
    }
    expect(ran).toBe(1);
  });

  it('answers a write that the read-only connection refused in flight with 503 DATABASE_DETACHED, not 500', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-detached-'));
    const db = openDatabase(path.join(dir, 'p.db'));
    try {
      sqliteConnection(db).exec('create table t (n integer)');
      const watch = { tripped: false };
      const app = appWith(watch, async () => {
        // The guard trips while this request runs (main.ts: refuseWrites, then the jobs and builds stop).
        watch.tripped = true;
        await refuseWrites(db);
        sqliteConnection(db).exec('insert into t values (1)');
        return new Response('saved');
      });
      const res = await app.request('/api/v1/x', { method: 'POST' });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: 'DATABASE_DETACHED' } });
      expect(sqliteConnection(db).prepare('select count(*) from t').pluck().get()).toBe(0);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
