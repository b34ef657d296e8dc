/**
 * The public model reads bodies rendered at save time, renders (and, when
 * asked, stores) the bodies of rows without a current stored body, and
 * gives the same values either way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { channelAccess } from '../domain/account/access.ts';
import { ensureAccount } from '../domain/account/account.service.ts';
import { saveArticle } from '../domain/article/article-save.ts';
import { imageSlice } from '../domain/body/article-image.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody } from '../domain/body/index.ts';
import { insertChannelFor } from '../domain/channel/channel.service.ts';
import { migrateToLatest, openDatabase, type Db } from '../store/database.ts';
import { readPublishedArticleRows, readPublishedRows } from '../store/public-read.repository.ts';
import { createPublicUrls } from '../urls/public-urls.ts';
import { createPublicModel } from './public-model.ts';
import { textStartOf } from './selection.ts';
import { renderArticleJson, renderArticleJsonOf } from '../render/article-json.ts';

const urls = createPublicUrls('http://pressroom.test', 'http://pressroom.test/dashboard');
const BODY = '## Heading\n\nSome *text* with [a link](https://example.com) and `code`.\n';
let dir: string;
let db: Db;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pressroom-model-'));
  db = openDatabase(path.join(dir, 'pressroom.db'));
  await migrateToLatest(db);
  const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
  const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  await db.transaction().execute(async (trx) => {
    await insertChannelFor(trx, systemClock, principal, { slug: 'news', default_language: 'en', translations: [{ language: 'en', title: 'News' }] });
    await saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, 'news'), {
      slug: 'one',
      default_language: 'en',
      translations: [{ language: 'en', title: 'One', content_markdown: BODY, status: 'published' }],
    }, { mode: 'trusted' });
  });
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const stored = () => db.selectFrom('revisions').select(['content_html', 'content_text', 'body_version', 'link_targets']).executeTakeFirstOrThrow();

describe('reading many articles', () => {
  it('reads more ids than SQLite binds in one statement (a site of 100,000 articles)', async () => {
    const { id } = await db.selectFrom('articles').select('id').executeTakeFirstOrThrow();
    const ids = [...Array.from({ length: 45_000 }, (_, i) => 1_000_000 + i), id];
    const rows = await readPublishedRows(db, ids, { bodies: 'none', bodyVersion: BODY_RENDER_VERSION, imageSliceChars: 100 });
    expect(rows.map((r) => r.article_id)).toEqual([id]);
    // The articles themselves too: a builder that finds every owner stale (after an upgrade) reads them all by id.
    expect((await readPublishedArticleRows(db, { ids })).map((r) => r.id)).toEqual([id]);
    const model = createPublicModel({ db, urls });
    expect((await model.heads({ ids })).map((h) => h.summary.id)).toEqual([id]);
    expect([...(await model.publicLanguages({ ids })).keys()]).toEqual([id]);
  });
});

describe('publicLanguages', () => {
  it('names exactly the translations the heads show, without reading them', async () => {
    const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
    const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
    const save = (channel: string, slug: string, translations: Array<{ language: string; status: 'published' | 'draft' }>) =>
      db.transaction().execute(async (trx) =>
        saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, channel), {
          slug,
          default_language: 'en',
          translations: translations.map((t) => ({ ...t, title: `${slug} ${t.language}`, content_markdown: BODY })),
        }, { mode: 'trusted' }),
      );
    await save('news', 'both', [{ language: 'en', status: 'published' }, { language: 'fr', status: 'published' }]);
    await save('news', 'draft-fr', [{ language: 'en', status: 'published' }, { language: 'fr', status: 'draft' }]);
    const archived = await save('news', 'archived', [{ language: 'en', status: 'published' }]);
    await db.updateTable('articles').set({ status: 'archived' }).where('id', '=', archived.article.id).execute();
    await db.transaction().execute((trx) => insertChannelFor(trx, systemClock, principal, { slug: 'hidden', default_language: 'en', translations: [{ language: 'en', title: 'Hidden' }] }));
    await save('hidden', 'in-hidden', [{ language: 'en', status: 'published' }]);
    await db.updateTable('channels').set({ status: 'hidden' }).where('slug', '=', 'hidden').execute();

    const model = createPublicModel({ db, urls });
    const fromHeads = new Map((await model.heads({})).map((h) => [h.summary.id, h.summary.translations.map((t) => t.language).sort()]));
    const languages = await model.publicLanguages({});
    expect(new Map([...languages].map(([id, l]) => [id, [...l].sort()]))).toEqual(fromHeads);
    // The set-up's "one", then "both" in two languages and "draft-fr" in English only; nothing else.
    expect([...fromHeads.values()]).toEqual(expect.arrayContaining([['en'], ['en', 'fr'], ['en']]));
    expect(fromHeads.size).toBe(3);
    const channel = await db.selectFrom('channels').select('id').where('slug', '=', 'news').executeTakeFirstOrThrow();
    expect(await model.publicLanguages({ channelId: channel.id })).toEqual(languages);
  });
});

describe('public model bodies', () => {
  it('saving a revision stores its rendered body', async () => {
    const expected = renderMarkdownBody(BODY);
    expect(await stored()).toEqual({ content_html: expected.html, content_text: expected.text, body_version: BODY_RENDER_VERSION, link_targets: expected.links });
  });

  /** Every column a read could have written, of every revision. */
  const revisionBytes = () => db.selectFrom('revisions').select(['content_html', 'content_text', 'body_version', 'link_targets', 'image_html']).execute();

  it('never writes: a row rendered before migration 0012 is read as it is, on every kind of read', async () => {
    await db.updateTable('revisions').set({ link_targets: null, image_html: null }).execute();
    const before = await revisionBytes();
    await createPublicModel({ db, urls }).articles({});
    await createPublicModel({ db, urls }).texts({});
    await createPublicModel({ db, urls }).heads({});
    expect(await revisionBytes()).toEqual(before);
  });

  it('hands the stored link targets to the renderers with the body, and null where none are stored', async () => {
    const [article] = await createPublicModel({ db, urls }).articles({});
    expect(article!.translations[0]!.linkTargets).toBe(renderMarkdownBody(BODY).links);
    await db.updateTable('revisions').set({ link_targets: null }).execute();
    const [again] = await createPublicModel({ db, urls }).articles({});
    expect(again!.translations[0]!.linkTargets).toBeNull();
  });

  it('reads the stored body: what the revision holds is what readers get', async () => {
    await db.updateTable('revisions').set({ content_html: '<p>stored</p>', content_text: 'stored' }).execute();
    const [article] = await createPublicModel({ db, urls }).articles({});
    expect(article!.translations[0]).toMatchObject({ markdown: BODY, html: '<p>stored</p>', text: 'stored' });
    const [texts] = await createPublicModel({ db, urls }).texts({});
    expect(texts!.translations[0]).toMatchObject({ language: 'en', title: 'One', text: 'stored' });
  });

  it.each([null, 'an older renderer'])('renders a body stored by version %s in memory, on full and text reads, and stores nothing', async (version) => {
    await db.updateTable('revisions').set({ content_html: version && '<p>old</p>', content_text: version && 'old', body_version: version }).execute();
    const before = await revisionBytes();
    const expected = renderMarkdownBody(BODY);
    const [read] = await createPublicModel({ db, urls }).articles({});
    expect(read!.translations[0]).toMatchObject({ html: expected.html, text: expected.text, linkTargets: expected.links });
    const [text] = await createPublicModel({ db, urls }).texts({});
    expect(text!.translations[0]!.text).toBe(expected.text);
    expect(await revisionBytes()).toEqual(before);
  });
});

describe('the article image', () => {
  const own = 'news/one/0123456789abcdef.webp';
  const other = 'news/two/fedcba9876543210.webp';
  const draft = 'news/_drafts/0011223344556677.webp';
  async function setBody(markdown: string, version: string | null = BODY_RENDER_VERSION) {
    const { html, text } = renderMarkdownBody(markdown);
    await db
      .updateTable('revisions')
      .set({ content_markdown: markdown, content_html: version ? html : null, content_text: version ? text : null, body_version: version, image_html: version ? (imageSlice(html) ?? '') : null })
      .execute();
  }
  beforeEach(async () => {
    const { id: articleId, channel_id } = await db.selectFrom('articles').select(['id', 'channel_id']).executeTakeFirstOrThrow();
    const row = { channel_id, purpose: 'article' as const, draft: 0, width: 800, height: 600, bytes: 4321, created_at: '2026-01-01T00:00:00.000Z' };
    await db.insertInto('media').values([
      { ...row, article_id: articleId, file_name: own },
      { ...row, article_id: null, file_name: other },
      { ...row, article_id: null, file_name: draft, draft: 1 },
    ]).execute();
  });
  const image = async () => (await createPublicModel({ db, urls }).articles({}))[0]!.translations[0]!.image;
  const headImage = async () => (await createPublicModel({ db, urls }).heads({}))[0]!.summary.translations[0]!.image;

  it.each([
    ['the first own image, with the alt text of the body', `![Elsewhere](https://elsewhere.example/a.webp)\n\n![Draft](/media/${draft})\n\n![Other](/media/${other})\n\n![Own "one"](http://pressroom.test/media/${own})\n\n![Second](/media/${own})`, { url: `http://pressroom.test/media/${own}`, alt: 'Own "one"', type: 'image/webp', bytes: 4321, width: 800, height: 600 }],
    ['none without an own image', `![Other](/media/${other})\n\n\`\`\`\n<img src="/media/${own}">\n\`\`\``, null],
  ])('is %s', async (_name, markdown, expected) => {
    await setBody(markdown);
    expect(await image()).toEqual(expected);
    expect(await headImage()).toEqual(expected);
  });

  it('comes from the slice stored with the revision, and from the HTML only on rows stored before it', async () => {
    await setBody(`![Own](/media/${own})`);
    expect(await headImage()).toMatchObject({ alt: 'Own' });
    // '' says "no image": the stored HTML is not scanned again.
    await db.updateTable('revisions').set({ image_html: '' }).execute();
    expect(await headImage()).toBeNull();
    await db.updateTable('revisions').set({ image_html: `<img src="/media/${own}" alt="Stored">` }).execute();
    expect(await headImage()).toMatchObject({ alt: 'Stored' });
    // A row stored before the column: its HTML is scanned.
    await db.updateTable('revisions').set({ image_html: null }).execute();
    expect(await headImage()).toMatchObject({ alt: 'Own' });
  });

  it('is stored with each new revision: its slice, or \'\' for a body without an image', async () => {
    expect((await db.selectFrom('revisions').select('image_html').executeTakeFirstOrThrow()).image_html).toBe('');
    const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
    const principal = { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
    await db.transaction().execute(async (trx) =>
      saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, 'news'), {
        slug: 'one',
        default_language: 'en',
        translations: [{ language: 'en', title: 'One', content_markdown: `Text.\n\n![Own](/media/${own})\n` }],
      }, { mode: 'trusted' }),
    );
    const newest = await db.selectFrom('revisions').select(['content_html', 'image_html']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(newest.image_html).toMatch(/^<img /);
    expect(newest.image_html).toBe(imageSlice(newest.content_html!));
    expect(await headImage()).toMatchObject({ alt: 'Own' });
  });

  it('is there for a row without a current rendering whenever its body is read (heads read no body)', async () => {
    await setBody(`![Own](/media/${own})`, null);
    expect(await image()).toMatchObject({ alt: 'Own' });
    expect(await headImage()).toBeNull();
  });
});

describe('the identity rule (identity-memo.ts)', () => {
  it('hands out frozen models only, so no reader can change one a memo remembers', async () => {
    const model = createPublicModel({ db, urls });
    const [article] = await model.articles({});
    const [head] = await model.heads({});
    const [channel] = await model.channels();
    const [text] = await model.texts({});
    for (const value of [article!, article!.translations[0]!, article!.channel, head!.summary, head!.summary.translations[0]!, channel!, channel!.translations[0]!, text!]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
    expect(() => {
      (article!.translations[0] as { title: string }).title = 'changed';
    }).toThrow(TypeError);
  });
});

describe("one translation's body read alone (include=html)", () => {
  it('gives the translation of the whole article, and the same Article JSON byte for byte', async () => {
    const model = createPublicModel({ db, urls });
    const [head] = await model.heads({});
    const [full] = await model.articles({});
    const shown = head!.summary.translations[0]!;
    const alone = await model.translationBody(head!.summary.id, shown);
    expect(alone).toEqual(full!.translations[0]);
    expect(renderArticleJsonOf(head!.summary, alone!, { includeHtml: true })).toBe(renderArticleJson(full!, 'en', { includeHtml: true }));
  });

  it('is null once the store holds another version than the one shown, or none', async () => {
    const model = createPublicModel({ db, urls });
    const [head] = await model.heads({});
    const shown = head!.summary.translations[0]!;
    // A head made before the last decision: the store has moved on (a change not built yet).
    expect(await model.translationBody(head!.summary.id, { ...shown, updatedAt: '2000-01-01T00:00:00.000Z' })).toBeNull();
    expect(await model.translationBody(head!.summary.id, { ...shown, language: 'fr' })).toBeNull();
    expect(await model.translationBody(9_999_999, shown)).toBeNull();
  });

  it('reads the stored rendering alone: the whole article\'s HTML, and null as translationBody is', async () => {
    const model = createPublicModel({ db, urls });
    const [head] = await model.heads({});
    const [full] = await model.articles({});
    const shown = head!.summary.translations[0]!;
    expect(await model.translationHtml(head!.summary.id, shown)).toBe(full!.translations[0]!.html);
    expect(await model.translationHtml(head!.summary.id, { ...shown, updatedAt: '2000-01-01T00:00:00.000Z' })).toBeNull();
    expect(await model.translationHtml(head!.summary.id, { ...shown, language: 'fr' })).toBeNull();
    expect(await model.translationHtml(9_999_999, shown)).toBeNull();
  });
});

describe('preview: the article as publishing its current texts would make it', () => {
  const NOW = '2030-01-02T03:04:05.000Z';
  const principalOf = async () => {
    const account = (await ensureAccount(db, systemClock, 'test', 'pro')).account;
    return { accountId: account.id, accountName: account.name, plan: 'pro' as const, keyId: 0 };
  };

  it('is the published article itself when nothing waits', async () => {
    const model = createPublicModel({ db, urls });
    const [published] = await model.articles({});
    const previewed = await model.preview(published!.id, NOW);
    expect(previewed!.article).toEqual(published);
    expect(previewed!.changed).toEqual([]);
    expect(previewed!.summary.translations[0]!.textStart).toBe(textStartOf(published!.translations[0]!.prose));
    expect(renderArticleJson(previewed!.article, 'en')).toBe(renderArticleJson(published!, 'en'));
  });

  it("takes a draft's current texts in every language, dated now, and never makes it public", async () => {
    const principal = await principalOf();
    const saved = await db.transaction().execute(async (trx) =>
      saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, 'news'), {
        slug: 'draft',
        default_language: 'en',
        translations: [
          { language: 'en', title: 'Draft title', excerpt: 'Draft excerpt', content_markdown: 'Draft **body**.', status: 'draft' },
          { language: 'ar', title: 'مسودة', content_markdown: 'نص.', status: 'draft' },
        ],
      }, { mode: 'trusted' }),
    );
    const model = createPublicModel({ db, urls });
    const previewed = (await model.preview(saved.article.id, NOW))!;
    expect([...previewed.changed].sort()).toEqual(['ar', 'en']);
    expect(previewed.article.translations.map((t) => [t.language, t.title, t.publishedAt, t.updatedAt, t.dir])).toEqual([
      ['en', 'Draft title', NOW, NOW, 'ltr'],
      ['ar', 'مسودة', NOW, NOW, 'rtl'],
    ]);
    expect(previewed.article.publishedAt).toBe(NOW);
    expect(previewed.article.translations[0]!.html).toBe(renderMarkdownBody('Draft **body**.').html);
    expect(previewed.summary.translations[0]!.textStart).toBe('Draft body.');
    // Still a draft for every reader.
    expect((await model.articles({ ids: [saved.article.id] }))).toEqual([]);
    expect(await model.preview(9_999_999, NOW)).toBeNull();
  });

  it("takes a published translation's waiting revision, and keeps the other languages as readers have them", async () => {
    const principal = await principalOf();
    const save = (enBody: string, status: 'published') =>
      db.transaction().execute(async (trx) =>
        saveArticle(trx, { clock: systemClock }, await channelAccess(trx, principal, 'news'), {
          slug: 'two',
          default_language: 'en',
          translations: [
            { language: 'en', title: 'Two', content_markdown: enBody, status },
            { language: 'fr', title: 'Deux', content_markdown: 'Texte.', status },
          ],
        }, { mode: 'trusted' }),
      );
    const first = await save('First text.', 'published');
    const model = createPublicModel({ db, urls });
    const [live] = await model.articles({ ids: [first.article.id] });
    // A change of a published translation waits for moderation: readers keep the first text.
    const en = (await db.selectFrom('article_translations').selectAll().where('article_id', '=', first.article.id).where('language', '=', 'en').executeTakeFirstOrThrow());
    await db.transaction().execute(async (trx) => {
      const revision = await trx.insertInto('revisions').values({ translation_id: en.id, number: 99, title: 'Two, revised', excerpt: null, content_markdown: 'Second text.', seo_title: null, seo_description: null, content_hash: 'h', moderation_state: 'pending', moderation_reason: null, created_at: NOW, decided_at: null, content_html: null, content_text: null, body_version: null, link_targets: null, content_prose: null, image_html: null }).returning('id').executeTakeFirstOrThrow();
      await trx.updateTable('article_translations').set({ title: 'Two, revised', content_markdown: 'Second text.', content_html: null, body_version: null, current_revision_id: revision.id }).where('id', '=', en.id).execute();
    });
    const previewed = (await model.preview(first.article.id, NOW))!;
    expect(previewed.changed).toEqual(['en']);
    const [enNow, frNow] = previewed.article.translations;
    expect([enNow!.title, enNow!.markdown, enNow!.updatedAt, enNow!.publishedAt]).toEqual(['Two, revised', 'Second text.', NOW, live!.translations[0]!.publishedAt]);
    // Rendered here, as the stored rendering was not current.
    expect(enNow!.html).toBe(renderMarkdownBody('Second text.').html);
    expect(frNow).toEqual(live!.translations[1]);
    expect((await model.articles({ ids: [first.article.id] }))[0]!.translations[0]!.title).toBe('Two');
  });
});
