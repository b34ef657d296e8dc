/**
 * What a start does to the files it finds (issue 18): temporary files a
 * killed build or upload left in the output folder are removed, and the
 * data folder and database are private to the service's user.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let root: string;
let t: TestService;
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-start-files-'));
  const dist = path.join(root, 'dist');
  const old = new Date(Date.now() - 10 * 60_000);
  for (const leftover of ['tech/hello.html.0123456789ab.tmp', 'media/tech/.a.webp.77.0123456789ab.tmp']) {
    fs.mkdirSync(path.dirname(path.join(dist, leftover)), { recursive: true });
    fs.writeFileSync(path.join(dist, leftover), ''); // 0 bytes: killed between open and write
    fs.utimesSync(path.join(dist, leftover), old, old);
  }
  fs.writeFileSync(path.join(dist, 'tech/hello.html'), '<p>kept</p>');
  t = await startTestService({ PRESSROOM_OUTPUT_DIR: dist, PRESSROOM_DATA_DIR: path.join(root, 'data') });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('at start', () => {
  it('removes the temporary files a killed writer left in the output folder, once it answers', async () => {
    await vi.waitFor(() => {
      expect(fs.readdirSync(path.join(root, 'dist/tech'))).toEqual(['hello.html']);
      expect(fs.readdirSync(path.join(root, 'dist/media/tech'))).toEqual([]);
    });
  });

  it('keeps the data folder 0700 and the database files 0600', () => {
    expect(modeOf(path.join(root, 'data'))).toBe(0o700);
    const db = t.config.databaseFile;
    expect(path.dirname(db)).toBe(path.join(root, 'data'));
    for (const file of [db, `${db}-wal`, `${db}-shm`]) if (fs.existsSync(file)) expect(modeOf(file), file).toBe(0o600);
    expect(fs.existsSync(`${db}-wal`)).toBe(true);
  });
});
