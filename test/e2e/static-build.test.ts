/**
 * The static output over a real store, real Astro rendering and real files:
 * what a published multilingual article produces, that nothing unpublished
 * appears anywhere, that unpublishing removes every file, that unchanged
 * files keep their mtime, and that incremental builds equal a full build
 * byte for byte.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.ts';
import { createPublicModel } from '../../server/read-model/public-model.ts';
import { createSiteBuilder, type SiteBuilder } from '../../server/publish/builder/site-builder.ts';
import { createAstroRenderer } from '../../server/render/astro-renderer.ts';
import { createCardRenderer } from '../../server/render/social-card.ts';
import { createRenderers, type Renderers } from '../../server/render/renderers.ts';
import { ensureSiteBuild } from '../../server/render/astro-compile.ts';
import type { SiteInfo } from '../../server/read-model/view-models.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';
import { startTestService, TEST_STORE, type TestService } from '../helpers/test-service.ts';
import { sharedPostgres } from '../helpers/postgres-cluster.ts';
import { DEFAULT_LIST_LIMIT } from '../../server/read-model/list-pages.ts';
import { PROJECT_ROOT } from '../../server/paths.ts';

let t: TestService;
let key: string;
let builder: SiteBuilder;
let renderers: ReturnType<typeof createRenderers>;
/** Renders per renderer name, counted by the wrapper `makeBuilder` gives each builder. */
const renderCalls = new Map<string, number>();
const site: SiteInfo = { baseUrl: 'http://pressroom.test', name: 'Pressroom', contentSignal: 'search=yes, ai-train=no', socialCards: true };
const log = createLogger('silent');

function makeBuilder(db: Db, outputDir: string): SiteBuilder {
  const urls = createPublicUrls('http://pressroom.test', 'http://pressroom.test/dashboard');
  return createSiteBuilder({
    db,
    clock: t.clock,
    model: createPublicModel({ db, urls }),
    renderers: countingRenderers(renderers),
    cursors: t.service.cursors,
    outputDir,
    site,
    channelsUrl: urls.channelsJson(),
    log,
  });
}

/** `real`, counting each renderer's calls in `renderCalls`. */
function countingRenderers(real: Renderers): Renderers {
  const counted = { ...real };
  for (const [name, fn] of Object.entries(real)) {
    (counted as Record<string, unknown>)[name] = (...args: unknown[]) => {
      renderCalls.set(name, (renderCalls.get(name) ?? 0) + 1);
      return (fn as (...a: unknown[]) => unknown)(...args);
    };
  }
  return counted;
}

/** Every file of a folder, relative path → bytes. */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else files.set(r, fs.readFileSync(path.join(d, e.name)));
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return files;
}

const out = (rel: string) => path.join(t.config.outputDir, rel);
const grepOutput = (needle: string) => [...snapshot(t.config.outputDir)].filter(([, bytes]) => bytes.includes(needle)).map(([p]) => p);

async function write(body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/v1/channels/pressroom-journal/pages', { key, body: { default_language: 'en', ...body } });
  expect(res.status, res.text).toBeLessThan(300);
  await t.service.worker.runDue();
  return builder.applyEvents();
}

beforeAll(async () => {
  const { buildDir } = await ensureSiteBuild(PROJECT_ROOT);
  renderers = createRenderers(await createAstroRenderer(buildDir), createCardRenderer({ cacheDir: null }));
  t = await startTestService({ PRESSROOM_IMPORT_CONTENT: 'true', PRESSROOM_CONTENT_DIR: path.join(PROJECT_ROOT, 'content') });
  key = t.service.newDevKey!;
  builder = makeBuilder(t.service.db, t.config.outputDir);
}, 180_000);
afterAll(async () => t?.stop());

describe('full build of the sample content', () => {
  it('writes every output of a published article in en and ar (RTL)', async () => {
    const report = await builder.fullBuild();
    expect(report.written).toBeGreaterThan(30);
    for (const rel of [
      'index.html',
      'sitemap.xml',
      'robots.txt',
      'llms.txt',
      'pressroom-journal/sitemap.xml',
      'pressroom-journal/sitemap-1.xml',
      'pressroom-journal/llms.txt',
      'pressroom-journal/llms-1.txt',
      'api/public/v1/channels.json',
      'pressroom-journal/index.html',
      'pressroom-journal/ar/index.html',
      'pressroom-journal/rss.xml',
      'pressroom-journal/ar/rss.xml',
      'pressroom-journal/feed.json',
      'pressroom-journal/welcome.html',
      'pressroom-journal/en/welcome.html',
      'pressroom-journal/ar/welcome.html',
      'api/public/v1/channels/pressroom-journal.json',
      'api/public/v1/channels/pressroom-journal/articles.json',
      'api/public/v1/channels/pressroom-journal/articles/_lang/ar.json',
      'api/public/v1/channels/pressroom-journal/articles/welcome.json',
      'api/public/v1/channels/pressroom-journal/articles/welcome/_lang/ar.json',
      'api/public/v1/channels/pressroom-journal/articles/welcome.md',
      'api/public/v1/channels/pressroom-journal/articles/welcome/_lang/ar.md',
    ]) {
      expect(fs.existsSync(out(rel)), rel).toBe(true);
    }
    const ar = fs.readFileSync(out('pressroom-journal/ar/welcome.html'), 'utf8');
    expect(ar).toMatch(/<html[^>]*lang="ar"[^>]*dir="rtl"|<html[^>]*dir="rtl"[^>]*lang="ar"/);
    expect(ar.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(ar).toContain('href="http://pressroom.test/api/public/v1/channels/pressroom-journal/articles/welcome.md?lang=ar"');
    const json = JSON.parse(fs.readFileSync(out('api/public/v1/channels/pressroom-journal/articles/welcome/_lang/ar.json'), 'utf8'));
    expect(json).toMatchObject({ schema_version: '1.0', slug: 'welcome', language: 'ar', default_language: 'en' });
    expect(json.available_translations.map((x: { language: string }) => x.language)).toEqual(['en', 'ar']);
    // The default-language copies are byte-identical to the language's own files.
    expect(fs.readFileSync(out('pressroom-journal/welcome.html'))).toEqual(fs.readFileSync(out('pressroom-journal/en/welcome.html')));
    expect(fs.readFileSync(out('api/public/v1/channels/pressroom-journal/articles/welcome.json'))).toEqual(
      fs.readFileSync(out('api/public/v1/channels/pressroom-journal/articles/welcome/_lang/en.json')),
    );
  });

  it('a second full build writes nothing', async () => {
    const report = await builder.fullBuild();
    expect(report).toMatchObject({ written: 0, removed: 0 });
  });

  it('keeps the host files `npm run host-config -- … --out dist` writes, and removes any other stray file', async () => {
    for (const name of ['_headers', '_redirects', 'stray.txt']) fs.writeFileSync(out(name), `# ${name}\n`);
    const report = await builder.fullBuild();
    expect(report).toMatchObject({ written: 0, removed: 1 });
    expect(['_headers', '_redirects', 'stray.txt'].map((name) => fs.existsSync(out(name)))).toEqual([true, true, false]);
    // The later tests compare this folder with a fresh build, which has no host files.
    for (const name of ['_headers', '_redirects']) fs.rmSync(out(name));
  });
});

describe('incremental builds', () => {
  it('never writes anything of a draft, a blocked or a not-yet-due article', async () => {
    await write({ slug: 'secret-draft', translations: [{ language: 'en', title: 'Zebra Draft Title', content_markdown: 'Hidden body qwertyuiop.' }] });
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    await write({ slug: 'secret-later', status: 'scheduled', scheduled_at: at, translations: [{ language: 'en', title: 'Zebra Later Title', content_markdown: 'Later body.' }] });
    expect(grepOutput('Zebra')).toEqual([]);
    expect(grepOutput('secret-')).toEqual([]);
  });

  it('publishes a new article: its files appear, lists and feeds name it; unchanged files keep their mtime', async () => {
    const untouched = out('api/public/v1/channels/pressroom-journal/articles/welcome.md');
    const before = fs.statSync(untouched).mtimeMs;
    const report = await write({
      slug: 'fresh',
      status: 'published',
      translations: [
        { language: 'en', title: 'Fresh News', content_markdown: '## Part\n\nSee [the welcome](./welcome).' },
        { language: 'ar', title: 'أخبار جديدة', content_markdown: '## جزء\n\nنص.' },
      ],
    });
    // The channel's sitemap part and llms part list it (sitemap.xml is the index of the channels' sitemaps).
    expect(report.changedPaths).toEqual(expect.arrayContaining(['pressroom-journal/en/fresh.html', 'pressroom-journal/ar/fresh.html', 'pressroom-journal/sitemap-1.xml', 'pressroom-journal/llms-1.txt']));
    expect(fs.readFileSync(out('pressroom-journal/sitemap-1.xml'), 'utf8')).toContain('http://pressroom.test/pressroom-journal/ar/fresh');
    expect(fs.readFileSync(out('pressroom-journal/llms-1.txt'), 'utf8')).toContain('Fresh News');
    expect(fs.readFileSync(out('pressroom-journal/rss.xml'), 'utf8')).toContain('Fresh News');
    expect(fs.readFileSync(out('pressroom-journal/ar/rss.xml'), 'utf8')).toContain('أخبار جديدة');
    expect(fs.readFileSync(out('llms.txt'), 'utf8')).toContain('Fresh News');
    expect(fs.statSync(untouched).mtimeMs).toBe(before);
    expect(report.changedPaths).not.toContain('api/public/v1/channels/pressroom-journal/articles/welcome.md');
  });

  it('unpublishing removes every file of the article and every mention of it', async () => {
    const res = await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/fresh/status', { key, body: { status: 'draft', publish_translations: true } });
    expect(res.status).toBe(200);
    const report = await builder.applyEvents();
    expect(report.removed).toBeGreaterThanOrEqual(8);
    expect(grepOutput('Fresh News')).toEqual([]);
    expect(grepOutput('/fresh')).toEqual([]);
    expect(fs.existsSync(out('pressroom-journal/en/fresh.html'))).toBe(false);
  });

  it('renders a channel or site file again only when what it shows changed', async () => {
    // One more article than the first page of the JSON list shows; the oldest is only on later pages.
    const channel = { slug: 'many-news', default_language: 'en', translations: [{ language: 'en', title: 'Many News' }] };
    expect((await t.request('POST', '/api/v1/channels', { key, body: channel })).status).toBe(201);
    const writeMany = async (slug: string, title: string) => {
      const res = await t.request('POST', '/api/v1/channels/many-news/pages', { key, body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title, content_markdown: `${title}.` }] } });
      expect(res.status, res.text).toBeLessThan(300);
    };
    for (let i = 0; i <= DEFAULT_LIST_LIMIT; i++) await writeMany(`many-${i}`, `Many ${i}`);
    await t.service.worker.runDue();
    await builder.applyEvents();

    renderCalls.clear();
    await writeMany('many-0', 'Many 0, revised');
    await t.service.worker.runDue();
    const report = await builder.applyEvents();
    // Its own files, the channel's page, feeds and full lists show it; the first page of the JSON list and the
    // other channels' files do not, and are not rendered again. Of the cursor pages, exactly those that show
    // it are: the pages after each of the 20 newer articles, in the unfiltered list and the "en" one.
    expect(report.changedPaths).toEqual(expect.arrayContaining(['many-news/en/many-0.html', 'many-news/index.html', 'many-news/rss.xml', 'many-news/llms.txt', 'many-news/llms-1.txt', 'index.html']));
    expect(report.changedPaths).not.toContain('api/public/v1/channels/many-news/articles.json');
    // Also rendered, in each list, the page after the article's own anchor (planned in case the position is new):
    // cursor pages are not remembered (site-plan.ts), so it is rendered, found unchanged and not written.
    expect(renderCalls.get('articleList')).toBe(2 * (DEFAULT_LIST_LIMIT + 1));
    expect(report.changedPaths.filter((p) => p.includes('/_cursor/'))).toHaveLength(2 * DEFAULT_LIST_LIMIT);
    expect(renderCalls.get('channelJson')).toBeUndefined();
    expect(renderCalls.get('channelList')).toBeUndefined();
    expect(renderCalls.get('robots')).toBeUndefined();
    // The default page and the default language's page are one rendering.
    expect(renderCalls.get('channelHtml')).toBe(1);
    expect(fs.readFileSync(out('many-news/index.html'), 'utf8')).toContain('Many 0, revised');
    expect(fs.readFileSync(out('many-news/en/index.html'), 'utf8')).toContain('Many 0, revised');
  });

  it('follows a full build made meanwhile by another process (npm run build while the server runs)', async () => {
    const publish = async (slug: string, title: string) => {
      const res = await t.request('POST', '/api/v1/channels/many-news/pages', { key, body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title, content_markdown: `${title}.` }] } });
      expect(res.status, res.text).toBeLessThan(300);
      await t.service.worker.runDue();
    };
    // The other process's builder takes the pending events itself: this builder never sees them.
    await publish('built-elsewhere', 'Built Elsewhere');
    await makeBuilder(t.service.db, t.config.outputDir).fullBuild();
    expect(fs.readFileSync(out('many-news/index.html'), 'utf8')).toContain('Built Elsewhere');
    // A later publish in the same channel, built here, must not drop it from the lists it re-renders.
    await publish('after-elsewhere', 'After Elsewhere');
    // Its report says so, for the listeners that keep indexes (the read API's search re-syncs everything).
    expect((await builder.applyEvents()).full).toBe(true);
    expect((await builder.applyEvents()).full).toBe(false);
    for (const file of ['many-news/index.html', 'many-news/rss.xml', 'many-news/llms.txt', 'index.html']) {
      const text = fs.readFileSync(out(file), 'utf8');
      expect(text, file).toContain('Built Elsewhere');
      expect(text, file).toContain('After Elsewhere');
    }
  });

  it('a language only articles have: the first one creates the channel\'s list, feeds and page in it; the last one leaving removes them', async () => {
    // An English-only channel.
    expect((await t.request('POST', '/api/v1/channels', { key, body: { slug: 'english-desk', default_language: 'en', translations: [{ language: 'en', title: 'English Desk' }] } })).status).toBe(201);
    const publish = async (slug: string, translations: Array<{ language: string; title: string }>) => {
      const body = { slug, default_language: translations[0]!.language, status: 'published', translations: translations.map((x) => ({ ...x, content_markdown: `${x.title}.` })) };
      const res = await t.request('POST', '/api/v1/channels/english-desk/pages', { key, body });
      expect(res.status, res.text).toBeLessThan(300);
      await t.service.worker.runDue();
      return builder.applyEvents();
    };
    await publish('only-english', [{ language: 'en', title: 'Only English' }]);
    const deFiles = ['english-desk/de/index.html', 'english-desk/de/rss.xml', 'english-desk/de/feed.json', 'api/public/v1/channels/english-desk/articles/_lang/de.json'];
    for (const f of deFiles) expect(fs.existsSync(out(f)), f).toBe(false);

    const report = await publish('erste', [{ language: 'de', title: 'Erste Meldung' }, { language: 'en', title: 'First Report' }]);
    expect(report.changedPaths).toEqual(expect.arrayContaining([...deFiles, 'english-desk/sitemap.xml']));
    for (const f of deFiles) expect(fs.readFileSync(out(f), 'utf8'), f).toContain('Erste Meldung');
    for (const f of deFiles) expect(fs.readFileSync(out(f), 'utf8'), f).not.toContain('Only English');
    // The channel has no German document of its own (no substitution of its fields).
    expect(fs.existsSync(out('api/public/v1/channels/english-desk/_lang/de.json'))).toBe(false);
    expect(fs.readFileSync(out('english-desk/sitemap.xml'), 'utf8')).toContain('<loc>http://pressroom.test/english-desk/de/</loc>');
    expect(fs.readFileSync(out('english-desk/en/index.html'), 'utf8')).toContain('hreflang="de"');
    // A second German article only joins the lists.
    await publish('zweite', [{ language: 'de', title: 'Zweite Meldung' }]);
    expect(fs.readFileSync(out('english-desk/de/rss.xml'), 'utf8')).toContain('Zweite Meldung');

    for (const slug of ['erste', 'zweite']) {
      expect((await t.request('PATCH', `/api/v1/channels/english-desk/pages/${slug}/status`, { key, body: { status: 'draft', publish_translations: true } })).status).toBe(200);
      const after = await builder.applyEvents();
      // Removed with the last German article, not before.
      for (const f of deFiles) expect(fs.existsSync(out(f)), `${f} after ${slug}`).toBe(slug === 'erste');
      if (slug === 'zweite') expect(after.removed).toBeGreaterThanOrEqual(deFiles.length);
    }
    expect(fs.readFileSync(out('english-desk/sitemap.xml'), 'utf8')).not.toContain('/de/');
    expect(fs.readFileSync(out('english-desk/en/index.html'), 'utf8')).not.toContain('hreflang="de"');
  });

  it('after any sequence of writes, the output equals a fresh full build byte for byte', async () => {
    await write({ slug: 'seq-a', status: 'published', translations: [{ language: 'en', title: 'Seq A', content_markdown: 'A.' }] });
    await write({ slug: 'seq-b', status: 'published', translations: [{ language: 'en', title: 'Seq B', content_markdown: 'B.' }, { language: 'ar', title: 'ب', content_markdown: 'ب.' }] });
    await write({ slug: 'seq-a', translations: [{ language: 'en', title: 'Seq A v2', content_markdown: 'A two.' }] });
    await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/seq-b/status', { key, body: { status: 'archived', publish_translations: true } });
    await t.request('PATCH', '/api/v1/channels/pressroom-journal', { key, body: { title: 'The Pressroom Journal' } });
    // Public changes without new content must reach the output too: a new channel, and a new byline.
    expect((await t.request('POST', '/api/v1/channels', { key, body: { slug: 'empty-news', default_language: 'en', translations: [{ language: 'en', title: 'Empty News' }] } })).status).toBe(201);
    await write({ slug: 'seq-a', author: { name: 'Ada Byline' }, translations: [{ language: 'en', title: 'Seq A v2', content_markdown: 'A two.' }] });
    // Homepage visibility changes what the homepage shows and nothing an article's own files say.
    expect((await t.request('PATCH', '/api/v1/channels/pressroom-journal/pages/seq-a/settings', { key, body: { homepage_mode: 'hide' } })).status).toBe(200);
    await builder.applyEvents();
    expect((await t.request('PATCH', '/api/v1/channels/many-news', { key, body: { homepage_enabled: false } })).status).toBe(200);
    await t.service.worker.runDue();
    await builder.applyEvents();
    // A language only an article has (German in an English-only channel), then one that comes and goes (French).
    const post = (slug: string, translations: Array<{ language: string; title: string }>) =>
      t.request('POST', '/api/v1/channels/empty-news/pages', { key, body: { slug, default_language: translations[0]!.language, status: 'published', translations: translations.map((x) => ({ ...x, content_markdown: `${x.title}.` })) } });
    expect((await post('deutsch', [{ language: 'de', title: 'Deutsch' }, { language: 'en', title: 'German' }])).status).toBe(201);
    expect((await post('francais', [{ language: 'fr', title: 'Français' }])).status).toBe(201);
    await t.service.worker.runDue();
    await builder.applyEvents();
    expect((await t.request('PATCH', '/api/v1/channels/empty-news/pages/francais/status', { key, body: { status: 'draft', publish_translations: true } })).status).toBe(200);
    await builder.applyEvents();
    const incremental = snapshot(t.config.outputDir);
    expect(incremental.has('empty-news/de/rss.xml')).toBe(true);
    expect(incremental.has('empty-news/fr/rss.xml')).toBe(false);
    expect(incremental.get('pressroom-journal/en/seq-a.html')?.toString()).toContain('Seq A v2');
    expect(incremental.has('pressroom-journal/en/seq-b.html')).toBe(false);
    expect(incremental.has('empty-news/index.html')).toBe(true);
    expect(incremental.get('pressroom-journal/en/seq-a.html')?.toString()).toContain('Ada Byline');

    // A fresh full build, from a copy of the store into an empty folder.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-fresh-'));
    try {
      let copyLocation = path.join(dir, 'copy.db');
      if (TEST_STORE === 'postgres') copyLocation = await (await sharedPostgres()).copyDatabase(t.config.database);
      else await t.service.db.executeQuery({ sql: `VACUUM INTO '${copyLocation}'`, parameters: [], query: { kind: 'RawNode' } as never } as never);
      const copy = openDatabase(copyLocation);
      await migrateToLatest(copy);
      await copy.deleteFrom('output_files').execute();
      await copy.deleteFrom('built_translations').execute();
      await makeBuilder(copy, path.join(dir, 'dist')).fullBuild();
      // What the output shows of each translation (read your writes) is recorded the same way by both builds.
      const shown = (db: Db) => db.selectFrom('built_translations').selectAll().orderBy('article_id').orderBy('language').execute();
      const recorded = await shown(t.service.db);
      expect(recorded.map((r) => r.language)).toContain('de');
      expect(await shown(copy)).toEqual(recorded);
      await copy.destroy();
      const fresh = snapshot(path.join(dir, 'dist'));
      expect([...fresh.keys()].sort()).toEqual([...incremental.keys()].sort());
      for (const [rel, bytes] of fresh) expect(bytes.equals(incremental.get(rel)!), rel).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
