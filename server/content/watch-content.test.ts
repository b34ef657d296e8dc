import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../clock.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { createLogger } from '../logger.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { importContent } from './import-content.ts';
import type { ImportReport } from './import-report.ts';
import { watchContent, type ContentWatcher } from './watch-content.ts';
import { pollUntil } from '../../test/helpers/poll.ts';

const SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content');
const clock = manualClock('2026-11-22T12:00:00.000Z');
const log = createLogger('silent');
let dir: string;
let db: Db;
let accountId: number;
let watcher: ContentWatcher | undefined;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-watch-'));
  fs.cpSync(SAMPLE, path.join(dir, 'content'), { recursive: true });
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  accountId = (await ensureAccount(db, clock, 'local', 'pro')).account.id;
  await importContent({ db, clock, log }, path.join(dir, 'content'), accountId);
});
afterEach(async () => {
  await watcher?.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Waits until an import has happened after `change()`. */
async function afterChange(change: () => void): Promise<ImportReport> {
  const reports: ImportReport[] = [];
  watcher = watchContent({ db, clock, log }, path.join(dir, 'content'), accountId, { debounceMs: 50, onImport: (r) => reports.push(r) });
  await watcher.ready();
  change();
  await pollUntil(() => reports.length, (n) => n > 0, { what: 'the watcher to import the change' });
  await watcher.idle();
  expect(reports.length).toBeGreaterThan(0);
  return reports[reports.length - 1]!;
}

it('imports an edited file while running, and only that article', async () => {
  const file = path.join(dir, 'content/pressroom-journal/welcome/en.md');
  const report = await afterChange(() => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: "Welcome, edited live"')));
  expect(report.counts).toMatchObject({ articles: 1, errors: 0 });
  const row = await db
    .selectFrom('article_translations')
    .innerJoin('articles', 'articles.id', 'article_translations.article_id')
    .select(['article_translations.title', 'article_translations.status'])
    .where('articles.slug', '=', 'welcome')
    .where('article_translations.language', '=', 'en')
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ title: 'Welcome, edited live', status: 'published' });
});

it('reports a broken file by name and keeps watching', async () => {
  const report = await afterChange(() => fs.writeFileSync(path.join(dir, 'content/pressroom-journal/welcome/fr.md'), '---\ntitle: [unclosed\n---\nBody.\n'));
  expect(report.errors).toEqual([expect.objectContaining({ file: expect.stringContaining('welcome') })]);
});

it('runs the start import in its chain once ready: a save made during it is imported after it, none is lost', async () => {
  const reports: ImportReport[] = [];
  watcher = watchContent({ db, clock, log }, path.join(dir, 'content'), accountId, { debounceMs: 50, onImport: (r) => reports.push(r) });
  await watcher.ready();
  const started = watcher.importNow();
  // Saved while the start's import may be reading the folder: the watcher sees it, and imports it after.
  fs.mkdirSync(path.join(dir, 'content/pressroom-journal/late'));
  fs.writeFileSync(path.join(dir, 'content/pressroom-journal/late/en.md'), '---\ntitle: Saved during the start\nstatus: published\n---\n\nLate.\n');
  await started;
  await pollUntil(
    () => db.selectFrom('articles').select('slug').where('slug', '=', 'late').execute(),
    (rows) => rows.length === 1,
    { what: 'the file saved during the start import to be imported' },
  );
  await watcher.idle();
});
