import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../../store/database.ts';
import { authenticate, createApiKey, KEY_USE_RESOLUTION_MS } from './account.service.ts';

let dir: string;
let db: Db;
const clock = manualClock(new Date('2026-12-01T10:00:00Z'));

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-account-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('authenticate', () => {
  it("keeps a key's last use to the minute: one write per minute, not one per request", async () => {
    const { key } = await createApiKey({ db, clock }, { accountName: 'ana', plan: 'pro' });
    const lastUse = async () => (await db.selectFrom('api_keys').select('last_used_at').executeTakeFirstOrThrow()).last_used_at;
    expect(await lastUse()).toBeNull();
    await authenticate({ db, clock }, key);
    const first = await lastUse();
    expect(first).toBe('2026-12-01T10:00:00.000Z');
    clock.advance(KEY_USE_RESOLUTION_MS - 1);
    await authenticate({ db, clock }, key);
    expect(await lastUse()).toBe(first);
    clock.advance(1);
    await authenticate({ db, clock }, key);
    expect(await lastUse()).toBe('2026-12-01T10:01:00.000Z');
  });
});
