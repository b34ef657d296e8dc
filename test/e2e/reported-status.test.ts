/**
 * What the publishing API reports is what readers see (issue 18, item 9): a
 * translation never reads `published` while nothing of it is public. Each case
 * asserts the publishing API's answer and public visibility (the public
 * content API over real HTTP, after the build) together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let t: TestService;
let key: string;

const en = (title: string) => ({ language: 'en', title, content_markdown: `${title}.\n\nText.` });
const fr = (title: string) => ({ language: 'fr', title, content_markdown: `${title}.\n\nTexte.` });

beforeAll(async () => {
  t = await startTestService({ PRESSROOM_STATIC_BUILD: 'true', PRESSROOM_RATE_LIMIT_CONTENT: '0' });
  key = await t.key('truth', 'pro');
  const ch = await t.request('POST', '/api/v1/channels', {
    key,
    body: { slug: 'truth', default_language: 'en', translations: [{ language: 'en', title: 'Truth' }, { language: 'fr', title: 'Vérité' }] },
  });
  expect(ch.status, ch.text).toBe(201);
});
afterAll(async () => t?.stop());

/** Runs moderation and waits for the build. */
async function settle(): Promise<void> {
  await t.service.worker.runDue();
  t.service.staticSite!.queue.kick();
  await t.service.staticSite!.queue.idle();
}

const page = (slug: string) => `/api/v1/channels/truth/pages/${slug}`;
const read = async (slug: string) => (await t.request('GET', page(slug), { key })).json;

/** The status of each language of the public article (`lang` query), 200 or 404. */
async function publicStatus(slug: string, language: string): Promise<number> {
  return (await t.request('GET', `/api/public/v1/channels/truth/articles/${slug}?lang=${language}`)).status;
}

/** Every translation the publishing API reports as published is public, and every other one is not. */
async function expectReportedIsPublic(slug: string): Promise<void> {
  const article = await read(slug);
  for (const tr of article.translations as Array<{ language: string; status: string }>) {
    const shown = await publicStatus(slug, tr.language);
    expect({ language: tr.language, status: tr.status, public: shown === 200 }).toEqual({ language: tr.language, status: tr.status, public: tr.status === 'published' });
  }
  const summary = article.translation_status_summary;
  if (summary.all_translations_published) expect(article.status).toBe('published');
}

async function publishedArticle(slug: string, translations: unknown[]) {
  const res = await t.request('POST', '/api/v1/channels/truth/pages', { key, body: { slug, default_language: 'en', status: 'published', translations } });
  expect(res.status, res.text).toBe(201);
  await settle();
  expect(await publicStatus(slug, 'en')).toBe(200);
}

describe('an archived article', () => {
  it('refuses to publish a translation on its own (422 naming status); nothing reads published, nothing is public', async () => {
    await publishedArticle('archived-put', [en('Archived put'), fr('Archivé')]);
    const archived = await t.request('PATCH', `${page('archived-put')}/status`, { key, body: { status: 'archived', publish_translations: true } });
    expect(archived.status, archived.text).toBe(200);
    await settle();
    for (const language of ['en', 'fr']) {
      for (const status of ['published', 'scheduled']) {
        const put = await t.request('PUT', `${page('archived-put')}/translations/${language}`, { key, body: { title: 'Back', content_markdown: 'Back.', status } });
        expect(put.status, put.text).toBe(422);
        expect(Object.keys(put.json.error.details.fields)).toEqual(['status']);
      }
    }
    await settle();
    const article = await read('archived-put');
    expect(article.status).toBe('archived');
    expect(article.translation_status_summary).toMatchObject({ published: [], all_translations_published: false });
    await expectReportedIsPublic('archived-put');
  });

  it('a PUT without status edits it privately', async () => {
    const put = await t.request('PUT', `${page('archived-put')}/translations/en`, { key, body: { title: 'Edited while archived', content_markdown: 'Edited.' } });
    expect(put.status, put.text).toBe(200);
    await settle();
    expect((await read('archived-put')).status).toBe('archived');
    await expectReportedIsPublic('archived-put');
  });

  it('comes back through PATCH …/status, really published', async () => {
    const back = await t.request('PATCH', `${page('archived-put')}/status`, { key, body: { status: 'published', publish_translations: true } });
    expect(back.status, back.text).toBe(200);
    await settle();
    const article = await read('archived-put');
    expect(article.status).toBe('published');
    expect(article.translation_status_summary).toMatchObject({ published: ['en', 'fr'], all_translations_published: true });
    await expectReportedIsPublic('archived-put');
  });
});

describe('switching default_language on an upsert', () => {
  it('to an unpublished translation while another is published is a 422 naming default_language; nothing changes', async () => {
    await publishedArticle('switch', [en('Switch')]);
    const res = await t.request('POST', '/api/v1/channels/truth/pages', { key, body: { slug: 'switch', default_language: 'fr', translations: [fr('Bascule')] } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.json.error.details.fields)).toEqual(['default_language']);
    // Asking to publish the new primary in the same request is refused too: it would read published before it is.
    const withStatus = await t.request('POST', '/api/v1/channels/truth/pages', { key, body: { slug: 'switch', default_language: 'fr', status: 'published', translations: [fr('Bascule')] } });
    expect(withStatus.status, withStatus.text).toBe(422);
    await settle();
    const article = await read('switch');
    expect(article).toMatchObject({ default_language: 'en', status: 'published' });
    expect(article.translations.map((x: { language: string }) => x.language)).toEqual(['en']);
    await expectReportedIsPublic('switch');
  });

  it('to a published translation is allowed, and both stay public', async () => {
    const addFr = await t.request('PUT', `${page('switch')}/translations/fr`, { key, body: { title: 'Bascule', content_markdown: 'Bascule.', status: 'published' } });
    expect(addFr.status, addFr.text).toBe(201);
    await settle();
    const res = await t.request('POST', '/api/v1/channels/truth/pages', { key, body: { slug: 'switch', default_language: 'fr', translations: [fr('Bascule')] } });
    expect(res.status, res.text).toBe(200);
    await settle();
    expect(await read('switch')).toMatchObject({ default_language: 'fr', status: 'published', translation_status_summary: { all_translations_published: true } });
    await expectReportedIsPublic('switch');
  });

  it('together with status "draft" unpublishes everything, truthfully', async () => {
    await publishedArticle('switch-draft', [en('Switch draft')]);
    const res = await t.request('POST', '/api/v1/channels/truth/pages', { key, body: { slug: 'switch-draft', default_language: 'fr', status: 'draft', translations: [fr('Brouillon')] } });
    expect(res.status, res.text).toBe(200);
    await settle();
    expect((await read('switch-draft')).translation_status_summary.published).toEqual([]);
    await expectReportedIsPublic('switch-draft');
  });
});

describe('unpublishing the primary language alone', () => {
  it('PATCH …/status draft with publish_translations false withdraws the secondaries too', async () => {
    await publishedArticle('primary-off', [en('Primary off'), fr('Primaire')]);
    const res = await t.request('PATCH', `${page('primary-off')}/status`, { key, body: { status: 'draft', publish_translations: false } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.translation_status_summary).toMatchObject({ published: [], draft: ['en', 'fr'] });
    await settle();
    await expectReportedIsPublic('primary-off');
  });

  it('PUT …/translations/{primary} with status draft withdraws the secondaries too', async () => {
    await publishedArticle('primary-put', [en('Primary put'), fr('Primaire')]);
    const res = await t.request('PUT', `${page('primary-put')}/translations/en`, { key, body: { title: 'Primary put', content_markdown: 'Primary put.', status: 'draft' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.translation_status_summary.published).toEqual([]);
    await settle();
    await expectReportedIsPublic('primary-put');
  });

  it('unpublishing a secondary alone leaves the primary public', async () => {
    await publishedArticle('secondary-off', [en('Secondary off'), fr('Secondaire')]);
    const res = await t.request('PUT', `${page('secondary-off')}/translations/fr`, { key, body: { title: 'Secondaire', content_markdown: 'Secondaire.', status: 'draft' } });
    expect(res.status, res.text).toBe(200);
    await settle();
    expect((await read('secondary-off')).translation_status_summary).toMatchObject({ published: ['en'], draft: ['fr'] });
    await expectReportedIsPublic('secondary-off');
  });
});
