import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('documents every variable it reads in the README\'s Configuration table', () => {
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const documented = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    expect(CONFIG_VARIABLES.filter((v) => !documented.has(v))).toEqual([]);
  });

  it('runs one more Pagefind process than build workers unless told otherwise', () => {
    expect(loadConfig({ PRESSROOM_BUILD_WORKERS: '2' }, '/tmp').searchProcesses).toBe(3);
    expect(loadConfig({ PRESSROOM_BUILD_WORKERS: '0' }, '/tmp').searchProcesses).toBe(1);
    expect(loadConfig({ PRESSROOM_BUILD_WORKERS: '2', PRESSROOM_SEARCH_PROCESSES: '1' }, '/tmp').searchProcesses).toBe(1);
    expect(() => loadConfig({ PRESSROOM_SEARCH_PROCESSES: '0' }, '/tmp')).toThrow(ConfigError);
  });

  it('keeps the data in the SQLite file unless a Postgres URL is given, and refuses any other URL', () => {
    const embedded = loadConfig({ PRESSROOM_DATA_DIR: 'state' }, '/srv');
    expect(embedded).toMatchObject({ databaseUrl: null, databaseFile: '/srv/state/pressroom.db', database: '/srv/state/pressroom.db' });
    for (const url of ['postgres://app:secret@db.internal:5432/pressroom', 'postgresql://app@localhost/pressroom?sslmode=require']) {
      expect(loadConfig({ PRESSROOM_DATABASE_URL: url }, '/srv')).toMatchObject({ databaseUrl: url, database: url });
    }
    for (const wrong of ['mysql://app@db/pressroom', 'data/pressroom.db', 'postgres']) {
      expect(() => loadConfig({ PRESSROOM_DATABASE_URL: wrong }, '/srv')).toThrow(/PRESSROOM_DATABASE_URL/);
    }
  });
});
