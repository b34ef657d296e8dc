import { describe, expect, it } from 'vitest';
import { guardDatabase, detachedAdvice } from './database-guard.ts';
import { createLogger } from './logger.ts';
import type { DetachedFile } from './store/database-files.ts';

/** A logger that keeps its lines. */
function recordingLog() {
  const lines: string[] = [];
  const log = createLogger('debug', 'test', (line) => void lines.push(line));
  return { log, lines };
}

function fakeFiles(state: { found: DetachedFile[] }) {
  const calls: Array<boolean | undefined> = [];
  return {
    calls,
    files: {
      file: '/srv/data/pressroom.db',
      detached(options?: { descriptors?: boolean }) {
        calls.push(options?.descriptors);
        return state.found;
      },
    },
  };
}

describe('the database guard', () => {
  it('checks the descriptors at start, stays quiet while the files are intact, and checks by path on verify', () => {
    const state = { found: [] as DetachedFile[] };
    const { files, calls } = fakeFiles(state);
    const { log, lines } = recordingLog();
    const guard = guardDatabase({ files, log, now: () => new Date('2026-01-01T00:00:00Z'), onDetached: () => undefined, intervalMs: 60_000 });
    expect(calls).toEqual([true]);
    expect(guard.verify()).toBeNull();
    expect(calls).toEqual([true, false]);
    expect(guard.state()).toBeNull();
    expect(lines).toEqual([]);
    guard.stop();
  });

  it('trips once: logs what happened and what to do, calls onDetached once, and stays tripped', async () => {
    const state = { found: [] as DetachedFile[] };
    const { files } = fakeFiles(state);
    const { log, lines } = recordingLog();
    let now = new Date('2026-01-01T00:00:00Z');
    let stopped = 0;
    const guard = guardDatabase({ files, log, now: () => now, onDetached: () => void stopped++, intervalMs: 60_000 });
    now = new Date('2026-01-01T00:00:05Z');
    expect(guard.verify()).toBeNull();
    now = new Date('2026-01-01T00:00:09Z');
    state.found = [{ name: '/srv/data/pressroom.db-wal', how: 'deleted' }];
    const found = guard.verify();
    expect(found).toEqual({ noticedAt: '2026-01-01T00:00:09.000Z', lastIntactAt: '2026-01-01T00:00:05.000Z', files: state.found });
    state.found = [];
    expect(guard.verify()).toBe(found);
    expect(guard.state()).toBe(found);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/database files detached/);
    expect(lines[0]).toContain('pressroom.db-wal (deleted)');
    expect(lines[0]).toContain('DATABASE_DETACHED');
    guard.stop();
  });

  it('says what to do in words an operator can follow', () => {
    const advice = detachedAdvice('/srv/data/pressroom.db');
    expect(advice).toMatch(/Stop the server/);
    expect(advice).toContain("sqlite3 /srv/data/pressroom.db 'PRAGMA integrity_check'");
    expect(advice).toContain('npm run admin -- backup');
  });
});
