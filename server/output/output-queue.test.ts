import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncOutputQueue, createThreadOutputQueue, type OutputQueue } from './output-queue.ts';
import { hashContent } from './output-writer.ts';

const dirs: string[] = [];
const queues: OutputQueue[] = [];
afterEach(async () => {
  for (const q of queues.splice(0)) await q.close().catch(() => undefined);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe.each([
  ['in the calling thread', createSyncOutputQueue],
  ['on a worker thread', createThreadOutputQueue],
])('the output queue %s', (_name, create) => {
  const setup = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-queue-'));
    dirs.push(dir);
    const queue = create(dir);
    queues.push(queue);
    const write = (rel: string, text: string, known?: string) => queue.write(rel, bytes(text), known, hashContent(bytes(text)));
    return { dir, queue, write, read: (rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8') };
  };

  it('counts the bytes waiting to be written, and drain() waits until at most so many wait', async () => {
    const { queue, write, read } = setup();
    const page = 'x'.repeat(100_000);
    for (let i = 0; i < 20; i++) write(`pages/${i}.json`, page);
    expect(queue.backlog).toBeLessThanOrEqual(20 * 100_000);
    await queue.drain(0);
    expect(queue.backlog).toBe(0);
    for (let i = 0; i < 20; i++) expect(read(`pages/${i}.json`)).toBe(page);
    await queue.settled();
  });

  it('writes new and changed files, creating folders, and says at once which it writes', async () => {
    const { queue, write, read } = setup();
    expect(write('a/b/c.json', '{"v":1}')).toBe(true);
    expect(write('top.txt', 'one')).toBe(true);
    await queue.settled();
    expect(read('a/b/c.json')).toBe('{"v":1}');
    expect(write('a/b/c.json', '{"v":1}')).toBe(false); // same bytes
    expect(write('a/b/c.json', '{"v":1}', hashContent(bytes('{"v":1}')))).toBe(false); // known from the manifest
    expect(write('a/b/c.json', '{"v":2}')).toBe(true);
    await queue.settled();
    expect(read('a/b/c.json')).toBe('{"v":2}');
  });

  it('writes a file the caller says is absent without looking for one (a cold build), folders included', async () => {
    const { queue, read } = setup();
    const content = bytes('{"new":true}');
    expect(queue.write('lists/en/page-2.json', content, undefined, hashContent(content), true)).toBe(true);
    await queue.settled();
    expect(read('lists/en/page-2.json')).toBe('{"new":true}');
    // Told the file is absent, the queue does not compare: the same bytes are written again.
    expect(queue.write('lists/en/page-2.json', content, undefined, hashContent(content), true)).toBe(true);
    expect(queue.write('lists/en/page-2.json', content, undefined, hashContent(content))).toBe(false);
    await queue.settled();
  });

  it('keeps the order of writes and deletions, and deletes the folders a deletion empties', async () => {
    const { dir, queue, write, read } = setup();
    write('x/gone.html', 'old');
    write('y/kept.html', 'kept');
    await queue.settled();
    expect(queue.remove('x/gone.html')).toBe(true);
    expect(queue.remove('x/never-there.html')).toBe(false);
    write('y/kept.html', 'new');
    await queue.settled();
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
    expect(read('y/kept.html')).toBe('new');
    // No temporary file is left behind.
    expect(fs.readdirSync(path.join(dir, 'y'))).toEqual(['kept.html']);
  });

  it('reports a failed write once, from settled(), and goes on', async () => {
    const { dir, queue, write, read } = setup();
    fs.mkdirSync(path.join(dir, 'taken', 'by-a-folder.html'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'taken', 'by-a-folder.html', 'inside'), 'x');
    // Sync: the write throws at once; thread: settled() rejects.
    let failed: unknown = null;
    try {
      write('taken/by-a-folder.html', 'page');
      await queue.settled();
    } catch (error) {
      failed = error;
    }
    expect(String(failed)).toMatch(/EISDIR|ENOTEMPTY|EEXIST|directory/i);
    write('after.txt', 'fine');
    await queue.settled();
    expect(read('after.txt')).toBe('fine');
  });

  it('refuses paths outside the output folder', () => {
    const { write } = setup();
    expect(() => write('../escape.txt', 'no')).toThrow(/outside the output folder/);
  });
});

describe('the thread queue in a script', () => {
  it('keeps the process alive while writes are queued, and lets it exit when idle', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-queue-'));
    dirs.push(dir);
    // Only the queue is left to wait for: an unreferenced thread would let the script end with exit code 13.
    const script = [
      `import { createThreadOutputQueue } from ${JSON.stringify(new URL('./output-queue.ts', import.meta.url).href)};`,
      `const q = createThreadOutputQueue(${JSON.stringify(dir)});`,
      `q.write('f.txt', Buffer.from('done'), undefined, 'x');`,
      `await q.settled();`,
      `console.log('settled');`,
    ].join('\n');
    const file = path.join(dir, 'script.mts');
    fs.writeFileSync(file, script);
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: process.cwd(), encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, out: run.stdout.trim() }, run.stderr).toEqual({ status: 0, out: 'settled' });
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('done');
  });
});
