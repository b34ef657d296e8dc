/**
 * `npm run build` fills the read API's search index (SQLite FTS5) as well as
 * Pagefind's, so the first start after a build answers
 * `GET /api/public/v1/search` at once, never 503 `SEARCH_UNAVAILABLE`, and
 * does not read the whole public state again (issue 36, item 4). As an
 * operator meets it: a fresh data folder, `npm run build`, then `npm start`'s
 * script.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLite } from '../../server/store/sqlite-binding.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmRun, serviceEnv, startServerProcess, type ServerProcess } from '../helpers/service-process.ts';
import { pollUntil } from '../helpers/poll.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
let server: ServerProcess | null = null;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-build-search-'));
  env = serviceEnv(dir, { PRESSROOM_LOG_LEVEL: 'info' });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run build', () => {
  it("fills the read API's search index with every public translation", async () => {
    const built = await npmRun('build', [], env);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain('search index synced');
    const db = new SQLite(path.join(dir, 'data', 'pressroom.db'), { readonly: true });
    try {
      const setting = (key: string) => (db.prepare('SELECT value FROM instance_settings WHERE key = ?').get(key) as { value: string } | undefined)?.value;
      expect(setting('search_index_complete')).toBe('1');
      expect(setting('search_index_through')).toMatch(/\S/);
      const documents = (db.prepare('SELECT count(*) AS n FROM search_documents').get() as { n: number }).n;
      expect(documents).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 300_000);

  it('leaves a first start nothing to fill: search answers from the first request', async () => {
    server = await startServerProcess(env);
    const first = await fetch(`${server.url}/api/public/v1/search?q=welcome`);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
    await pollUntil(() => server!.stderr(), (log) => log.includes('search index in step'), { what: 'the start to find the search index in step' });
    expect(server.stderr()).not.toContain('search index synced');
  }, 120_000);
});
