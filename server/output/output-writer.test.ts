import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkOrWrite, nextTempName, removeStaleTempFiles, TEMP_NAME, writeAtomically } from './output-writer.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-output-writer-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes an empty file, as a `kill -9` between open and write leaves it, `ageMs` old. */
function leftover(relative: string, ageMs: number): void {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
}

describe('removeStaleTempFiles (issue 18: a killed build left 0-byte *.tmp files that were served and deployed)', () => {
  it('removes every writer\'s temporary names older than the age, everywhere in the folder', async () => {
    const old = 10 * 60_000;
    leftover('tech/hello.html.0123456789ab.tmp', old);
    // The name this module's own writer gives (a build killed between its write and its rename).
    leftover(path.relative(dir, nextTempName(path.join(dir, 'tech/killed.html'))), old);
    leftover('api/public/v1/channels.json.abcdefabcdef.tmp', old);
    leftover('media/tech/.avatar-0123.webp.4242.0123456789ab.tmp', old);
    leftover('pagefind/tech/en/pagefind-entry.json.0123456789ab.tmp', old);
    leftover('tech/recent.html.0123456789ab.tmp', 1000); // another process may be writing it now
    leftover('tech/notes.tmp', old); // not a writer's name
    fs.writeFileSync(path.join(dir, 'tech/hello.html'), '<p>kept</p>');
    const removed = (await removeStaleTempFiles(dir)).sort();
    expect(removed.filter((name) => name.startsWith('tech/killed.html.'))).toHaveLength(1);
    expect(removed.filter((name) => !name.startsWith('tech/killed.html.'))).toEqual([
      'api/public/v1/channels.json.abcdefabcdef.tmp',
      'media/tech/.avatar-0123.webp.4242.0123456789ab.tmp',
      'pagefind/tech/en/pagefind-entry.json.0123456789ab.tmp',
      'tech/hello.html.0123456789ab.tmp',
    ]);
    expect(fs.readdirSync(path.join(dir, 'tech')).sort()).toEqual(['hello.html', 'notes.tmp', 'recent.html.0123456789ab.tmp']);
  });

  it('knows the names every writer makes: this one, the search index and media', () => {
    for (let i = 0; i < 40; i++) expect(nextTempName('/out/tech/page.html')).toMatch(TEMP_NAME);
    expect('pagefind/x.json.0123456789ab.tmp').toMatch(TEMP_NAME);
    expect('media/tech/.a.webp.4242.0123456789ab.tmp').toMatch(TEMP_NAME);
    expect('tech/notes.tmp').not.toMatch(TEMP_NAME);
  });

  it('copes with a missing folder, and leaves no name of its own behind after a write', async () => {
    expect(await removeStaleTempFiles(path.join(dir, 'missing'))).toEqual([]);
    writeAtomically(dir, 'x/page.html', new Uint8Array([1]));
    expect(fs.readdirSync(path.join(dir, 'x'))).toEqual(['page.html']);
  });
});

describe('linkOrWrite', () => {
  const bytes = Buffer.from('<h1>Same</h1>');
  const ino = (relative: string) => fs.statSync(path.join(dir, relative)).ino;
  const read = (relative: string) => fs.readFileSync(path.join(dir, relative), 'utf8');

  it('makes a second name of the file, creating its folder; a later write to either name leaves the other as it was', () => {
    writeAtomically(dir, 'news/en/a.html', bytes);
    expect(linkOrWrite(dir, 'news/en/a.html', 'news/deep/a.html', bytes)).toBe(true);
    expect(ino('news/deep/a.html')).toBe(ino('news/en/a.html'));
    expect(read('news/deep/a.html')).toBe('<h1>Same</h1>');
    writeAtomically(dir, 'news/en/a.html', Buffer.from('<h1>New</h1>'));
    expect(read('news/en/a.html')).toBe('<h1>New</h1>');
    expect(read('news/deep/a.html')).toBe('<h1>Same</h1>');
  });

  it('writes the bytes when the name exists or the source is missing', () => {
    writeAtomically(dir, 'a.html', bytes);
    writeAtomically(dir, 'b.html', Buffer.from('old'));
    expect(linkOrWrite(dir, 'a.html', 'b.html', bytes)).toBe(false);
    expect(read('b.html')).toBe('<h1>Same</h1>');
    expect(ino('b.html')).not.toBe(ino('a.html'));
    expect(linkOrWrite(dir, 'missing.html', 'sub/c.html', bytes)).toBe(false);
    expect(read('sub/c.html')).toBe('<h1>Same</h1>');
  });
});
