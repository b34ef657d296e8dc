import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleTempFiles, writeAtomically } from './output-writer.ts';

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
    leftover('api/public/v1/channels.json.abcdefabcdef.tmp', old);
    leftover('media/tech/.avatar-0123.webp.4242.0123456789ab.tmp', old);
    leftover('pagefind/tech/en/pagefind-entry.json.0123456789ab.tmp', old);
    leftover('tech/recent.html.0123456789ab.tmp', 1000); // another process may be writing it now
    leftover('tech/notes.tmp', old); // not a writer's name
    fs.writeFileSync(path.join(dir, 'tech/hello.html'), '<p>kept</p>');
    expect((await removeStaleTempFiles(dir)).sort()).toEqual([
      'api/public/v1/channels.json.abcdefabcdef.tmp',
      'media/tech/.avatar-0123.webp.4242.0123456789ab.tmp',
      'pagefind/tech/en/pagefind-entry.json.0123456789ab.tmp',
      'tech/hello.html.0123456789ab.tmp',
    ]);
    expect(fs.readdirSync(path.join(dir, 'tech')).sort()).toEqual(['hello.html', 'notes.tmp', 'recent.html.0123456789ab.tmp']);
  });

  it('copes with a missing folder, and leaves no name of its own behind after a write', async () => {
    expect(await removeStaleTempFiles(path.join(dir, 'missing'))).toEqual([]);
    writeAtomically(dir, 'x/page.html', new Uint8Array([1]));
    expect(fs.readdirSync(path.join(dir, 'x'))).toEqual(['page.html']);
  });
});
