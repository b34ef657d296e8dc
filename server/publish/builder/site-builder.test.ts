/**
 * The builder's own tests, over a real SQLite file and real files, with the
 * real JSON, Markdown, feed and sitemap renderers; only the HTML renderer
 * (Astro, a heavy dependency behind `HtmlRenderer`) is a small stand-in that
 * prints what a page shows (`test/support/builder-fixture.ts`). The
 * end-to-end suite (`test/e2e/static-build`) runs the same builder with
 * Astro; the full build with real render threads is tested in
 * `test/e2e/build-threads.test.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBuilderFixture, STAND_IN_CARDS, type BuilderFixture } from '../../../test/support/builder-fixture.ts';
import { createCursorCodec } from '../../domain/cursor.ts';
import { insertChannelFor } from '../../domain/channel/channel.service.ts';
import { announcePublicChange } from '../../domain/public-change.ts';
import { createLogger } from '../../logger.ts';
import { createRenderers } from '../../render/renderers.ts';
import { readBuildOwners } from '../../store/build-owner.repository.ts';
import { checkOutputInWorker } from '../workers/output-check.ts';
import { checkOutput } from './known-output.ts';
import type { SiteBuilderDeps } from './build-context.ts';

let f: BuilderFixture;
const notADatabase = () => {
  const file = path.join(f.dir, 'not-a-database.db');
  fs.writeFileSync(file, 'this is not SQLite '.repeat(100));
  return file;
};

beforeEach(async () => {
  f = await openBuilderFixture('pressroom-builder-');
});
afterEach(() => f.close());

describe('full build', () => {
  it('writes every owner\'s files, holds the public state, and a second full build writes nothing', async () => {
    const id = await f.publish('first', 'First');
    await f.publish('hidden', 'Hidden', 'draft');
    const builder = f.makeBuilder();
    const report = await builder.fullBuild();
    expect(report.full).toBe(true);
    expect(report.written).toBeGreaterThan(10);
    expect(f.read(f.md('first'))).toContain('First');
    expect(f.read('news/index.html')).toContain('<li>First</li>');
    expect(f.exists(f.md('hidden'))).toBe(false);
    const state = await builder.publicState();
    expect([...state.articles.keys()]).toEqual([id]);
    expect(state.channels.map((c) => c.slug)).toEqual(['news']);
    expect(Object.isFrozen(state.articles.get(id))).toBe(true);
    const again = await builder.fullBuild();
    expect({ written: again.written, removed: again.removed }).toEqual({ written: 0, removed: 0 });
  });

  it('logs when it turns to the lists, and what it did once done', async () => {
    await f.publish('first', 'First');
    const lines: string[] = [];
    await f.makeBuilder({ log: createLogger('info', 'test', (l) => lines.push(l)) }).fullBuild();
    expect(lines.find((l) => l.includes('full build lists'))).toMatch(/articles=1 channels=1 ms=\d+ rendered=1 early=1/);
    expect(lines.find((l) => l.includes('full build done'))).toMatch(/written=\d+ unchanged=0 removed=0 ms=\d+/);
    expect(lines.findIndex((l) => l.includes('full build lists'))).toBeLessThan(lines.findIndex((l) => l.includes('full build done')));
  });

  it('renders a channel\u2019s lists once its last article is applied, before the next channel\u2019s articles are done', async () => {
    const sportsId = await f.db.transaction().execute(async (trx) => (await insertChannelFor(trx, f.clock, f.principal, { slug: 'sports', default_language: 'en', translations: [{ language: 'en', title: 'Sports' }] })).id);
    for (const [channel, count] of [['news', 40], ['sports', 40]] as const) {
      for (let i = 0; i < count; i++) await f.publish(`${channel}-${i}`, `${channel} ${i}`, 'published', channel);
    }
    const events: string[] = [];
    const base = createRenderers(f.html, STAND_IN_CARDS);
    const renderers = {
      ...base,
      articleHtml: (...args: Parameters<typeof base.articleHtml>) => (events.push(`article ${args[0].channel.slug}`), base.articleHtml(...args)),
      channelHtml: (...args: Parameters<typeof base.channelHtml>) => (events.push(`lists ${args[0].slug}`), base.channelHtml(...args)),
    };
    await f.makeBuilder({ renderers }).fullBuild();
    const first = (e: string) => events.indexOf(e);
    const last = (e: string) => events.lastIndexOf(e);
    for (const channel of ['news', 'sports']) expect(first(`lists ${channel}`)).toBeGreaterThan(last(`article ${channel}`));
    // Whichever channel came first, its lists were rendered while the other's articles were.
    const [early, late] = first('lists news') < first('lists sports') ? ['news', 'sports'] : ['sports', 'news'];
    expect(first(`lists ${early}`)).toBeLessThan(last(`article ${late}`));
    // And they show every article of their channel, as lists rendered at the end did.
    expect(f.read('news/index.html')).toContain('<li>news 39</li>');
    expect(f.read('sports/index.html')).toContain('<li>sports 39</li>');
    expect(sportsId).toBeGreaterThan(f.channelId);
    expect((await f.makeBuilder().fullBuild()).written).toBe(0);
  });

  it('holds one object per channel, however many batches rendered its articles', async () => {
    // Each batch of rendered articles reads its heads anew (a worker's arrive as copies): the index keeps one channel.
    await f.publishMany(40);
    const builder = f.makeBuilder();
    await builder.fullBuild();
    const state = await builder.publicState();
    const channels = new Set([...state.articles.values()].map((a) => a.channel));
    expect(state.articles.size).toBe(40);
    expect(channels.size).toBe(1);
    expect([...channels][0]).toBe(state.channels[0]);
  });

  it.each([
    ['in this thread', {}],
    ['in a thread of its own (as for a large site)', { checkOutput: () => checkOutputInWorker({ database: f.databaseFile, outputDir: f.outputDir }), checkThreadMinFiles: 0 }],
    // The thread fails (it is given a file that is not a database): the build checks in its own thread instead.
    ['here after its thread failed', { checkOutput: () => checkOutputInWorker({ database: notADatabase(), outputDir: f.outputDir }), checkThreadMinFiles: 0 }],
  ])('deletes a file no owner produces and renders again an owner whose file went missing, the output checked %s', async (_how, more: Partial<SiteBuilderDeps>) => {
    await f.publish('first', 'First');
    const builder = f.makeBuilder(more);
    await builder.fullBuild();
    fs.writeFileSync(path.join(f.outputDir, 'stray.html'), 'left by a crash');
    fs.rmSync(path.join(f.outputDir, f.md('first')));
    const report = await builder.fullBuild();
    expect(f.exists('stray.html')).toBe(false);
    expect(f.read(f.md('first'))).toContain('First');
    expect(report.changedPaths.sort()).toEqual([f.md('first'), 'stray.html'].sort());
  });

  it('writes a list file again when it went missing, though its inputs did not change', async () => {
    await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    fs.rmSync(path.join(f.outputDir, 'news/index.html'));
    const report = await builder.fullBuild();
    expect(f.read('news/index.html')).toContain('<li>First</li>');
    expect(report.changedPaths).toEqual(['news/index.html']);
    expect((await builder.fullBuild()).written).toBe(0);
  });
});

describe('the output folder against the manifest', () => {
  it('records each file with the stamp it was written with, so a check after a build hashes nothing', async () => {
    await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    expect((await checkOutput(f.db, f.outputDir)).hashed).toBe(0);
    await f.publish('second', 'Second');
    await builder.applyEvents();
    expect((await checkOutput(f.db, f.outputDir)).hashed).toBe(0);
  });

  it('repairs a file edited by hand, one deleted and one nobody recorded, and finds nothing the next time', async () => {
    await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    const page = f.read('news/index.html');
    fs.writeFileSync(path.join(f.outputDir, 'news/index.html'), 'defaced');
    fs.rmSync(path.join(f.outputDir, f.md('first')));
    fs.writeFileSync(path.join(f.outputDir, 'stray.html'), 'left by a crash');
    const repaired = await builder.repairOutput();
    expect(repaired?.check.damaged).toEqual(['news/index.html']);
    expect(repaired?.check.unrecorded).toEqual(['stray.html']);
    expect(f.read('news/index.html')).toBe(page);
    expect(f.read(f.md('first'))).toContain('First');
    expect(f.exists('stray.html')).toBe(false);
    expect(await builder.repairOutput()).toBeNull();
  });
});

describe('a full build in a new process (list owners)', () => {
  /** A builder whose list and channel-page renders are counted (as a new process's: nothing remembered). */
  const countingBuilder = (secret = 'builder-test-secret-0123456789abcdef') => {
    const counts = { lists: 0, channelPages: 0 };
    const base = createRenderers(f.html, STAND_IN_CARDS);
    const renderers = {
      ...base,
      articleList: (...args: Parameters<typeof base.articleList>) => (counts.lists++, base.articleList(...args)),
      channelHtml: (...args: Parameters<typeof base.channelHtml>) => (counts.channelPages++, base.channelHtml(...args)),
    };
    return { counts, builder: f.makeBuilder({ renderers, cursors: createCursorCodec(secret) }) };
  };
  const listDir = 'api/public/v1/channels/news/articles';
  const cursorPages = () => fs.readdirSync(path.join(f.outputDir, listDir), { recursive: true, encoding: 'utf8' }).filter((file) => file.includes('_cursor/'));

  it('renders no list file when its inputs hash as recorded, and renders again when a file, the channel or the cursor key changed', async () => {
    await f.publishMany(45);
    await f.makeBuilder().fullBuild();
    const pages = cursorPages();
    expect(pages.length).toBeGreaterThan(2);

    const warm = countingBuilder();
    expect(await warm.builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    expect(warm.counts).toEqual({ lists: 0, channelPages: 0 });

    // A cursor page went missing: its owner is rendered again; only the missing file is written.
    const gone = `${listDir}/${pages[0]!}`;
    fs.rmSync(path.join(f.outputDir, gone));
    const missing = countingBuilder();
    const report = await missing.builder.fullBuild();
    expect(missing.counts.lists).toBeGreaterThan(0);
    expect(report.changedPaths).toEqual([gone]);
    expect(f.exists(gone)).toBe(true);

    // The channel changed with no event (a full build reads it from the store): its pages show the new name.
    await f.db.updateTable('channel_translations').set({ title: 'Daily News' }).where('channel_id', '=', f.channelId).execute();
    const renamed = countingBuilder();
    await renamed.builder.fullBuild();
    expect(renamed.counts.channelPages).toBeGreaterThan(0);
    expect(f.read('news/index.html')).toContain('Daily News');

    // An article changed with no event: the page of the list that shows it shows the change.
    for (const table of ['article_translations', 'revisions'] as const) await f.db.updateTable(table).set({ title: 'Article zero, retitled' }).where('title', '=', 'Article 0').execute();
    const retitled = countingBuilder();
    await retitled.builder.fullBuild();
    expect(retitled.counts.lists).toBeGreaterThan(0);
    expect(cursorPages().some((p) => f.read(`${listDir}/${p}`).includes('Article zero, retitled'))).toBe(true);

    // Another cursor key names every cursor page anew: the old names go.
    const rekeyed = countingBuilder('another-secret-0123456789abcdefghij');
    await rekeyed.builder.fullBuild();
    expect(cursorPages().length).toBe(pages.length);
    expect(cursorPages().filter((p) => pages.includes(p))).toEqual([]);
    expect((await countingBuilder('another-secret-0123456789abcdefghij').builder.fullBuild()).written).toBe(0);
  });

  it('renders them again after an incremental build changed them (that build forgets the recorded input hash)', async () => {
    await f.publishMany(25);
    const service = f.makeBuilder();
    await service.fullBuild();
    const owners = async () => [...(await readBuildOwners(f.db)).keys()].filter((o) => !o.startsWith('article:')).sort();
    expect(await owners()).toEqual([`channel:${f.channelId}`, `pages:${f.channelId}`]);
    await f.publish('late', 'Late');
    await service.applyEvents();
    expect(await owners()).toEqual([]);
    const next = countingBuilder();
    expect(await next.builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    expect(next.counts.lists).toBeGreaterThan(0);
    expect(f.read('api/public/v1/channels/news/articles.json')).toContain('Late');
    expect(await owners()).toEqual([`channel:${f.channelId}`, `pages:${f.channelId}`]);
  });
});

describe('release', () => {
  it('released, forgets its state and reads it again: the same state, nothing written again, a later publish built', async () => {
    const id = await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    const held = await builder.publicState();
    await builder.release();
    const again = await builder.publicState();
    // Read again from the store: new objects, the same content.
    expect(again.articles.get(id)).not.toBe(held.articles.get(id));
    expect(again.articles.get(id)).toEqual(held.articles.get(id));
    expect(again.channels).toEqual(held.channels);
    expect(again.anchors).toEqual(held.anchors);
    // Read without a build, its articles still point at the channel objects of its list (a delta names them by place).
    expect(again.articles.get(id)!.channel).toBe(again.channels[0]);
    await builder.release();
    expect(await builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    await builder.release();
    await f.publish('second', 'Second');
    const report = await builder.applyEvents();
    expect(report.written).toBeGreaterThan(0);
    expect(f.exists(f.md('second'))).toBe(true);
    expect(f.read('news/index.html')).toContain('<li>Second</li>');
    expect(f.read('news/index.html')).toContain('<li>First</li>');
  });
});


describe('incremental build, per event kind', () => {
  it('article_public_changed: re-plans the article, its channel and the site; unpublishing removes its files', async () => {
    await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    const id = await f.publish('second', 'Second');
    const report = await builder.applyEvents();
    expect(report.articleIds).toEqual([id]);
    expect(f.read(f.md('second'))).toContain('Second');
    expect(f.read('news/index.html')).toContain('<li>Second</li>');
    expect(f.read('index.html')).toContain('<li>Second</li>');
    expect((await builder.publicState()).articles.has(id)).toBe(true);

    await f.db.transaction().execute(async (trx) => {
      await trx.updateTable('articles').set({ status: 'archived' }).where('id', '=', id).execute();
      await announcePublicChange(trx, { kind: 'article', channelId: f.channelId, articleId: id }, f.clock.now().toISOString());
    });
    const removed = await builder.applyEvents();
    expect(removed.removed).toBeGreaterThan(0);
    expect(f.exists(f.md('second'))).toBe(false);
    expect(f.read('news/index.html')).not.toContain('Second');
    expect((await builder.publicState()).articles.has(id)).toBe(false);
    expect((await builder.applyEvents()).written).toBe(0);
  });

  it('article_homepage_changed: the homepage drops the article, its own files stay as they are', async () => {
    const id = await f.publish('first', 'First');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    const mtime = fs.statSync(path.join(f.outputDir, f.md('first'))).mtimeMs;
    await f.db.transaction().execute(async (trx) => {
      await trx.updateTable('articles').set({ homepage_mode: 'hide' }).where('id', '=', id).execute();
      await announcePublicChange(trx, { kind: 'article_homepage', channelId: f.channelId, articleId: id }, f.clock.now().toISOString());
    });
    const report = await builder.applyEvents();
    expect(report.changedPaths).toContain('index.html');
    expect(f.read('index.html')).not.toContain('First');
    expect(fs.statSync(path.join(f.outputDir, f.md('first'))).mtimeMs).toBe(mtime);
  });

  it('channel_changed: every page of the channel\'s articles shows the new name', async () => {
    await f.publish('first', 'First');
    await f.publish('second', 'Second');
    const builder = f.makeBuilder();
    await builder.fullBuild();
    await f.db.transaction().execute(async (trx) => {
      await trx.updateTable('channel_translations').set({ title: 'Daily News' }).where('channel_id', '=', f.channelId).execute();
      await announcePublicChange(trx, { kind: 'channel', channelId: f.channelId }, f.clock.now().toISOString());
    });
    const report = await builder.applyEvents();
    expect(report.articleIds.length).toBe(2);
    for (const file of [f.page('first'), f.page('second'), 'news/index.html']) expect(f.read(file), file).toContain('Daily News');
  });

  it('with no pending event, reads nothing and writes nothing', async () => {
    const builder = f.makeBuilder();
    await builder.fullBuild();
    expect(await builder.applyEvents()).toMatchObject({ written: 0, removed: 0, full: false, articleIds: [] });
  });
});

describe('another process\'s full build', () => {
  it('is followed: the next incremental build reads the public state again and says so (full)', async () => {
    await f.publish('first', 'First');
    const here = f.makeBuilder();
    await here.fullBuild();
    // The other process takes the pending event itself: this builder never sees it.
    const elsewhere = await f.publish('elsewhere', 'Built Elsewhere');
    await f.makeBuilder().fullBuild();
    const after = await f.publish('after', 'After');
    const report = await here.applyEvents();
    expect(report.full).toBe(true);
    const state = await here.publicState();
    expect(state.articles.has(elsewhere)).toBe(true);
    expect(state.articles.has(after)).toBe(true);
    expect(f.read('news/index.html')).toContain('Built Elsewhere');
    expect(f.read('news/index.html')).toContain('After');
    expect((await here.applyEvents()).full).toBe(false);
  });
});
