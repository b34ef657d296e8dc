import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnswerFiles, privateAnswersDir } from './answer-files.ts';
import { etagOf, type ConditionalBody } from './conditional-get.ts';

let root: string;
let dir: string;
// The output files' stamps, as the output file cache would give them.
let stamps: Map<string, string>;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'answer-files-'));
  dir = path.join(root, 'answers');
  stamps = new Map();
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const bodyOf = (text: string): ConditionalBody => ({
  bytes: new TextEncoder().encode(text),
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'public, max-age=60, must-revalidate',
  etag: etagOf(text),
  lastModified: new Date('2026-01-02T03:04:05Z'),
  headers: { 'Cache-Tag': 'pressroom:q:wire' },
});

function store(maxBytes = 1_000_000, memoryBytes = 0) {
  return createAnswerFiles({ dir, maxBytes, memoryBytes, stampOf: async (file) => stamps.get(file) ?? null });
}

const filesIn = () => fs.readdirSync(dir);

describe('answers kept on disk', () => {
  it('says once a run that an answer could not be written', async () => {
    const failures: unknown[] = [];
    const files = createAnswerFiles({ dir, maxBytes: 1_000_000, stampOf: async () => 'ino1', onWriteFailed: (error) => failures.push(error) });
    fs.rmSync(dir, { recursive: true });
    files.put('/a', { file: 'a.json', stamp: 'ino1' }, bodyOf('a'));
    files.put('/b', { file: 'a.json', stamp: 'ino1' }, bodyOf('b'));
    await files.settled();
    expect(failures).toHaveLength(1);
    expect(await files.get('/a')).toBeUndefined();
  });

  it('gives back the bytes and validators kept, with the same meta object each time, while the file is the same', async () => {
    const files = store();
    stamps.set('a.json', 'ino1');
    const body = bodyOf('{"a":1}');
    files.put('/a?include=html', { file: 'a.json', stamp: 'ino1' }, body);
    await files.settled();
    const first = await files.get('/a?include=html');
    const second = await files.get('/a?include=html');
    expect(first?.body).toEqual(body);
    expect(first?.meta).toBe(second?.meta);
    expect(files.size()).toBe(body.bytes.byteLength);
    expect(await files.get('/b?include=html')).toBeUndefined();
  });

  it('forgets an answer, and deletes its file, once the file it was made from changed or is gone', async () => {
    const files = store();
    stamps.set('a.json', 'ino1');
    stamps.set('b.json', 'ino2');
    files.put('/a', { file: 'a.json', stamp: 'ino1' }, bodyOf('a'));
    files.put('/b', { file: 'b.json', stamp: 'ino2' }, bodyOf('b'));
    await files.settled();
    expect(filesIn()).toHaveLength(2);
    stamps.set('a.json', 'ino3'); // rewritten by a build
    stamps.delete('b.json'); // deleted by a build
    expect(await files.get('/a')).toBeUndefined();
    expect(await files.get('/b')).toBeUndefined();
    await files.settled();
    expect(filesIn()).toEqual([]);
    expect(files.size()).toBe(0);
  });

  it('drops the answers of the files a build placed, whatever spelling of the address kept them', async () => {
    const files = store();
    stamps.set('a.json', 'ino1');
    files.put('/a?include=html', { file: 'a.json', stamp: 'ino1' }, bodyOf('a'));
    files.put('/a?include=html&lang=en', { file: 'a.json', stamp: 'ino1' }, bodyOf('a'));
    files.put('/c?include=html', { file: 'c.json', stamp: 'ino9' }, bodyOf('c'));
    await files.settled();
    files.invalidate(['a.json', 'x.json']);
    stamps.set('c.json', 'ino9');
    expect(await files.get('/a?include=html')).toBeUndefined();
    expect(await files.get('/a?include=html&lang=en')).toBeUndefined();
    expect(await files.get('/c?include=html')).toBeDefined();
    await files.settled();
    expect(filesIn()).toHaveLength(1);
  });

  it('a later answer for the same key replaces the earlier one, whose file goes', async () => {
    const files = store();
    stamps.set('a.json', 'ino2');
    files.put('/a', { file: 'a.json', stamp: 'ino1' }, bodyOf('old'));
    await files.settled();
    files.put('/a', { file: 'a.json', stamp: 'ino2' }, bodyOf('new'));
    await files.settled();
    expect(new TextDecoder().decode((await files.get('/a'))!.body.bytes)).toBe('new');
    await files.settled();
    expect(filesIn()).toHaveLength(1);
  });

  it('holds at most maxBytes, the least recently used going first; an answer over a quarter of it is not kept', async () => {
    const files = store(40);
    for (const name of ['a', 'b', 'c']) stamps.set(`${name}.json`, name);
    files.put('/a', { file: 'a.json', stamp: 'a' }, bodyOf('x'.repeat(10)));
    await files.settled();
    files.put('/b', { file: 'b.json', stamp: 'b' }, bodyOf('y'.repeat(10)));
    await files.settled();
    expect(await files.get('/a')).toBeDefined(); // now the most recent
    files.put('/c', { file: 'c.json', stamp: 'c' }, bodyOf('z'.repeat(10)));
    files.put('/d', { file: 'c.json', stamp: 'c' }, bodyOf('w'.repeat(11)));
    await files.settled();
    expect(files.size()).toBeLessThanOrEqual(40);
    expect(await files.get('/d')).toBeUndefined();
    expect(await files.get('/a')).toBeDefined();
    expect(await files.get('/c')).toBeDefined();
    expect(files.size()).toBe(30);
  });

  it('holds the most recently used answers in memory too, within memoryBytes, checked against the file all the same', async () => {
    const files = store(1_000_000, 40);
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) stamps.set(`${name}.json`, name);
    for (const name of names) {
      files.put(`/${name}`, { file: `${name}.json`, stamp: name }, bodyOf(name.repeat(10)));
      await files.settled();
    }
    // Their files gone, the bytes held in memory still answer: the four most recent (40 bytes hold four of ten).
    for (const name of filesIn()) fs.rmSync(path.join(dir, name));
    expect(await files.get('/a')).toBeUndefined();
    for (const name of names.slice(1)) expect(new TextDecoder().decode((await files.get(`/${name}`))!.body.bytes)).toBe(name.repeat(10));
    stamps.set('c.json', 'rewritten');
    expect(await files.get('/c')).toBeUndefined();
  });

  it('starts empty: what an earlier run kept, and a folder it was still removing, go', async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'old.json'), 'stale');
    fs.mkdirSync(path.join(root, 'answers.removing-1-2'));
    fs.writeFileSync(path.join(root, 'answers.removing-1-2', 'older.json'), 'stale');
    const files = store();
    expect(filesIn()).toEqual([]);
    expect(await files.get('/a')).toBeUndefined();
    const deadline = Date.now() + 10_000;
    while (fs.readdirSync(root).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fs.readdirSync(root)).toEqual(['answers']);
  });

  it('a kept file removed under it is made again, not an error; so is one that could not be written', async () => {
    const files = store();
    stamps.set('a.json', 'ino1');
    files.put('/a', { file: 'a.json', stamp: 'ino1' }, bodyOf('a'));
    await files.settled();
    for (const name of filesIn()) fs.rmSync(path.join(dir, name));
    expect(await files.get('/a')).toBeUndefined();
    fs.rmSync(dir, { recursive: true });
    files.put('/b', { file: 'a.json', stamp: 'ino1' }, bodyOf('b'));
    await files.settled();
    expect(await files.get('/b')).toBeUndefined();
  });
});

describe('a private folder of kept answers (a web instance\'s)', () => {
  it('is named for its process, and removes the folders of processes that no longer run, not those of live ones', () => {
    fs.mkdirSync(path.join(root, 'pressroom-answers-4001-aaaaaa'));
    fs.writeFileSync(path.join(root, 'pressroom-answers-4001-aaaaaa', 'kept'), 'x');
    fs.mkdirSync(path.join(root, 'pressroom-answers-4002-bbbbbb'));
    fs.mkdirSync(path.join(root, 'pressroom-answers-cccccc'));
    fs.mkdirSync(path.join(root, 'something-else-4001'));
    const mine = privateAnswersDir(root, (pid) => pid === 4002);
    expect(path.basename(mine)).toMatch(new RegExp(`^pressroom-answers-${process.pid}-`));
    expect(fs.readdirSync(root).sort()).toEqual(['pressroom-answers-4002-bbbbbb', 'pressroom-answers-cccccc', path.basename(mine), 'something-else-4001'].sort());
  });

  it('keeps this process\'s other folders by the real check: a live pid is one that exists', () => {
    const first = privateAnswersDir(root);
    const second = privateAnswersDir(root);
    expect(fs.existsSync(first) && fs.existsSync(second)).toBe(true);
  });
});
