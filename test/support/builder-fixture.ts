/**
 * Test support for the site builder and its parts: one fresh build context
 * per test, over a real, migrated SQLite file and a real output folder in a
 * new temp dir, with a manual clock, one account and one channel ("news"),
 * and articles published through the API's own save (`saveArticle`,
 * trusted: no moderation). The real JSON, Markdown, feed and sitemap
 * renderers are used; only the HTML renderer (Astro, heavy and slow to
 * start) is a small stand-in whose pages print what they show, so tests can
 * read a page and see which titles it lists. The builder tests, the
 * list-owner tests and the render-thread tests (`test/e2e/build-threads`)
 * share it, so they build over the same data. Not a test itself.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../../server/clock.ts';
import { channelAccess } from '../../server/domain/account/access.ts';
import { ensureAccount, type Principal } from '../../server/domain/account/account.service.ts';
import { saveArticle } from '../../server/domain/article/article-save.ts';
import { insertChannelFor } from '../../server/domain/channel/channel.service.ts';
import { createCursorCodec } from '../../server/domain/cursor.ts';
import { createLogger } from '../../server/logger.ts';
import type { SiteBuilderDeps } from '../../server/publish/builder/build-context.ts';
import { createSiteBuilder, type SiteBuilder } from '../../server/publish/builder/site-builder.ts';
import { createPublicModel } from '../../server/read-model/public-model.ts';
import type { SiteInfo } from '../../server/read-model/view-models.ts';
import type { HtmlRenderer } from '../../server/render/astro-renderer.ts';
import type { CardRenderer, SocialCard } from '../../server/render/social-card.ts';
import { createRenderers } from '../../server/render/renderers.ts';
import { staticFiles } from '../../server/serving/static-files.ts';
import { migrateToLatest, openDatabase, type Db } from '../../server/store/database.ts';
import { createPublicUrls, type PublicUrls } from '../../server/urls/public-urls.ts';

/** The site every builder fixture builds. */
export const BUILDER_SITE: SiteInfo = Object.freeze({ baseUrl: 'http://pressroom.test', name: 'Pressroom', contentSignal: 'search=yes, ai-train=no', socialCards: true });

const urls = createPublicUrls(BUILDER_SITE.baseUrl, `${BUILDER_SITE.baseUrl}/dashboard`);
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/**
 * Pages that say what they show, so a test reads a file to see it: an
 * article page its title and its channel's name (a channel rename must reach
 * it); a channel page its name and the titles it lists; the home page the
 * titles of the articles it is to show (`onHomepage`), so hiding one from
 * the homepage shows.
 */
export const STAND_IN_HTML: HtmlRenderer = Object.freeze({
  article: async (a, language) => utf8(`<h1>${a.translations.find((t) => t.language === language)!.title}</h1><p>${a.channel.translations[0]!.title}</p>`),
  channel: async (c, language, _languages, articles) => utf8(`<h1>${c.translations[0]!.title}</h1>${articles.map((a) => `<li>${a.translations.find((t) => t.language === language)?.title}</li>`).join('')}`),
  home: async (_channels, articles) => utf8(articles.filter((a) => a.onHomepage).map((a) => `<li>${a.translations[0]!.title}</li>`).join('')),
  notFound: async () => utf8('<h1>Not found</h1>'),
  search: async (_site, language) => utf8(`<h1>Search ${language ?? 'all'}</h1>`),
  clientAssets: async () => [],
  buildHash: 'stand-in',
} satisfies HtmlRenderer);

/** Cards that say what they show (a text, not a PNG): the builder's tests read what a card was made of. */
export const STAND_IN_CARDS: CardRenderer = Object.freeze({
  card: async (card: SocialCard) => utf8(`card: ${card.title} | ${card.kicker} | ${card.site} | ${card.lang} ${card.dir}`),
  logo: async () => utf8('logo'),
});

/** One test's build context: its store, output folder and clock, and helpers over them. */
export interface BuilderFixture {
  readonly dir: string;
  /** Where the builder writes the site (`<dir>/dist`, not created until a build writes). */
  readonly outputDir: string;
  /** The SQLite file `db` opened: what a render or check thread opens. */
  readonly databaseFile: string;
  readonly db: Db;
  /** Starts at 2026-11-01 10:00 UTC; each `publish` moves it a minute on, so list order is fixed. */
  readonly clock: ReturnType<typeof manualClock>;
  /** The account "test" (plan pro) that owns the channel. */
  readonly principal: Principal;
  /** The channel "news" (English, title "News"). */
  readonly channelId: number;
  readonly urls: PublicUrls;
  readonly site: SiteInfo;
  readonly html: HtmlRenderer;
  /** A builder over this fixture (the stand-in HTML, a fixed cursor key, a silent log); `more` adds or replaces dependencies. */
  makeBuilder(more?: Partial<SiteBuilderDeps>): SiteBuilder;
  /** Saves a one-language article (body "<title>.") in the channel ("news" unless named) and returns its id. */
  publish(slug: string, title: string, status?: 'published' | 'draft', channel?: string): Promise<number>;
  /** Publishes `count` articles `<prefix>-<i>` titled "Article <i>", oldest first. */
  publishMany(count: number, prefix?: string): Promise<void>;
  /** A file of the output, by its path under `outputDir`. */
  read(rel: string): string;
  exists(rel: string): boolean;
  /** The English HTML page of a "news" article, as a path under `outputDir`. */
  page(slug: string): string;
  /** The English Markdown file of a "news" article, as a path under `outputDir`. */
  md(slug: string): string;
  /** Closes the database and deletes the temp dir. */
  close(): Promise<void>;
}

/** Opens a migrated database in a new temp dir (`prefix` names it), with the account "test" and the channel "news". */
export async function openBuilderFixture(prefix = 'pressroom-builder-'): Promise<BuilderFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const outputDir = path.join(dir, 'dist');
  const databaseFile = path.join(dir, 'pressroom.db');
  const db = openDatabase(databaseFile);
  await migrateToLatest(db);
  // A clock of its own: no test sees the time another one moved.
  const clock = manualClock('2026-11-01T10:00:00Z');
  const account = (await ensureAccount(db, clock, 'test', 'pro')).account;
  const principal: Principal = { accountId: account.id, accountName: account.name, plan: 'pro', keyId: 0 };
  const channelId = await db.transaction().execute(async (trx) => (await insertChannelFor(trx, clock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] })).id);

  const publish: BuilderFixture['publish'] = (slug, title, status = 'published', channel = 'news') =>
    db.transaction().execute(async (trx) => {
      const access = await channelAccess(trx, principal, channel);
      const saved = await saveArticle(trx, { clock }, access, { slug, default_language: 'en', translations: [{ language: 'en', title, content_markdown: `${title}.`, status }] }, { mode: 'trusted' });
      clock.advance(60_000);
      return saved.article.id;
    });

  return {
    dir,
    outputDir,
    databaseFile,
    db,
    clock,
    principal,
    channelId,
    urls,
    site: BUILDER_SITE,
    html: STAND_IN_HTML,
    makeBuilder: (more = {}) =>
      createSiteBuilder({
        ...more,
        db,
        clock,
        model: more.model ?? createPublicModel({ db, urls }),
        renderers: more.renderers ?? createRenderers(STAND_IN_HTML, STAND_IN_CARDS),
        cursors: more.cursors ?? createCursorCodec('builder-test-secret-0123456789abcdef'),
        outputDir,
        site: BUILDER_SITE,
        channelsUrl: urls.channelsJson(),
        log: more.log ?? createLogger('silent'),
      }),
    publish,
    async publishMany(count, prefix = 'a') {
      for (let i = 0; i < count; i++) await publish(`${prefix}-${i}`, `Article ${i}`);
    },
    read: (rel) => fs.readFileSync(path.join(outputDir, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(outputDir, rel)),
    page: (slug) => staticFiles.articleHtml('news', slug, 'en'),
    md: (slug) => staticFiles.articleMarkdown('news', slug, 'en'),
    async close() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
