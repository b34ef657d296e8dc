/**
 * content/ reads regular files inside the folder only (issue 40, item 1): a
 * git checkout can carry a symbolic link, and an operator's disk a FIFO. A
 * link to a file outside must not publish it, a link to `/dev/zero` or a
 * FIFO must not stall the start or the watcher, and a file past the size cap
 * is refused unread. Each is reported by name; the rest of content/ imports.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { MAX_CONTENT_FILE_BYTES, readContentTree } from './content-tree.ts';
import { importContent } from './import-content.ts';
import { watchContent, type ContentWatcher } from './watch-content.ts';
import { pollUntil } from '../../test/helpers/poll.ts';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-CONTENT-FOLDER';
const CHANNEL_MD = '---\ndefault_language: en\ntranslations:\n  - language: en\n    title: News\n---\n';
const article = (title: string) => `---\ntitle: ${title}\nstatus: published\n---\nBody of ${title}.\n`;

let dir: string;
let content: string;
let db: Db;
let accountId: number;
let watcher: ContentWatcher | null = null;
const clock = manualClock('2026-11-22T12:00:00.000Z');
const log = createLogger('silent');

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(content, rel)), { recursive: true });
  fs.writeFileSync(path.join(content, rel), text);
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-hostile-content-'));
  content = path.join(dir, 'content');
  write('news/channel.md', CHANNEL_MD);
  write('news/good/en.md', article('Good'));
  // What lies outside the folder: a secret article file and a whole channel.
  fs.mkdirSync(path.join(dir, 'outside', 'elsewhere', 'leak'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'outside', 'secret.md'), article(SECRET));
  fs.writeFileSync(path.join(dir, 'outside', 'elsewhere', 'channel.md'), CHANNEL_MD);
  fs.writeFileSync(path.join(dir, 'outside', 'elsewhere', 'leak', 'en.md'), article(SECRET));
  db = openDatabase(path.join(dir, 'data', 'pressroom.db'));
  await migrateToLatest(db);
  accountId = (await ensureAccount(db, clock, 'local', 'pro')).account.id;
});

afterEach(async () => {
  await watcher?.close();
  watcher = null;
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every text the database holds, for the leak check. */
async function storedText(): Promise<string> {
  const rows = await db.selectFrom('article_translations').select(['title', 'content_markdown']).execute();
  const channels = await db.selectFrom('channels').select('slug').execute();
  return JSON.stringify([rows, channels]);
}

describe('content/ with links, FIFOs, devices and oversized files', () => {
  it('imports the regular files, and refuses by name a link to a file outside, a linked channel folder, a link to /dev/zero, a FIFO and a file past the cap', async () => {
    fs.mkdirSync(path.join(content, 'news', 'linked'), { recursive: true });
    fs.symlinkSync(path.join(dir, 'outside', 'secret.md'), path.join(content, 'news', 'linked', 'en.md'));
    fs.symlinkSync(path.join(dir, 'outside', 'elsewhere'), path.join(content, 'elsewhere'));
    fs.mkdirSync(path.join(content, 'news', 'zero'), { recursive: true });
    fs.symlinkSync('/dev/zero', path.join(content, 'news', 'zero', 'en.md'));
    fs.mkdirSync(path.join(content, 'news', 'fifo'), { recursive: true });
    execFileSync('mkfifo', [path.join(content, 'news', 'fifo', 'en.md')]);
    fs.mkdirSync(path.join(content, 'news', 'huge'), { recursive: true });
    fs.writeFileSync(path.join(content, 'news', 'huge', 'en.md'), '');
    fs.truncateSync(path.join(content, 'news', 'huge', 'en.md'), MAX_CONTENT_FILE_BYTES + 1);

    const report = await importContent({ db, clock, log }, content, accountId);
    expect(report.counts).toMatchObject({ channels: 1, articles: 1 });
    const refused = Object.fromEntries(report.errors.map((e) => [e.file, e.message]));
    expect(Object.keys(refused).sort()).toEqual(['elsewhere/', 'news/fifo/en.md', 'news/huge/en.md', 'news/linked/en.md', 'news/zero/en.md']);
    expect(refused['elsewhere/']).toMatch(/^Skipped: a symbolic link\. content\/ imports only regular folders inside the folder/);
    expect(refused['news/linked/en.md']).toMatch(/^Skipped: a symbolic link\..*Replace it with the file itself\..*was not applied/);
    expect(refused['news/zero/en.md']).toMatch(/^Skipped: a symbolic link/);
    expect(refused['news/fifo/en.md']).toMatch(/^Skipped: not a regular file \(a FIFO, socket or device\)/);
    expect(refused['news/huge/en.md']).toMatch(/^Skipped: 8\.0 MB, more than the 8 MB a content file may have/);
    expect((await db.selectFrom('articles').select('slug').execute()).map((r) => r.slug)).toEqual(['good']);
    expect(await storedText()).not.toContain(SECRET);
    expect(await storedText()).not.toContain('elsewhere');
  });

  it('keeps a stored article as it was when one of its files becomes a link, instead of dropping that language', async () => {
    write('news/good/fr.md', article('Bon'));
    await importContent({ db, clock, log }, content, accountId);
    fs.rmSync(path.join(content, 'news', 'good', 'fr.md'));
    fs.symlinkSync(path.join(dir, 'outside', 'secret.md'), path.join(content, 'news', 'good', 'fr.md'));
    const report = await importContent({ db, clock, log }, content, accountId);
    expect(report.errors.map((e) => e.file)).toEqual(['news/good/fr.md']);
    const languages = await db.selectFrom('article_translations').select(['language', 'title']).orderBy('language').execute();
    expect(languages).toEqual([{ language: 'en', title: 'Good' }, { language: 'fr', title: 'Bon' }]);
    expect(await storedText()).not.toContain(SECRET);
  });

  it('keeps a channel\'s stored settings when its channel.md becomes a link', async () => {
    await importContent({ db, clock, log }, content, accountId);
    fs.rmSync(path.join(content, 'news', 'channel.md'));
    fs.symlinkSync(path.join(dir, 'outside', 'elsewhere', 'channel.md'), path.join(content, 'news', 'channel.md'));
    const report = await importContent({ db, clock, log }, content, accountId);
    expect(report.errors).toEqual([{ file: 'news/channel.md', message: expect.stringMatching(/^Skipped: a symbolic link.*The channel keeps its stored settings/) }]);
  });

  it('lists the tree without reading what a link points to', async () => {
    fs.symlinkSync('/dev/zero', path.join(content, 'news', 'good', 'de.md'));
    const tree = (await readContentTree(content))!;
    const good = tree.channels[0]!.articles.find((a) => a.name === 'good')!;
    expect(good.files.map((f) => f.name)).toEqual(['en.md']);
    expect(good.refused.map((r) => r.file)).toEqual(['news/good/de.md']);
  });

  it('keeps watching: a FIFO saved into content/ neither blocks the watcher nor stops later edits from importing', async () => {
    await importContent({ db, clock, log }, content, accountId);
    const reports: Array<{ errors: Array<{ file: string }> }> = [];
    watcher = watchContent({ db, clock, log }, content, accountId, { debounceMs: 50, onImport: (r) => reports.push(r) });
    await watcher.ready();
    fs.mkdirSync(path.join(content, 'news', 'pipe'));
    execFileSync('mkfifo', [path.join(content, 'news', 'pipe', 'en.md')]);
    await pollUntil(() => reports.flatMap((r) => r.errors.map((e) => e.file)), (files) => files.includes('news/pipe/en.md'), { what: 'the FIFO to be reported' });
    write('news/later/en.md', article('Later'));
    await pollUntil(async () => (await db.selectFrom('articles').select('slug').execute()).map((r) => r.slug), (slugs) => slugs.includes('later'), { what: 'the later edit to import' });
  });
});
