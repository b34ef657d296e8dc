import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SQLite } from './sqlite-binding.ts';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

describe('the SQLite binding', () => {
  it(`is better-sqlite3 ${major >= 22 ? 13 : 12} on Node ${major}, and works`, () => {
    const expected = major >= 22 ? { module: 'better-sqlite3-napi', version: /^13\./ } : { module: 'better-sqlite3', version: /^12\./ };
    expect(SQLite).toBe(require(expected.module));
    expect((require(`${expected.module}/package.json`) as { version: string }).version).toMatch(expected.version);
    const db = new SQLite(':memory:');
    expect(db.prepare('select 1 as x').get()).toEqual({ x: 1 });
    db.close();
  });
});
