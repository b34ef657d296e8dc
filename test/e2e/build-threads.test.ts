/**
 * The full build with real render threads: the compiled Astro site started
 * in worker threads (`render-pool.ts`) over the builder fixture's SQLite
 * file (`test/support/builder-fixture.ts`). Integration, not a unit test:
 * the threads and Astro take seconds to start, so this lives with the
 * end-to-end suite; `site-builder.test.ts` tests the same builder in one
 * thread. Shown here: when the threads start, render and close against the
 * reading of the heads, that a build whose threads cannot start or fail
 * renders in its own thread and writes the same files, and that an
 * incremental build of many articles (a channel renamed) renders on them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelUpdateSchema } from '../../server/domain/channel/channel.schema.ts';
import { updateChannel } from '../../server/domain/channel/channel.service.ts';
import { createRulePolicy, DEFAULT_MODERATION_RULES } from '../../server/domain/moderation/moderation-policy.ts';
import { createLogger } from '../../server/logger.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';
import { createRenderPool } from '../../server/publish/workers/render-pool.ts';
import { createPublicModel } from '../../server/read-model/public-model.ts';
import { ensureSiteBuild } from '../../server/render/astro-compile.ts';
import { staticFiles } from '../../server/serving/static-files.ts';
import { openDatabase } from '../../server/store/database.ts';
import { openBuilderFixture, type BuilderFixture } from '../support/builder-fixture.ts';

let f: BuilderFixture;
beforeEach(async () => {
  f = await openBuilderFixture('pressroom-build-threads-');
});
afterEach(() => f.close());

describe('full build, when its render threads fail', () => {
  let buildDir: string;
  beforeAll(async () => {
    ({ buildDir } = await ensureSiteBuild(PROJECT_ROOT));
  }, 180_000);
  const pool = (databaseFile: string, astroBuildDir: string) => () =>
    createRenderPool({ database: databaseFile, publicUrl: f.site.baseUrl, dashboardUrl: `${f.site.baseUrl}/dashboard`, astroBuildDir, outputDir: f.outputDir, site: f.site }, 1);
  /** A real SQLite file with no tables: a worker opens it and starts, then every batch it is given fails. */
  const emptyDatabase = () => {
    const file = path.join(f.dir, 'empty.db');
    openDatabase(file).destroy();
    return file;
  };

  it.each([
    ['cannot start (no compiled site where they look)', () => pool(f.databaseFile, path.join(f.dir, 'no-astro-build')), 'render threads failed to start'],
    ['fail every batch (their store has no tables)', () => pool(emptyDatabase(), buildDir), 'a render thread failed'],
  ])('renders in this thread when they %s, with a warning, and writes what a build without them writes', async (_how, renderPool, warning) => {
    await f.publishMany(40);
    const lines: string[] = [];
    const report = await f.makeBuilder({ renderPool: renderPool(), poolMinArticles: 1, log: createLogger('warn', 'test', (l) => lines.push(l)) }).fullBuild();
    expect(lines.filter((l) => l.includes(warning))).toHaveLength(1);
    expect(f.read(f.md('a-39'))).toContain('Article 39');
    const files = fs.readdirSync(f.outputDir, { recursive: true }).sort();
    fs.rmSync(f.outputDir, { recursive: true, force: true });
    await f.db.deleteFrom('output_files').execute();
    const plain = await f.makeBuilder().fullBuild();
    expect(report.written).toBe(plain.written);
    expect(fs.readdirSync(f.outputDir, { recursive: true }).sort()).toEqual(files);
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
    const pool = await createRenderPool({ database: f.databaseFile, publicUrl: f.site.baseUrl, dashboardUrl: `${f.site.baseUrl}/dashboard`, astroBuildDir: buildDir, outputDir: f.outputDir, site: f.site }, 1);
    return { render: (...args: Parameters<typeof pool.render>) => (events.push('batch rendered'), pool.render(...args)), close: () => (events.push('pool closed'), pool.close()) };
  };

  /** A builder whose model's heads, and its pool's start and close, are logged in `events`. */
  const logged = (events: string[], poolMinArticles: number) => {
    const model = createPublicModel({ db: f.db, urls: f.urls });
    const heads: typeof model.heads = (query) => (events.push('heads read'), model.heads(query));
    return f.makeBuilder({ model: { ...model, heads }, renderPool: builderPool(events), poolMinArticles });
  };

  it('render an incremental build of many articles (a channel renamed shows in each of its pages), and none of few', async () => {
    await f.publishMany(6);
    const events: string[] = [];
    const builder = logged(events, 5);
    await builder.fullBuild();
    events.length = 0;
    await f.publish('a-0', 'Article 0, revised');
    await builder.applyEvents();
    expect(events).toEqual([]);
    await updateChannel({ db: f.db, clock: f.clock, urls: f.urls, moderation: createRulePolicy(DEFAULT_MODERATION_RULES) }, f.principal, 'news', channelUpdateSchema.parse({ title: 'Renamed desk' }));
    const report = await builder.applyEvents();
    // Six articles, from five on the threads: one batch, then the threads are closed.
    expect(events).toEqual(['pool started', 'batch rendered', 'pool closed']);
    expect(report.written).toBeGreaterThan(0);
    for (let i = 0; i < 6; i++) expect(f.read(f.page(`a-${i}`))).toContain('Renamed desk');
    expect(f.read(f.page('a-0'))).toContain('Article 0, revised');
    // What the threads rendered is recorded: nothing is stale, a full build writes nothing.
    events.length = 0;
    expect(await builder.fullBuild()).toMatchObject({ written: 0 });
  }, 60_000);

  it('into an empty output, start and render while the heads are read; a warm build starts none', async () => {
    await f.publishMany(6);
    const events: string[] = [];
    const builder = logged(events, 5);
    await builder.fullBuild();
    expect(events).toEqual(['pool started', 'batch rendered', 'heads read', 'pool closed']);
    expect(f.read(f.md('a-5'))).toContain('Article 5');
    expect(f.read('news/index.html')).toContain('<li>Article 5</li>');
    // Into an empty folder the default-language copies are second names of the files they copy.
    const copy = staticFiles.articleMarkdown('news', 'a-5');
    expect(fs.statSync(path.join(f.outputDir, copy)).ino).toBe(fs.statSync(path.join(f.outputDir, f.md('a-5'))).ino);
    // A later change writes each name anew: both show it.
    await f.publish('a-5', 'Article 5, revised');
    await builder.applyEvents();
    expect(f.read(f.md('a-5'))).toContain('Article 5, revised');
    expect(f.read(copy)).toContain('Article 5, revised');
    events.length = 0;
    expect(await builder.fullBuild()).toMatchObject({ written: 0 });
    expect(events).toEqual(['heads read']);
  }, 60_000);

  it('render an article published while the heads are read, after the others, and list it', async () => {
    await f.publishMany(6);
    const events: string[] = [];
    const model = createPublicModel({ db: f.db, urls: f.urls });
    // The builder reads the heads once the threads have their batches: an article published meanwhile is in the heads only.
    const heads: typeof model.heads = async (query) => (await f.publish('late', 'Late'), model.heads(query));
    const renderPool = async () => {
      const pool = await createRenderPool({ database: f.databaseFile, publicUrl: f.site.baseUrl, dashboardUrl: `${f.site.baseUrl}/dashboard`, astroBuildDir: buildDir, outputDir: f.outputDir, site: f.site }, 1);
      return { render: (...args: Parameters<typeof pool.render>) => (events.push(`batch of ${args[0].length}`), pool.render(...args)), close: () => pool.close() };
    };
    const builder = f.makeBuilder({ model: { ...model, heads }, renderPool, poolMinArticles: 5 });
    await builder.fullBuild();
    expect(events).toEqual(['batch of 6', 'batch of 1']);
    expect(f.read(f.md('late'))).toContain('Late');
    expect(f.read('news/index.html')).toContain('<li>Late</li>');
    const built = await f.db.selectFrom('built_translations').select('article_id').execute();
    expect(built).toHaveLength(7);
    expect((await builder.fullBuild()).written).toBe(0);
  }, 60_000);

  it('hand out an article that is not public after all: it renders nothing and shows nowhere', async () => {
    await f.publishMany(6);
    const hidden = await f.publish('withdrawn', 'Withdrawn');
    // Published once (the article keeps its date), its only translation no longer is.
    await f.db.updateTable('article_translations').set({ published_revision_id: null }).where('article_id', '=', hidden).execute();
    const events: string[] = [];
    await logged(events, 5).fullBuild();
    expect(events.indexOf('batch rendered')).toBeLessThan(events.indexOf('heads read'));
    expect(f.exists(f.md('withdrawn'))).toBe(false);
    expect(f.exists(f.page('withdrawn'))).toBe(false);
    expect(f.read('news/index.html')).not.toContain('Withdrawn');
    expect(f.read('index.html')).not.toContain('Withdrawn');
    const built = await f.db.selectFrom('built_translations').select('article_id').where('article_id', '=', hidden).execute();
    expect(built).toEqual([]);
    expect(f.read(f.md('a-5'))).toContain('Article 5');
  }, 60_000);

  it('are closed, and the build fails with its own error, when reading the heads fails after they were handed articles', async () => {
    await f.publishMany(6);
    const events: string[] = [];
    const builder = logged(events, 5);
    // The same threads and log as `builder`'s, and heads that cannot be read.
    const model = createPublicModel({ db: f.db, urls: f.urls });
    const heads: typeof model.heads = async () => {
      events.push('heads read');
      throw new Error('the disk went away');
    };
    const failing = f.makeBuilder({ model: { ...model, heads }, renderPool: builderPool(events), poolMinArticles: 5 });
    await expect(failing.fullBuild()).rejects.toThrow('the disk went away');
    expect(events).toEqual(['pool started', 'batch rendered', 'heads read', 'pool closed']);
    // Nothing was recorded: the next build renders everything, as into an empty folder.
    events.length = 0;
    await builder.fullBuild();
    expect(f.read(f.md('a-5'))).toContain('Article 5');
  }, 60_000);

  it('started for a cold build with too few public articles to use them, are closed unused', async () => {
    await f.publishMany(3);
    for (let i = 0; i < 3; i++) await f.publish(`d-${i}`, `Draft ${i}`, 'draft');
    const events: string[] = [];
    await logged(events, 5).fullBuild();
    expect(events).toEqual(['pool started', 'heads read', 'pool closed']);
    expect(f.read(f.md('a-2'))).toContain('Article 2');
    expect(f.exists(f.md('d-0'))).toBe(false);
  }, 60_000);
});
