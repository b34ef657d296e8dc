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
});
