/**
 * The builder's own tests, over a real SQLite file and real files, with the
 * real JSON, Markdown, feed and sitemap renderers; only the HTML renderer
 * (Astro, a heavy dependency behind `HtmlRenderer`) is a small stand-in that
 * prints what a page shows. The end-to-end suite (`test/e2e/static-build`)
 * runs the same builder with Astro.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../clock.ts';
import { createCursorCodec } from '../../domain/cursor.ts';
import { channelAccess } from '../../domain/account/access.ts';
import { ensureAccount } from '../../domain/account/account.service.ts';
import { saveArticle } from '../../domain/article/article-save.ts';
import { insertChannelFor } from '../../domain/channel/channel.service.ts';
import { announcePublicChange } from '../../domain/public-change.ts';
import { createLogger } from '../../logger.ts';
import { createPublicModel } from '../../read-model/public-model.ts';
import type { SiteInfo } from '../../read-model/view-models.ts';
import type { HtmlRenderer } from '../../render/astro-renderer.ts';
import { createRenderers } from '../../render/renderers.ts';
import { migrateToLatest, openDatabase, type Db } from '../../store/database.ts';
import { readBuildOwners } from '../../store/build-owner.repository.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { staticFiles } from '../../serving/static-files.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { ensureSiteBuild } from '../../render/astro-compile.ts';
import { checkOutputInWorker } from '../workers/output-check.ts';
import { createRenderPool } from '../workers/render-pool.ts';
import type { SiteBuilderDeps } from './build-context.ts';
import { createSiteBuilder, type SiteBuilder } from './site-builder.ts';

const site: SiteInfo = { baseUrl: 'http://pressroom.test', name: 'Pressroom', contentSignal: 'search=yes, ai-train=no' };
const urls = createPublicUrls(site.baseUrl, `${site.baseUrl}/dashboard`);
const clock = manualClock(new Date('2026-11-01T10:00:00Z'));

/** Pages that say what they show: the article's title and its channel's name; a list's titles. */
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const html: HtmlRenderer = {
  article: async (a, language) => utf8(`<h1>${a.translations.find((t) => t.language === language)!.title}</h1><p>${a.channel.translations[0]!.title}</p>`),
  channel: async (c, language, _languages, articles) => utf8(`<h1>${c.translations[0]!.title}</h1>${articles.map((a) => `<li>${a.translations.find((t) => t.language === language)?.title}</li>`).join('')}`),
  home: async (_channels, articles) => utf8(articles.filter((a) => a.onHomepage).map((a) => `<li>${a.translations[0]!.title}</li>`).join('')),
  notFound: async () => utf8('<h1>Not found</h1>'),
  clientAssets: async () => [],
  buildHash: 'stand-in',
};

let dir: string;
let outputDir: string;
let db: Db;
let principal: { accountId: number; accountName: string; plan: 'pro'; keyId: number };
let channelId: number;

function makeBuilder(more: Partial<SiteBuilderDeps> = {}): SiteBuilder {
  return createSiteBuilder({
    ...more,
    db,
    clock,
    model: more.model ?? createPublicModel({ db, urls }),
    renderers: more.renderers ?? createRenderers(html),
    cursors: more.cursors ?? createCursorCodec('builder-test-secret-0123456789abcdef'),
    outputDir,
    site,
    channelsUrl: urls.channelsJson(),
    log: more.log ?? createLogger('silent'),
  });
}

async function publish(slug: string, title: string, status: 'published' | 'draft' = 'published'): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const access = await channelAccess(trx, principal, 'news');
    const saved = await saveArticle(trx, { clock }, access, { slug, default_language: 'en', translations: [{ language: 'en', title, content_markdown: `${title}.`, status }] }, { mode: 'trusted' });
    clock.advance(60_000);
    return saved.article.id;
  });
}

const page = (slug: string) => staticFiles.articleHtml('news', slug, 'en');
const md = (slug: string) => staticFiles.articleMarkdown('news', slug, 'en');
const read = (rel: string) => fs.readFileSync(path.join(outputDir, rel), 'utf8');
const exists = (rel: string) => fs.existsSync(path.join(outputDir, rel));
const notADatabase = () => {
  const file = path.join(dir, 'not-a-database.db');
  fs.writeFileSync(file, 'this is not SQLite '.repeat(100));
  return file;
};

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-builder-'));
  outputDir = path.join(dir, 'dist');
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  const account = (await ensureAccount(db, clock, 'test', 'pro')).account;
  principal = { accountId: account.id, accountName: account.name, plan: 'pro', keyId: 0 };
  channelId = await db.transaction().execute(async (trx) => (await insertChannelFor(trx, clock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] })).id);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('full build', () => {
  it('writes every owner\'s files, holds the public state, and a second full build writes nothing', async () => {
    const id = await publish('first', 'First');
    await publish('hidden', 'Hidden', 'draft');
    const builder = makeBuilder();
    const report = await builder.fullBuild();
    expect(report.full).toBe(true);
    expect(report.written).toBeGreaterThan(10);
    expect(read(md('first'))).toContain('First');
    expect(read('news/index.html')).toContain('<li>First</li>');
    expect(exists(md('hidden'))).toBe(false);
    const state = await builder.publicState();
    expect([...state.articles.keys()]).toEqual([id]);
    expect(state.channels.map((c) => c.slug)).toEqual(['news']);
    expect(Object.isFrozen(state.articles.get(id))).toBe(true);
    const again = await builder.fullBuild();
    expect({ written: again.written, removed: again.removed }).toEqual({ written: 0, removed: 0 });
  });

  it('logs when it turns to the lists, and what it did once done', async () => {
    await publish('first', 'First');
    const lines: string[] = [];
    await makeBuilder({ log: createLogger('info', 'test', (l) => lines.push(l)) }).fullBuild();
    expect(lines.find((l) => l.includes('full build lists'))).toMatch(/articles=1 channels=1 ms=\d+ rendered=1 early=1/);
    expect(lines.find((l) => l.includes('full build done'))).toMatch(/written=\d+ unchanged=0 removed=0 ms=\d+/);
    expect(lines.findIndex((l) => l.includes('full build lists'))).toBeLessThan(lines.findIndex((l) => l.includes('full build done')));
  });

  it('renders a channel\u2019s lists once its last article is applied, before the next channel\u2019s articles are done', async () => {
    const sportsId = await db.transaction().execute(async (trx) => (await insertChannelFor(trx, clock, principal, { slug: 'sports', default_language: 'en', translations: [{ language: 'en', title: 'Sports' }] })).id);
    for (const [channel, count] of [['news', 40], ['sports', 40]] as const) {
      for (let i = 0; i < count; i++) {
        await db.transaction().execute(async (trx) => {
          const access = await channelAccess(trx, principal, channel);
          await saveArticle(trx, { clock }, access, { slug: `${channel}-${i}`, default_language: 'en', translations: [{ language: 'en', title: `${channel} ${i}`, content_markdown: 'Text.', status: 'published' }] }, { mode: 'trusted' });
          clock.advance(60_000);
        });
      }
    }
    const events: string[] = [];
    const base = createRenderers(html);
    const renderers = {
      ...base,
      articleHtml: (...args: Parameters<typeof base.articleHtml>) => (events.push(`article ${args[0].channel.slug}`), base.articleHtml(...args)),
      channelHtml: (...args: Parameters<typeof base.channelHtml>) => (events.push(`lists ${args[0].slug}`), base.channelHtml(...args)),
    };
    await makeBuilder({ renderers }).fullBuild();
    const first = (e: string) => events.indexOf(e);
    const last = (e: string) => events.lastIndexOf(e);
    for (const channel of ['news', 'sports']) expect(first(`lists ${channel}`)).toBeGreaterThan(last(`article ${channel}`));
    // Whichever channel came first, its lists were rendered while the other's articles were.
    const [early, late] = first('lists news') < first('lists sports') ? ['news', 'sports'] : ['sports', 'news'];
    expect(first(`lists ${early}`)).toBeLessThan(last(`article ${late}`));
    // And they show every article of their channel, as lists rendered at the end did.
    expect(read('news/index.html')).toContain('<li>news 39</li>');
    expect(read('sports/index.html')).toContain('<li>sports 39</li>');
    expect(sportsId).toBeGreaterThan(channelId);
    expect((await makeBuilder().fullBuild()).written).toBe(0);
  });

  it('holds one object per channel, however many batches rendered its articles', async () => {
    // Each batch of rendered articles reads its heads anew (a worker's arrive as copies): the index keeps one channel.
    for (let i = 0; i < 40; i++) await publish(`a-${i}`, `Article ${i}`);
    const builder = makeBuilder();
    await builder.fullBuild();
    const state = await builder.publicState();
    const channels = new Set([...state.articles.values()].map((a) => a.channel));
    expect(state.articles.size).toBe(40);
    expect(channels.size).toBe(1);
    expect([...channels][0]).toBe(state.channels[0]);
  });

  it.each([
    ['in this thread', {}],
    ['in a thread of its own (as for a large site)', { checkOutput: () => checkOutputInWorker({ databaseFile: path.join(dir, 'pressroom.db'), outputDir }), checkThreadMinFiles: 0 }],
    // The thread fails (it is given a file that is not a database): the build checks in its own thread instead.
    ['here after its thread failed', { checkOutput: () => checkOutputInWorker({ databaseFile: notADatabase(), outputDir }), checkThreadMinFiles: 0 }],
  ])('deletes a file no owner produces and renders again an owner whose file went missing, the output checked %s', async (_how, more: Partial<SiteBuilderDeps>) => {
    await publish('first', 'First');
    const builder = makeBuilder(more);
    await builder.fullBuild();
    fs.writeFileSync(path.join(outputDir, 'stray.html'), 'left by a crash');
    fs.rmSync(path.join(outputDir, md('first')));
    const report = await builder.fullBuild();
    expect(exists('stray.html')).toBe(false);
    expect(read(md('first'))).toContain('First');
    expect(report.changedPaths.sort()).toEqual([md('first'), 'stray.html'].sort());
  });

  it('writes a list file again when it went missing, though its inputs did not change', async () => {
    await publish('first', 'First');
    const builder = makeBuilder();
    await builder.fullBuild();
    fs.rmSync(path.join(outputDir, 'news/index.html'));
    const report = await builder.fullBuild();
    expect(read('news/index.html')).toContain('<li>First</li>');
    expect(report.changedPaths).toEqual(['news/index.html']);
    expect((await builder.fullBuild()).written).toBe(0);
  });
});

describe('a full build in a new process (list owners)', () => {
  /** A builder whose list and channel-page renders are counted (as a new process's: nothing remembered). */
  const countingBuilder = (secret = 'builder-test-secret-0123456789abcdef') => {
    const counts = { lists: 0, channelPages: 0 };
    const base = createRenderers(html);
    const renderers = {
      ...base,
      articleList: (...args: Parameters<typeof base.articleList>) => (counts.lists++, base.articleList(...args)),
      channelHtml: (...args: Parameters<typeof base.channelHtml>) => (counts.channelPages++, base.channelHtml(...args)),
    };
    return { counts, builder: makeBuilder({ renderers, cursors: createCursorCodec(secret) }) };
  };
  const listDir = 'api/public/v1/channels/news/articles';
  const cursorPages = () => fs.readdirSync(path.join(outputDir, listDir), { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('_cursor/'));

  it('renders no list file when its inputs hash as recorded, and renders again when a file, the channel or the cursor key changed', async () => {
    for (let i = 0; i < 45; i++) await publish(`a-${i}`, `Article ${i}`);
    await makeBuilder().fullBuild();
    const pages = cursorPages();
    expect(pages.length).toBeGreaterThan(2);

    const warm = countingBuilder();
    expect(await warm.builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    expect(warm.counts).toEqual({ lists: 0, channelPages: 0 });

    // A cursor page went missing: its owner is rendered again; only the missing file is written.
    const gone = `${listDir}/${pages[0]!}`;
    fs.rmSync(path.join(outputDir, gone));
    const missing = countingBuilder();
    const report = await missing.builder.fullBuild();
    expect(missing.counts.lists).toBeGreaterThan(0);
    expect(report.changedPaths).toEqual([gone]);
    expect(exists(gone)).toBe(true);

    // The channel changed with no event (a full build reads it from the store): its pages show the new name.
    await db.updateTable('channel_translations').set({ title: 'Daily News' }).where('channel_id', '=', channelId).execute();
    const renamed = countingBuilder();
    await renamed.builder.fullBuild();
    expect(renamed.counts.channelPages).toBeGreaterThan(0);
    expect(read('news/index.html')).toContain('Daily News');

    // An article changed with no event: the page of the list that shows it shows the change.
    for (const table of ['article_translations', 'revisions'] as const) await db.updateTable(table).set({ title: 'Article zero, retitled' }).where('title', '=', 'Article 0').execute();
    const retitled = countingBuilder();
    await retitled.builder.fullBuild();
    expect(retitled.counts.lists).toBeGreaterThan(0);
    expect(cursorPages().some((p) => read(`${listDir}/${p}`).includes('Article zero, retitled'))).toBe(true);

    // Another cursor key names every cursor page anew: the old names go.
    const rekeyed = countingBuilder('another-secret-0123456789abcdefghij');
    await rekeyed.builder.fullBuild();
    expect(cursorPages().length).toBe(pages.length);
    expect(cursorPages().filter((p) => pages.includes(p))).toEqual([]);
    expect((await countingBuilder('another-secret-0123456789abcdefghij').builder.fullBuild()).written).toBe(0);
  });

  it('renders them again after an incremental build changed them (that build forgets the recorded input hash)', async () => {
    for (let i = 0; i < 25; i++) await publish(`a-${i}`, `Article ${i}`);
    const service = makeBuilder();
    await service.fullBuild();
    const owners = async () => [...(await readBuildOwners(db)).keys()].filter((o) => !o.startsWith('article:')).sort();
    expect(await owners()).toEqual([`channel:${channelId}`, `pages:${channelId}`]);
    await publish('late', 'Late');
    await service.applyEvents();
    expect(await owners()).toEqual([]);
    const next = countingBuilder();
    expect(await next.builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    expect(next.counts.lists).toBeGreaterThan(0);
    expect(read('api/public/v1/channels/news/articles.json')).toContain('Late');
    expect(await owners()).toEqual([`channel:${channelId}`, `pages:${channelId}`]);
  });
});

describe('release', () => {
  it('released, forgets its state and reads it again: the same state, nothing written again, a later publish built', async () => {
    const id = await publish('first', 'First');
    const builder = makeBuilder();
    await builder.fullBuild();
    const held = await builder.publicState();
    await builder.release();
    const again = await builder.publicState();
    // Read again from the store: new objects, the same content.
    expect(again.articles.get(id)).not.toBe(held.articles.get(id));
    expect(again.articles.get(id)).toEqual(held.articles.get(id));
    expect(again.channels).toEqual(held.channels);
    expect(again.anchors).toEqual(held.anchors);
    await builder.release();
    expect(await builder.fullBuild()).toMatchObject({ written: 0, removed: 0 });
    await builder.release();
    await publish('second', 'Second');
    const report = await builder.applyEvents();
    expect(report.written).toBeGreaterThan(0);
    expect(exists(md('second'))).toBe(true);
    expect(read('news/index.html')).toContain('<li>Second</li>');
    expect(read('news/index.html')).toContain('<li>First</li>');
  });
});

describe('full build, when its render threads fail', () => {
  let buildDir: string;
  beforeAll(async () => {
    ({ buildDir } = await ensureSiteBuild(PROJECT_ROOT));
  }, 180_000);
  const pool = (databaseFile: string, astroBuildDir: string) => () =>
    createRenderPool({ databaseFile, publicUrl: site.baseUrl, dashboardUrl: `${site.baseUrl}/dashboard`, astroBuildDir, outputDir, site }, 1);
  /** A real SQLite file with no tables: a worker opens it and starts, then every batch it is given fails. */
  const emptyDatabase = () => {
    const file = path.join(dir, 'empty.db');
    openDatabase(file).destroy();
    return file;
  };

  it.each([
    ['cannot start (no compiled site where they look)', () => pool(path.join(dir, 'pressroom.db'), path.join(dir, 'no-astro-build')), 'render threads failed to start'],
    ['fail every batch (their store has no tables)', () => pool(emptyDatabase(), buildDir), 'a render thread failed'],
  ])('renders in this thread when they %s, with a warning, and writes what a build without them writes', async (_how, renderPool, warning) => {
    for (let i = 0; i < 40; i++) await publish(`a-${i}`, `Article ${i}`);
    const lines: string[] = [];
    const report = await makeBuilder({ renderPool: renderPool(), poolMinArticles: 1, log: createLogger('warn', 'test', (l) => lines.push(l)) }).fullBuild();
    expect(lines.filter((l) => l.includes(warning))).toHaveLength(1);
    expect(read(md('a-39'))).toContain('Article 39');
    const files = fs.readdirSync(outputDir, { recursive: true }).sort();
    fs.rmSync(outputDir, { recursive: true, force: true });
    await db.deleteFrom('output_files').execute();
    const plain = await makeBuilder().fullBuild();
    expect(report.written).toBe(plain.written);
    expect(fs.readdirSync(outputDir, { recursive: true }).sort()).toEqual(files);
  }, 120_000);
});

describe('full build, its render threads', () => {
  let buildDir: string;
  beforeAll(async () => {
    ({ buildDir } = await ensureSiteBuild(PROJECT_ROOT));
  }, 180_000);

  /** Render threads whose start, batches and close are logged in `events`. */
  const builderPool = (events: string[]) => async () => {
    events.push('pool started');
    const pool = await createRenderPool({ databaseFile: path.join(dir, 'pressroom.db'), publicUrl: site.baseUrl, dashboardUrl: `${site.baseUrl}/dashboard`, astroBuildDir: buildDir, outputDir, site }, 1);
    return { render: (...args: Parameters<typeof pool.render>) => (events.push('batch rendered'), pool.render(...args)), close: () => (events.push('pool closed'), pool.close()) };
  };

  /** A builder whose model's heads, and its pool's start and close, are logged in `events`. */
  const logged = (events: string[], poolMinArticles: number) => {
    const model = createPublicModel({ db, urls });
    const heads: typeof model.heads = (query) => (events.push('heads read'), model.heads(query));
    return makeBuilder({ model: { ...model, heads }, renderPool: builderPool(events), poolMinArticles });
  };

  it('into an empty output, start and render while the heads are read; a warm build starts none', async () => {
    for (let i = 0; i < 6; i++) await publish(`a-${i}`, `Article ${i}`);
    const events: string[] = [];
    const builder = logged(events, 5);
    await builder.fullBuild();
    expect(events).toEqual(['pool started', 'batch rendered', 'heads read', 'pool closed']);
    expect(read(md('a-5'))).toContain('Article 5');
    expect(read('news/index.html')).toContain('<li>Article 5</li>');
    // Into an empty folder the default-language copies are second names of the files they copy.
    const copy = staticFiles.articleMarkdown('news', 'a-5');
    expect(fs.statSync(path.join(outputDir, copy)).ino).toBe(fs.statSync(path.join(outputDir, md('a-5'))).ino);
    // A later change writes each name anew: both show it.
    await publish('a-5', 'Article 5, revised');
    await builder.applyEvents();
    expect(read(md('a-5'))).toContain('Article 5, revised');
    expect(read(copy)).toContain('Article 5, revised');
    events.length = 0;
    events.length = 0;
    expect(await builder.fullBuild()).toMatchObject({ written: 0 });
    expect(events).toEqual(['heads read']);
  }, 60_000);

  it('render an article published while the heads are read, after the others, and list it', async () => {
    for (let i = 0; i < 6; i++) await publish(`a-${i}`, `Article ${i}`);
    const events: string[] = [];
    const model = createPublicModel({ db, urls });
    // The builder reads the heads once the threads have their batches: an article published meanwhile is in the heads only.
    const heads: typeof model.heads = async (query) => (await publish('late', 'Late'), model.heads(query));
    const renderPool = async () => {
      const pool = await createRenderPool({ databaseFile: path.join(dir, 'pressroom.db'), publicUrl: site.baseUrl, dashboardUrl: `${site.baseUrl}/dashboard`, astroBuildDir: buildDir, outputDir, site }, 1);
      return { render: (...args: Parameters<typeof pool.render>) => (events.push(`batch of ${args[0].length}`), pool.render(...args)), close: () => pool.close() };
    };
    const builder = makeBuilder({ model: { ...model, heads }, renderPool, poolMinArticles: 5 });
    await builder.fullBuild();
    expect(events).toEqual(['batch of 6', 'batch of 1']);
    expect(read(md('late'))).toContain('Late');
    expect(read('news/index.html')).toContain('<li>Late</li>');
    const built = await db.selectFrom('built_translations').select('article_id').execute();
    expect(built).toHaveLength(7);
    expect((await builder.fullBuild()).written).toBe(0);
  }, 60_000);

  it('hand out an article that is not public after all: it renders nothing and shows nowhere', async () => {
    for (let i = 0; i < 6; i++) await publish(`a-${i}`, `Article ${i}`);
    const hidden = await publish('withdrawn', 'Withdrawn');
    // Published once (the article keeps its date), its only translation no longer is.
    await db.updateTable('article_translations').set({ published_revision_id: null }).where('article_id', '=', hidden).execute();
    const events: string[] = [];
    await logged(events, 5).fullBuild();
    expect(events.indexOf('batch rendered')).toBeLessThan(events.indexOf('heads read'));
    expect(exists(md('withdrawn'))).toBe(false);
    expect(exists(page('withdrawn'))).toBe(false);
    expect(read('news/index.html')).not.toContain('Withdrawn');
    expect(read('index.html')).not.toContain('Withdrawn');
    const built = await db.selectFrom('built_translations').select('article_id').where('article_id', '=', hidden).execute();
    expect(built).toEqual([]);
    expect(read(md('a-5'))).toContain('Article 5');
  }, 60_000);

  it('are closed, and the build fails with its own error, when reading the heads fails after they were handed articles', async () => {
    for (let i = 0; i < 6; i++) await publish(`a-${i}`, `Article ${i}`);
    const events: string[] = [];
    const builder = logged(events, 5);
    // The same threads and log as `builder`'s, and heads that cannot be read.
    const model = createPublicModel({ db, urls });
    const heads: typeof model.heads = async () => {
      events.push('heads read');
      throw new Error('the disk went away');
    };
    const failing = makeBuilder({ model: { ...model, heads }, renderPool: builderPool(events), poolMinArticles: 5 });
    await expect(failing.fullBuild()).rejects.toThrow('the disk went away');
    expect(events).toEqual(['pool started', 'batch rendered', 'heads read', 'pool closed']);
    // Nothing was recorded: the next build renders everything, as into an empty folder.
    events.length = 0;
    await builder.fullBuild();
    expect(read(md('a-5'))).toContain('Article 5');
  }, 60_000);

  it('started for a cold build with too few public articles to use them, are closed unused', async () => {
    for (let i = 0; i < 3; i++) await publish(`a-${i}`, `Article ${i}`);
    for (let i = 0; i < 3; i++) await publish(`d-${i}`, `Draft ${i}`, 'draft');
    const events: string[] = [];
    await logged(events, 5).fullBuild();
    expect(events).toEqual(['pool started', 'heads read', 'pool closed']);
    expect(read(md('a-2'))).toContain('Article 2');
    expect(exists(md('d-0'))).toBe(false);
  }, 60_000);
});

describe('incremental build, per event kind', () => {
  it('article_public_changed: re-plans the article, its channel and the site; unpublishing removes its files', async () => {
    await publish('first', 'First');
    const builder = makeBuilder();
    await builder.fullBuild();
    const id = await publish('second', 'Second');
    const report = await builder.applyEvents();
    expect(report.articleIds).toEqual([id]);
    expect(read(md('second'))).toContain('Second');
    expect(read('news/index.html')).toContain('<li>Second</li>');
    expect(read('index.html')).toContain('<li>Second</li>');
    expect((await builder.publicState()).articles.has(id)).toBe(true);

    await db.transaction().execute(async (trx) => {
      await trx.updateTable('articles').set({ status: 'archived' }).where('id', '=', id).execute();
      await announcePublicChange(trx, { kind: 'article', channelId, articleId: id }, clock.now().toISOString());
    });
    const removed = await builder.applyEvents();
    expect(removed.removed).toBeGreaterThan(0);
    expect(exists(md('second'))).toBe(false);
    expect(read('news/index.html')).not.toContain('Second');
    expect((await builder.publicState()).articles.has(id)).toBe(false);
    expect((await builder.applyEvents()).written).toBe(0);
  });

  it('article_homepage_changed: the homepage drops the article, its own files stay as they are', async () => {
    const id = await publish('first', 'First');
    const builder = makeBuilder();
    await builder.fullBuild();
    const mtime = fs.statSync(path.join(outputDir, md('first'))).mtimeMs;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('articles').set({ homepage_mode: 'hide' }).where('id', '=', id).execute();
      await announcePublicChange(trx, { kind: 'article_homepage', channelId, articleId: id }, clock.now().toISOString());
    });
    const report = await builder.applyEvents();
    expect(report.changedPaths).toContain('index.html');
    expect(read('index.html')).not.toContain('First');
    expect(fs.statSync(path.join(outputDir, md('first'))).mtimeMs).toBe(mtime);
  });

  it('channel_changed: every page of the channel\'s articles shows the new name', async () => {
    await publish('first', 'First');
    await publish('second', 'Second');
    const builder = makeBuilder();
    await builder.fullBuild();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('channel_translations').set({ title: 'Daily News' }).where('channel_id', '=', channelId).execute();
      await announcePublicChange(trx, { kind: 'channel', channelId }, clock.now().toISOString());
    });
    const report = await builder.applyEvents();
    expect(report.articleIds.length).toBe(2);
    for (const file of [page('first'), page('second'), 'news/index.html']) expect(read(file), file).toContain('Daily News');
  });

  it('with no pending event, reads nothing and writes nothing', async () => {
    const builder = makeBuilder();
    await builder.fullBuild();
    expect(await builder.applyEvents()).toMatchObject({ written: 0, removed: 0, full: false, articleIds: [] });
  });
});

describe('another process\'s full build', () => {
  it('is followed: the next incremental build reads the public state again and says so (full)', async () => {
    await publish('first', 'First');
    const here = makeBuilder();
    await here.fullBuild();
    // The other process takes the pending event itself: this builder never sees it.
    const elsewhere = await publish('elsewhere', 'Built Elsewhere');
    await makeBuilder().fullBuild();
    const after = await publish('after', 'After');
    const report = await here.applyEvents();
    expect(report.full).toBe(true);
    const state = await here.publicState();
    expect(state.articles.has(elsewhere)).toBe(true);
    expect(state.articles.has(after)).toBe(true);
    expect(read('news/index.html')).toContain('Built Elsewhere');
    expect(read('news/index.html')).toContain('After');
    expect((await here.applyEvents()).full).toBe(false);
  });
});
