/**
 * "Two processes, one database" (docs/ARCHITECTURE.md, issue 39): the
 * database, its WAL and its SHM are opened only through SQLite, and one SQLite
 * library is loaded per process. A descriptor opened and closed on the
 * database file by anything else drops every SQLite lock of the process;
 * two SQLite libraries in one process do not see each other's locks. Both
 * make another process believe it is the last user and delete the server's
 * WAL. This scans the sources for what would break the rule; the durability
 * suite (test/e2e/durability.test.ts) proves the running server keeps it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/paths.ts';

/** Every source file of the product (tests excluded), relative to the root. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|mts|mjs|js|astro)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) found.push(rel);
    }
  };
  for (const dir of ['server', 'scripts', 'src']) walk(dir);
  return found;
}

const files = sources().map((file) => ({ file, text: fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8') }));

describe('two processes, one database', () => {
  it('scans the whole tree', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(files.map((f) => f.file)).toContain('server/store/database.ts');
  });

  it('loads SQLite in one module only, and never node:sqlite', () => {
    const loaders = files.filter((f) => /(require\(|from |import\()\s*['"](better-sqlite3(-napi)?|node:sqlite)['"]/.test(f.text.replace(/import type [^;]+;/g, '')));
    expect(loaders.map((f) => f.file)).toEqual(['server/store/sqlite-binding.ts']);
    expect(files.filter((f) => f.text.includes('node:sqlite')).map((f) => f.file)).toEqual([]);
  });

  it('loads SQLite in tests through the same module: the library the running Node can hold (sqlite-binding.ts), one per process', () => {
    const tests: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(rel);
        else if (/\.test\.ts$/.test(entry.name) || (dir.startsWith('test') && /\.ts$/.test(entry.name))) tests.push(rel);
      }
    };
    for (const dir of ['server', 'scripts', 'test']) walk(dir);
    expect(tests.length).toBeGreaterThan(200);
    const loaders = tests.filter((file) => /(require\(|from |import\()\s*['"](better-sqlite3(-napi)?|node:sqlite)['"]/.test(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8').replace(/import type [^;]+;/g, '')));
    // This file names the packages in its patterns only.
    expect(loaders.filter((file) => file !== path.join('test', 'architecture', 'database-access.test.ts'))).toEqual([]);
  });

  it('opens no database file with fs: only SQLite connections (openDatabase) and the backup API touch it', () => {
    // An fs call whose arguments name the database file or its companions.
    const fsOpen = /\bfs\w*\.(open|openSync|readFile|readFileSync|createReadStream|createWriteStream|copyFile|copyFileSync|cp|cpSync|writeFile|writeFileSync|appendFile|appendFileSync|truncate|truncateSync)\(([^)]*)\)/g;
    const offenders: string[] = [];
    for (const { file, text } of files) {
      for (const match of text.matchAll(fsOpen)) {
        if (/databaseFile|pressroom\.db|-wal|-shm|\.db\b/.test(match[2]!)) offenders.push(`${file}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('creates the database file with the one open this process may make on it: O_EXCL, before any connection exists', () => {
    const database = files.find((f) => f.file === 'server/store/database.ts')!.text;
    expect(database.match(/fs\.openSync\(/g)).toHaveLength(1);
    expect(database).toContain("fs.openSync(file, 'wx', PRIVATE_FILE_MODE)");
  });
});
