import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config.ts';

describe('configuration', () => {
  it('documents every variable it reads in the README\'s Configuration table', () => {
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const documented = new Set([...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
    expect(CONFIG_VARIABLES.filter((v) => !documented.has(v))).toEqual([]);
  });
});
