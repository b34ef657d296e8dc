/**
 * Read your writes (issue 13, item 5): once the publishing API reports a
 * translation `published`, its public JSON, Markdown, HTML page and list
 * entries (channel list JSON, channel page, feed) answer at once on the
 * bundled server; once it reports it no longer public, they answer 404 and
 * the lists no longer name it. Real HTTP, the real worker and the real build
 * queue; the loops poll the publishing API as a client would and assert
 * nothing about time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { up as builtTranslationsUp } from '../../server/store/migrations/0008-built-translations.ts';
import { startTestService, TEST_STORE, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;
const CHANNEL = 'ryw';
const LOOPS = 20;

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' }, { startWorker: true });
  key = await t.key('reader', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: CHANNEL, default_language: 'en', translations: [{ language: 'en', title: 'Read' }, { language: 'fr', title: 'Lire' }] },
  });
  expect(ch.status, ch.text).toBe(201);
});
afterAll(async () => t?.stop());

const page = (slug: string) => `/api/v1/channels/${CHANNEL}/pages/${slug}`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

/** Reads the article until every translation reports `want` (or, with `not`, none reports it); bounded. */
async function pollUntil(slug: string, test: (statuses: string[]) => boolean): Promise<{ status: string; translations: Array<{ language: string; status: string }> }> {
  for (let i = 0; i < 5000; i++) {
    const article = (await t.request('GET', page(slug), { key })).json;
    if (test(article.translations.map((tr: { status: string }) => tr.status))) return article;
    await tick();
  }
  throw new Error(`${slug} never reached the awaited state`);
}

/** What readers get of one translation, read at once, all addresses in parallel. */
async function readerView(slug: string, language: 'en' | 'fr') {
  const get = (path: string) => t.request('GET', path);
  const prefix = language === 'en' ? '' : `${language}/`;
  const [json, md, html, list, channelPage, feed] = await Promise.all([
    get(`/api/public/v1/channels/${CHANNEL}/articles/${slug}?lang=${language}`),
    get(`/api/public/v1/channels/${CHANNEL}/articles/${slug}.md?lang=${language}`),
    get(`/${CHANNEL}/${language}/${slug}`),
    get(`/api/public/v1/channels/${CHANNEL}/articles?lang=${language}`),
    get(`/${CHANNEL}/${prefix}`),
    get(`/${CHANNEL}/${prefix}feed.json`),
  ]);
  const listed = (list.json?.articles ?? list.json?.data ?? []) as Array<{ slug: string }>;
  return {
    json: json.status,
    title: json.json?.title ?? json.json?.article?.title ?? null,
    md: md.status,
    html: html.status,
    inList: list.text.includes(`"${slug}"`) || listed.some((a) => a.slug === slug),
    onChannelPage: channelPage.text.includes(`/${slug}"`),
    inFeed: feed.text.includes(`/${slug}"`),
  };
}

describe('read your writes on the bundled server', () => {
  it(`${LOOPS} publish → read and withdraw → 404 loops: the publishing API never runs ahead of readers`, async () => {
    const failures: string[] = [];
    for (let i = 0; i < LOOPS; i++) {
      const slug = `loop-${i % 5}`;
      const titles = { en: `Loop ${i}`, fr: `Boucle ${i}` };
      const written = await t.request('POST', `/api/v1/channels/${CHANNEL}/pages`, {
        key,
        body: {
          slug,
          default_language: 'en',
          status: 'published',
          publish_translations: true,
          translations: [
            { language: 'en', title: titles.en, content_markdown: `Text ${i}.` },
            { language: 'fr', title: titles.fr, content_markdown: `Texte ${i}.` },
          ],
        },
      });
      expect(written.status, written.text).toBeLessThan(300);
      const published = await pollUntil(slug, (s) => s.every((x) => x === 'published'));
      expect(published.status).toBe('published');
      for (const language of ['en', 'fr'] as const) {
        const seen = await readerView(slug, language);
        const expected = { json: 200, title: titles[language], md: 200, html: 200, inList: true, onChannelPage: true, inFeed: true };
        if (JSON.stringify(seen) !== JSON.stringify(expected)) failures.push(`loop ${i} published ${language}: ${JSON.stringify(seen)}`);
      }

      // The withdrawing write's own answer is already true: no polling needed.
      const withdrawn = await t.request('PATCH', `${page(slug)}/status`, { key, body: { status: 'draft', publish_translations: true } });
      expect(withdrawn.status, withdrawn.text).toBe(200);
      expect(withdrawn.json.translations.map((tr: { status: string }) => tr.status)).toEqual(['draft', 'draft']);
      expect(withdrawn.json.status).toBe('draft');
      for (const language of ['en', 'fr'] as const) {
        const seen = await readerView(slug, language);
        const expected = { json: 404, title: null, md: 404, html: 404, inList: false, onChannelPage: false, inFeed: false };
        if (JSON.stringify(seen) !== JSON.stringify(expected)) failures.push(`loop ${i} withdrawn ${language}: ${JSON.stringify(seen)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it(`${LOOPS} revise → read loops: once pending_revision is null and the summary settled, readers get the new text`, async () => {
    const slug = 'revised';
    const created = await t.request('POST', `/api/v1/channels/${CHANNEL}/pages`, {
      key,
      body: { slug, default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Revision 0', content_markdown: 'Text.' }] },
    });
    expect(created.status, created.text).toBeLessThan(300);
    await pollUntil(slug, (s) => s.every((x) => x === 'published'));
    const failures: string[] = [];
    for (let i = 1; i <= LOOPS; i++) {
      const put = await t.request('PUT', `${page(slug)}/translations/en`, { key, body: { title: `Revision ${i}`, content_markdown: `Text ${i}.` } });
      expect(put.status, put.text).toBe(200);
      let article: any;
      for (let n = 0; n < 5000; n++) {
        article = (await t.request('GET', page(slug), { key })).json;
        if (article.translations[0].pending_revision === null && article.translation_status_summary.all_translations_settled) break;
        await tick();
      }
      expect(article.translations[0].pending_revision).toBeNull();
      const seen = await readerView(slug, 'en');
      if (seen.title !== `Revision ${i}`) failures.push(`loop ${i}: readers got ${JSON.stringify(seen.title)}`);
    }
    expect(failures).toEqual([]);
  });

  // SQLite's migration 0008 (a Postgres database starts past it).
  it.skipIf(TEST_STORE === 'postgres')('a database upgraded to 0008 is seeded from its published translations, and a full build records the same', async () => {
    const written = await t.request('POST', `/api/v1/channels/${CHANNEL}/pages`, {
      key,
      body: { slug: 'upgraded', default_language: 'en', status: 'published', publish_translations: true, translations: [{ language: 'en', title: 'Up', content_markdown: 'Up.' }, { language: 'fr', title: 'Haut', content_markdown: 'Haut.' }] },
    });
    expect(written.status, written.text).toBe(201);
    await pollUntil('upgraded', (s) => s.every((x) => x === 'published'));
    const recorded = () => t.service.db.selectFrom('built_translations').selectAll().orderBy('article_id').orderBy('language').execute();
    const before = await recorded();
    await t.service.staticSite!.queue.idle();
    await sql`DROP TABLE built_translations`.execute(t.service.db);
    await builtTranslationsUp(t.service.db as never);
    expect(await recorded()).toEqual(before);
    expect((await pollUntil('upgraded', () => true)).translations.map((tr) => tr.status)).toEqual(['published', 'published']);
    await t.service.db.deleteFrom('built_translations').execute();
    await t.service.staticSite!.builder.fullBuild();
    expect(await recorded()).toEqual(before);
  });

  it('a translation the build chose not to show (its channel hidden) does not read "being published" forever', async () => {
    const ch = await t.request('POST', '/api/v1/channels', { key, body: { slug: 'shy', default_language: 'en', translations: [{ language: 'en', title: 'Shy' }] } });
    expect(ch.status, ch.text).toBe(201);
    const written = await t.request('POST', '/api/v1/channels/shy/pages', { key, body: { slug: 'quiet', default_language: 'en', status: 'published', translations: [{ language: 'en', title: 'Quiet', content_markdown: 'Quiet.' }] } });
    expect(written.status, written.text).toBe(201);
    const read = async () => (await t.request('GET', '/api/v1/channels/shy/pages/quiet', { key })).json;
    for (let i = 0; (await read()).status !== 'published'; i++) {
      expect(i).toBeLessThan(5000);
      await tick();
    }
    const hidden = await t.request('PATCH', '/api/v1/channels/shy', { key, body: { status: 'hidden' } });
    expect(hidden.status, hidden.text).toBe(200);
    await t.service.staticSite!.queue.settle(10_000);
    expect((await t.request('GET', '/api/public/v1/channels/shy/articles/quiet')).status).toBe(404);
    // The build has nothing pending for it: the store's status stands (a final state), not moderation_review.
    expect((await read()).translations[0].status).toBe('published');
  });
});
