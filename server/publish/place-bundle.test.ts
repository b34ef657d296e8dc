import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { placeBundle } from './search-index.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-bundle-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (root: string, files: Record<string, string>) => {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, root, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, root, name), text);
  }
};
const inode = (name: string) => fs.statSync(path.join(dir, 'target', name)).ino;

it('keeps the files whose bytes did not change, replaces the changed ones, adds the new and removes the gone', () => {
  write('target', { 'pagefind-entry.json': '{"v":1}', 'pagefind.js': 'ui', 'fragment/en_a.pf_fragment': 'a', 'fragment/en_old.pf_fragment': 'old', 'index/en_x.pf_index': 'x' });
  write('fresh', { 'pagefind-entry.json': '{"v":2}', 'pagefind.js': 'ui', 'fragment/en_a.pf_fragment': 'a', 'fragment/en_new.pf_fragment': 'new' });
  const kept = [inode('pagefind.js'), inode('fragment/en_a.pf_fragment')];
  placeBundle(path.join(dir, 'fresh'), path.join(dir, 'target'));
  const files = (fs.readdirSync(path.join(dir, 'target'), { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => fs.statSync(path.join(dir, 'target', f)).isFile()).sort();
  expect(files).toEqual(['fragment/en_a.pf_fragment', 'fragment/en_new.pf_fragment', 'pagefind-entry.json', 'pagefind.js']);
  expect([inode('pagefind.js'), inode('fragment/en_a.pf_fragment')]).toEqual(kept);
  expect(fs.readFileSync(path.join(dir, 'target/pagefind-entry.json'), 'utf8')).toBe('{"v":2}');
  // A folder the new bundle no longer has goes too.
  expect(fs.existsSync(path.join(dir, 'target/index'))).toBe(false);
});
