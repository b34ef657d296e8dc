import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMediaStorage, safeMediaPath, type MediaStorage } from './media-storage.ts';

let dir: string;
let storage: MediaStorage;
const bytes = (text: string) => new TextEncoder().encode(text);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-media-'));
  storage = createMediaStorage(path.join(dir, 'media'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('safeMediaPath', () => {
  it('resolves plain names under the root', () => {
    expect(safeMediaPath('/srv/media', 'news/_drafts/0a.webp')).toBe(path.resolve('/srv/media/news/_drafts/0a.webp'));
  });

  it.each([
    '../secret',
    'news/../../secret',
    'news/./a.webp',
    '/etc/passwd',
    'news\\..\\a.webp',
    'news//a.webp',
    '.hidden.tmp',
    'news/.a.webp.tmp',
    'a\0b',
    '',
  ])('refuses %j', (name) => {
    expect(safeMediaPath('/srv/media', name)).toBeNull();
  });
});

describe('createMediaStorage', () => {
  it('writes atomically, leaving no temporary behind, and keeps an existing file', async () => {
    await storage.write('news/_drafts/a.webp', bytes('one'));
    await storage.write('news/_drafts/a.webp', bytes('two'));
    const folder = path.join(dir, 'media/news/_drafts');
    expect(fs.readdirSync(folder)).toEqual(['a.webp']);
    expect(fs.readFileSync(path.join(folder, 'a.webp'), 'utf8')).toBe('one');
    expect(await storage.exists('news/_drafts/a.webp')).toBe(true);
  });

  it('copies within the folder and reports a missing source', async () => {
    await storage.write('news/_drafts/a.webp', bytes('img'));
    expect(await storage.copy('news/_drafts/a.webp', 'news/hello/a.webp')).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'media/news/hello/a.webp'), 'utf8')).toBe('img');
    expect(await storage.copy('news/_drafts/gone.webp', 'news/hello/gone.webp')).toBe(false);
  });

  it('throws on a name that would leave the folder', async () => {
    await expect(storage.write('../outside.webp', bytes('x'))).rejects.toThrow(/Not a valid media file name/);
    await expect(storage.remove('news/../../x')).rejects.toThrow(/Not a valid media file name/);
    expect(fs.existsSync(path.join(dir, 'outside.webp'))).toBe(false);
  });

  it('sweeps old files of a folder that are not kept, temporaries included', async () => {
    await storage.write('news/_drafts/keep.webp', bytes('k'));
    await storage.write('news/_drafts/drop.webp', bytes('d'));
    fs.writeFileSync(path.join(dir, 'media/news/_drafts/.drop.webp.1.abc.tmp'), 'partial');
    const kept = new Set(['keep.webp']);
    expect(await storage.sweep('news/_drafts', Date.now() - 60_000, async (name) => kept.has(name))).toBe(0);
    expect(await storage.sweep('news/_drafts', Date.now() + 60_000, async (name) => kept.has(name))).toBe(2);
    expect(fs.readdirSync(path.join(dir, 'media/news/_drafts'))).toEqual(['keep.webp']);
    expect(await storage.sweep('nobody/_drafts', Date.now(), async () => false)).toBe(0);
  });
});

describe('resolveExisting', () => {
  it('follows no symbolic link out of the media folder (issue 18)', async () => {
    await storage.write('news/a.webp', bytes('one'));
    fs.writeFileSync(path.join(dir, 'secret.webp'), 'SECRET');
    fs.symlinkSync(path.join(dir, 'secret.webp'), path.join(dir, 'media/news/leak.webp'));
    fs.symlinkSync(dir, path.join(dir, 'media/up'));
    fs.symlinkSync(path.join(dir, 'media/news/a.webp'), path.join(dir, 'media/news/alias.webp'));
    expect(await storage.resolveExisting('news/leak.webp')).toBeNull();
    expect(await storage.resolveExisting('up/secret.webp')).toBeNull();
    expect(await storage.resolveExisting('news/missing.webp')).toBeNull();
    expect(await storage.resolveExisting('news/a.webp')).toBe(fs.realpathSync(path.join(dir, 'media/news/a.webp')));
    expect(await storage.resolveExisting('news/alias.webp')).toBe(fs.realpathSync(path.join(dir, 'media/news/a.webp')));
  });
});

describe('the output folder\'s copy (media live in the data folder)', () => {
  let kept: string;
  let shown: string;
  let published: ReturnType<typeof createMediaStorage>;
  beforeEach(() => {
    kept = path.join(dir, 'data', 'media');
    shown = path.join(dir, 'dist', 'media');
    published = createMediaStorage(kept, shown);
  });

  it('places each written or copied file in the output too (the same file), and removes it with the original', async () => {
    await published.write('news/_drafts/a.webp', bytes('a'));
    expect(await published.copy('news/_drafts/a.webp', 'news/2026/a.webp')).toBe(true);
    for (const name of ['news/_drafts/a.webp', 'news/2026/a.webp']) {
      expect(fs.readFileSync(path.join(shown, name), 'utf8')).toBe('a');
      expect(fs.statSync(path.join(shown, name)).ino).toBe(fs.statSync(path.join(kept, name)).ino);
    }
    await published.remove('news/2026/a.webp');
    expect([fs.existsSync(path.join(kept, 'news/2026/a.webp')), fs.existsSync(path.join(shown, 'news/2026/a.webp'))]).toEqual([false, false]);
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(kept, 'news/_drafts/a.webp'), old, old);
    expect(await published.sweep('news/_drafts', Date.now(), async () => false)).toBe(1);
    expect(fs.existsSync(path.join(shown, 'news/_drafts/a.webp'))).toBe(false);
  });

  it('makes the output\'s copy equal to the data folder at start: a deleted output folder gets its media back, a stray file goes', async () => {
    await published.write('news/2026/a.webp', bytes('a'));
    await published.write('news/2026/b.webp', bytes('b'));
    fs.rmSync(path.join(dir, 'dist'), { recursive: true });
    fs.mkdirSync(path.join(shown, 'news'), { recursive: true });
    fs.writeFileSync(path.join(shown, 'news/stray.webp'), 'nobody uploaded this');
    expect(await published.publishAll()).toEqual({ adopted: 0, placed: 2, removed: 1 });
    expect(fs.readFileSync(path.join(shown, 'news/2026/b.webp'), 'utf8')).toBe('b');
    expect(fs.existsSync(path.join(shown, 'news/stray.webp'))).toBe(false);
    expect(await published.publishAll()).toEqual({ adopted: 0, placed: 0, removed: 0 });
  });

  it('adopts the media of a site from before they moved: the output\'s files become the originals', async () => {
    fs.mkdirSync(path.join(shown, 'news/2026'), { recursive: true });
    fs.writeFileSync(path.join(shown, 'news/2026/old.webp'), 'old');
    expect(await published.publishAll()).toEqual({ adopted: 1, placed: 0, removed: 0 });
    expect(fs.readFileSync(path.join(kept, 'news/2026/old.webp'), 'utf8')).toBe('old');
    expect(await published.resolveExisting('news/2026/old.webp')).toBe(fs.realpathSync(path.join(kept, 'news/2026/old.webp')));
  });
});
