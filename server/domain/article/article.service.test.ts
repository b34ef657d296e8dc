/**
 * The article service's API operations (`article.service.ts`) over a real
 * migrated SQLite file, real keys and the rule moderation policy: what each
 * write stores and announces, and who may call it. Request bodies go through
 * the route's own schemas, so they are what the API would pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changePlan } from '../../admin/account-commands.ts';
import { inviteEditor } from '../../admin/channel-commands.ts';
import { createKey } from '../../admin/key-commands.ts';
import { authenticate, type Principal } from '../account/account.service.ts';
import { createCursorCodec } from '../cursor.ts';
import { createRulePolicy, DEFAULT_MODERATION_RULES } from '../moderation/moderation-policy.ts';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { recordBuiltTranslations } from '../../store/built-translation.repository.ts';
import { listJobs } from '../../store/job.repository.ts';
import { listEvents } from '../../store/publication-event.repository.ts';
import { CASE_RULES } from '../../../test/support/moderation-cases.ts';
import { createTestChannel, openTestDeps, type TestDeps } from '../../../test/support/admin-deps.ts';
import { articleListQuerySchema, articleWriteSchema, settingsChangeSchema, statusChangeSchema, translationPutSchema } from './article.schema.ts';
import { MODERATION_JOB } from './article-events.ts';
import { moderateRevision } from './moderation.service.ts';
import type { OutputWatch } from './reported-status.ts';
import {
  changeSettings,
  changeStatus,
  getArticle,
  listArticles,
  putTranslation,
  settleWrite,
  upsertArticle,
  WITHDRAWAL_WAIT_MS,
  type ArticleDeps,
} from './article.service.ts';
import { expectError } from '../../../test/support/expect-error.ts';

let t: TestDeps;
let deps: ArticleDeps;
let ana: Principal;
beforeEach(async () => {
  t = await openTestDeps();
  const urls = createPublicUrls('https://press.example', 'https://press.example/dashboard');
  // The case rules block "spamword": a byline goes public at once, so it is judged in the request.
  deps = { db: t.db, clock: t.clock, urls, cursors: createCursorCodec('article-service-test-secret'), moderation: createRulePolicy(CASE_RULES) };
  ana = await authenticate(t, (await createKey(t, { account: 'ana', plan: 'pro' })).key);
  await createTestChannel(t, 'ana', 'news');
});
afterEach(async () => t.cleanup());

const write = (body: Record<string, unknown>) => articleWriteSchema.parse(body);
const one = (slug: string, extra: Record<string, unknown> = {}) =>
  write({ slug, default_language: 'en', translations: [{ language: 'en', title: `Title of ${slug}`, content_markdown: 'Body.' }], ...extra });
const list = (query: Record<string, unknown> = {}) => articleListQuerySchema.parse(query);

/** Runs every pending moderation job's revision through the default rules, as the worker would. */
async function moderateAll(): Promise<void> {
  const policy = createRulePolicy(DEFAULT_MODERATION_RULES);
  for (const job of await listJobs(t.db, 'pending')) {
    if (job.kind === MODERATION_JOB) await moderateRevision({ ...t, policy }, (JSON.parse(job.payload) as { revisionId: number }).revisionId);
  }
  await t.db.updateTable('jobs').set({ state: 'done' }).where('kind', '=', MODERATION_JOB).execute();
}

/** A published article that passed moderation. */
async function published(slug: string, extra: Record<string, unknown> = {}) {
  const { view } = await upsertArticle(deps, ana, 'news', one(slug, { status: 'published', ...extra }));
  await moderateAll();
  return getArticle(deps, ana, 'news', String(view.id));
}

const translationRows = (articleId: number) => t.db.selectFrom('article_translations').selectAll().where('article_id', '=', articleId).orderBy('language').execute();
const eventsOf = async (articleId: number) => (await listEvents(t.db)).filter((e) => e.articleId === articleId);


describe('upsertArticle', () => {
  it('creates a draft by default, with no revision, job or event', async () => {
    const { view, created } = await upsertArticle(deps, ana, 'news', one('draft'));
    expect(created).toBe(true);
    expect(view).toMatchObject({
      project: 'news',
      slug: 'draft',
      status: 'draft',
      moderation: 'none',
      url: 'https://press.example/news/draft?lang=en',
      edit_url: `https://press.example/dashboard/channels/news/pages/${view.id}`,
      translations: [{ language: 'en', title: 'Title of draft', status: 'draft', content_html: '<p>Body.</p>' }],
    });
    expect(await t.db.selectFrom('revisions').selectAll().execute()).toEqual([]);
    expect(await listJobs(t.db)).toEqual([]);
    expect(await eventsOf(view.id)).toEqual([]);
  });

  it('publishing submits the content to moderation; once it passes the article is published and announced', async () => {
    const { view } = await upsertArticle(deps, ana, 'news', one('news-1', { status: 'published' }));
    expect(view).toMatchObject({ status: 'moderation_review', moderation: 'pending', published_at: null });
    expect((await listJobs(t.db)).map((j) => j.kind)).toEqual([MODERATION_JOB]);
    await moderateAll();
    const after = await getArticle(deps, ana, 'news', 'news-1');
    expect(after).toMatchObject({ status: 'published', moderation: 'passed', published_at: '2026-11-22T12:00:00.000Z' });
    expect((await eventsOf(view.id)).map((e) => e.kind)).toEqual(['article_public_changed']);
  });

  it('updates the article with the same slug, and a changed text of published content waits as a pending revision', async () => {
    const first = await published('same');
    t.clock.advance(60_000);
    const { view, created } = await upsertArticle(deps, ana, 'news', write({ slug: 'same', default_language: 'en', translations: [{ language: 'en', title: 'New title', content_markdown: 'New body.' }] }));
    expect(created).toBe(false);
    expect(view.id).toBe(first.id);
    // Readers keep the public version until the revision passes.
    expect(view).toMatchObject({ status: 'published', translations: [{ title: 'New title', status: 'published', pending_revision: { number: 2, moderation: 'pending', title: 'New title' } }] });
    const revisions = await t.db.selectFrom('revisions').select(['number', 'moderation_state']).orderBy('id').execute();
    expect(revisions).toEqual([{ number: 1, moderation_state: 'passed' }, { number: 2, moderation_state: 'pending' }]);
  });

  it('refuses a byline the moderation rules block, before anything is stored', async () => {
    const error = await expectError(upsertArticle(deps, ana, 'news', one('byline', { author: { name: 'Spamword Inc.' } })), 'CONTENT_REFUSED', /author\.name/);
    expect(error.details).toMatchObject({ fields: { 'author.name': expect.stringContaining('Rephrase it') } });
    expect(await t.db.selectFrom('articles').selectAll().execute()).toEqual([]);
  });

  it('refuses a schedule on a plan without scheduling, and a time that is not in the future', async () => {
    const bob = await authenticate(t, (await createKey(t, { account: 'bob', plan: 'free' })).key);
    await createTestChannel(t, 'bob', 'blog');
    await expectError(upsertArticle(deps, bob, 'blog', one('later', { status: 'scheduled', scheduled_at: '2026-12-01T00:00:00Z' })), 'PLAN_NO_SCHEDULING');
    const past = await expectError(upsertArticle(deps, ana, 'news', one('past', { status: 'scheduled', scheduled_at: '2026-11-01T00:00:00Z' })), 'VALIDATION_FAILED');
    expect(past.details).toMatchObject({ fields: { scheduled_at: expect.stringContaining('not in the future') } });
  });
});

describe('getArticle and listArticles', () => {
  it('finds an article by slug or by numeric id, and says how to list them otherwise', async () => {
    const { view } = await upsertArticle(deps, ana, 'news', one('found'));
    expect((await getArticle(deps, ana, 'news', 'found')).id).toBe(view.id);
    expect((await getArticle(deps, ana, 'news', String(view.id))).slug).toBe('found');
    await expectError(getArticle(deps, ana, 'news', 'missing'), 'ARTICLE_NOT_FOUND', /No article "missing" exists in the channel "news".*GET \/api\/v1\/channels\/news\/pages/);
    // Digits always mean the id, even past what an id can be.
    await expectError(getArticle(deps, ana, 'news', '1234567890123456'), 'ARTICLE_NOT_FOUND');
  });

  it('pages newest first with a cursor, and filters by status', async () => {
    for (const slug of ['a', 'b', 'c']) await upsertArticle(deps, ana, 'news', one(slug));
    await published('d');
    const first = await listArticles(deps, ana, 'news', list({ limit: 2 }));
    expect(first.pages.map((p) => p.slug)).toEqual(['d', 'c']);
    expect(first.pagination).toMatchObject({ limit: 2, has_more: true, next_cursor: expect.any(String) });
    const second = await listArticles(deps, ana, 'news', list({ limit: 2, cursor: first.pagination.next_cursor }));
    expect(second.pages.map((p) => p.slug)).toEqual(['b', 'a']);
    expect(second.pagination).toEqual({ limit: 2, has_more: false, next_cursor: null });
    expect((await listArticles(deps, ana, 'news', list({ status: 'published' }))).pages.map((p) => [p.slug, p.status])).toEqual([['d', 'published']]);
  });

  it('refuses a cursor made for another filter', async () => {
    for (const slug of ['a', 'b']) await upsertArticle(deps, ana, 'news', one(slug));
    const { pagination } = await listArticles(deps, ana, 'news', list({ limit: 1 }));
    await expectError(listArticles(deps, ana, 'news', list({ limit: 1, status: 'draft', cursor: pagination.next_cursor })), 'VALIDATION_FAILED');
  });
});

describe('the summary warning', () => {
  it('warns when a translation has no excerpt and its body no paragraph, naming the excerpt field; not otherwise', async () => {
    const bare = write({ slug: 'bare', default_language: 'en', translations: [{ language: 'en', title: 'Bare', content_markdown: '## Table\n\n| a | b |\n| - | - |\n| 1 | 2 |' }] });
    const { view } = await upsertArticle(deps, ana, 'news', bare);
    expect(view.warnings).toEqual([{ code: 'SUMMARY_WITHOUT_PARAGRAPH', field: 'translations.0.excerpt', message: expect.stringMatching(/^The "en" translation has no excerpt, and its body has no paragraph.*Send an excerpt, or begin the body with a paragraph of text\.$/) }]);
    const withExcerpt = await upsertArticle(deps, ana, 'news', write({ ...bare, translations: [{ ...bare.translations[0]!, excerpt: 'A table of readings.' }] }));
    expect(withExcerpt.view.warnings).toEqual([]);
    const put = await putTranslation(deps, ana, 'news', 'bare', 'fr', translationPutSchema.parse({ title: 'Nu', content_markdown: '- une liste' }));
    expect(put.view.warnings.map((w) => [w.code, w.field])).toEqual([['SUMMARY_WITHOUT_PARAGRAPH', 'excerpt']]);
    expect((await upsertArticle(deps, ana, 'news', one('prose'))).view.warnings).toEqual([]);
  });
});

describe('reads never write', () => {
  it('a body of another renderer is rendered for the view, and the stored row is left as it is', async () => {
    const article = await published('old-renderer', { translations: [{ language: 'en', title: 'Old', content_markdown: 'Some *emphasis*.' }] });
    await t.db.updateTable('article_translations').set({ content_html: '<p>old</p>', content_text: 'old', body_version: 'old' }).execute();
    await t.db.updateTable('revisions').set({ content_html: '<p>old</p>', content_text: 'old', body_version: 'old' }).execute();
    const rows = async () => [await translationRows(article.id), await t.db.selectFrom('revisions').selectAll().execute()];
    const before = await rows();
    const view = await getArticle(deps, ana, 'news', 'old-renderer');
    expect(view.translations[0]!.content_html).toBe('<p>Some <em>emphasis</em>.</p>');
    await listArticles(deps, ana, 'news', list());
    expect(await rows()).toEqual(before);
  });
});

describe('putTranslation', () => {
  it('adds a translation (created) and updates it (not created); its status follows the request', async () => {
    const article = await published('multi');
    const put = (title: string, status?: string) => putTranslation(deps, ana, 'news', 'multi', 'fr', translationPutSchema.parse({ title, content_markdown: 'Corps.', ...(status && { status }) }));
    const added = await put('Titre', 'published');
    expect(added.created).toBe(true);
    expect(added.view.translations.map((tr) => [tr.language, tr.status])).toEqual([['en', 'published'], ['fr', 'moderation_review']]);
    const again = await put('Titre 2');
    expect(again.created).toBe(false);
    expect(again.view.translations[1]).toMatchObject({ language: 'fr', title: 'Titre 2', status: 'moderation_review' });
    expect((await translationRows(article.id)).map((r) => r.language)).toEqual(['en', 'fr']);
  });

  it.each([
    {
      name: 'publishing one translation of an archived article',
      setup: async () => {
        await published('arch');
        await changeStatus(deps, ana, 'news', 'arch', statusChangeSchema.parse({ status: 'archived' }));
      },
      status: 'published',
      message: /The article is archived, so its "en" translation cannot be published on its own.*PATCH …\/pages\/\{page\}\/status/,
    },
    {
      name: 'scheduling a translation of an article that is not scheduled',
      setup: async () => void (await upsertArticle(deps, ana, 'news', one('arch'))),
      status: 'scheduled',
      message: /The article is not scheduled, so this translation cannot be\. Schedule the article with PATCH …\/status first\./,
    },
  ])('refuses $name, saying what to do', async ({ setup, status, message }) => {
    await setup();
    const error = await expectError(putTranslation(deps, ana, 'news', 'arch', 'en', translationPutSchema.parse({ title: 'T', content_markdown: 'B.', status })), 'VALIDATION_FAILED');
    expect((error.details as { fields: Record<string, string> }).fields.status).toMatch(message);
  });
});

describe('changeStatus and changeSettings', () => {
  it('archiving withdraws every public version and announces it in the same write', async () => {
    const article = await published('old');
    const before = (await eventsOf(article.id)).length;
    const view = await changeStatus(deps, ana, 'news', 'old', statusChangeSchema.parse({ status: 'archived' }));
    expect(view.status).toBe('archived');
    expect((await translationRows(article.id)).map((r) => [r.status, r.published_revision_id])).toEqual([['draft', null]]);
    expect((await eventsOf(article.id)).slice(before).map((e) => [e.kind, e.languages])).toEqual([['article_public_changed', ['en']]]);
  });

  it('asks which translations a status applies to when there are several, naming them', async () => {
    await upsertArticle(deps, ana, 'news', write({ slug: 'two', default_language: 'en', translations: [{ language: 'en', title: 'Two', content_markdown: 'B.' }, { language: 'de', title: 'Zwei', content_markdown: 'B.' }] }));
    const error = await expectError(changeStatus(deps, ana, 'news', 'two', statusChangeSchema.parse({ status: 'published' })), 'VALIDATION_FAILED');
    expect(error.details).toEqual({ fields: { publish_translations: expect.stringMatching(/^Required for an article with 2 translations \(de, en\): send true .* primary language "en" only\.$/) } });
    // With false, only the primary language is submitted.
    const view = await changeStatus(deps, ana, 'news', 'two', statusChangeSchema.parse({ status: 'published', publish_translations: false }));
    expect(view.translations.map((tr) => [tr.language, tr.status])).toEqual([['en', 'moderation_review'], ['de', 'draft']]);
  });

  it('changes homepage visibility with the status, and settings alone; a public article announces it', async () => {
    const article = await published('front');
    const hidden = await changeSettings(deps, ana, 'news', 'front', settingsChangeSchema.parse({ homepage_mode: 'hide' }));
    expect(hidden.homepage_mode).toBe('hide');
    expect((await eventsOf(article.id)).map((e) => e.kind)).toContain('article_homepage_changed');
    const draft = await changeStatus(deps, ana, 'news', 'front', statusChangeSchema.parse({ status: 'draft', homepage_mode: 'allow' }));
    expect(draft).toMatchObject({ status: 'draft', homepage_mode: 'allow' });
  });
});

describe('access', () => {
  /** Every operation, on article "a" of channel `channel`. */
  const operations = (channel: string) => [
    ['upsertArticle', (p: Principal) => upsertArticle(deps, p, channel, one('a'))],
    ['getArticle', (p: Principal) => getArticle(deps, p, channel, 'a')],
    ['listArticles', (p: Principal) => listArticles(deps, p, channel, list())],
    ['putTranslation', (p: Principal) => putTranslation(deps, p, channel, 'a', 'fr', translationPutSchema.parse({ title: 'T', content_markdown: 'B.' }))],
    ['changeStatus', (p: Principal) => changeStatus(deps, p, channel, 'a', statusChangeSchema.parse({ status: 'draft' }))],
    ['changeSettings', (p: Principal) => changeSettings(deps, p, channel, 'a', settingsChangeSchema.parse({ homepage_mode: 'hide' }))],
  ] as const;
  const writes = new Set(['upsertArticle', 'putTranslation', 'changeStatus', 'changeSettings']);

  it('refuses every operation to a plan without API publishing (403)', async () => {
    const rita = await authenticate(t, (await createKey(t, { account: 'rita', plan: 'reader' })).key);
    for (const [, call] of operations('news')) await expectError(call(rita), 'PLAN_NO_API_PUBLISHING', /"rita" is on the "reader" plan.*npm run admin -- account plan/);
  });

  it('refuses an unknown channel (404) and a channel the caller is no member of (403)', async () => {
    const bob = await authenticate(t, (await createKey(t, { account: 'bob' })).key);
    for (const [, call] of operations('nope')) await expectError(call(ana), 'CHANNEL_NOT_FOUND', /GET \/api\/v1\/channels/);
    for (const [, call] of operations('news')) await expectError(call(bob), 'CHANNEL_ACCESS_DENIED', /Ask its owner to invite you/);
  });

  it('lets an editor without can_write_articles read, but not write', async () => {
    await upsertArticle(deps, ana, 'news', one('a'));
    const bob = await authenticate(t, (await createKey(t, { account: 'bob' })).key);
    await inviteEditor(t, { channel: 'news', account: 'bob', write: false });
    for (const [name, call] of operations('news')) {
      if (writes.has(name)) await expectError(call(bob), 'CHANNEL_PERMISSION_DENIED', /can_write_articles/);
      else await expect(call(bob)).resolves.toBeDefined();
    }
  });

  it('keeps a channel past the owner\u2019s plan limit readable but read-only', async () => {
    // Free allows three channels: the fourth, the newest, becomes read-only after the downgrade.
    for (const slug of ['two', 'three', 'four']) await createTestChannel(t, 'ana', slug);
    await upsertArticle(deps, ana, 'four', one('a'));
    await changePlan(t, { account: 'ana', plan: 'free' });
    const free = await authenticate(t, (await createKey(t, { account: 'ana' })).key);
    // Taking things down still works (issue 40): unpublishing and hiding from the homepage.
    const takesDown = new Set(['changeStatus', 'changeSettings']);
    for (const [name, call] of operations('four')) {
      if (writes.has(name) && !takesDown.has(name)) await expectError(call(free), 'CHANNEL_READ_ONLY', /"four" is read-only.*\(3\)\. Upgrade.*Taking articles down still works/);
      else await expect(call(free)).resolves.toBeDefined();
    }
    await expectError(changeStatus(deps, free, 'four', 'a', statusChangeSchema.parse({ status: 'published' })), 'CHANNEL_READ_ONLY', /read-only/);
    await expectError(changeSettings(deps, free, 'four', 'a', settingsChangeSchema.parse({ homepage_mode: 'allow' })), 'CHANNEL_READ_ONLY', /read-only/);
    await expect(upsertArticle(deps, free, 'news', one('still-writable'))).resolves.toMatchObject({ created: true });
  });
});

describe('settleWrite', () => {
  /** A build that, when asked, removes the article's files: afterwards the output shows nothing of it. */
  function fakeBuild(articleId: number): OutputWatch & { waits: number[] } {
    const watch = {
      waits: [] as number[],
      async settle(timeoutMs: number) {
        watch.waits.push(timeoutMs);
        await recordBuiltTranslations(t.db, new Map([[articleId, {}]]));
      },
    };
    return watch;
  }

  it('with the build off, returns the view as it is', async () => {
    const { view } = await upsertArticle(deps, ana, 'news', one('plain'));
    expect(await settleWrite(deps, ana, 'news', view)).toBe(view);
  });

  it('waits for the build when a write withdrew what the output still shows, then answers what readers get', async () => {
    const article = await published('shown');
    const output = fakeBuild(article.id);
    const withBuild = { ...deps, output };
    await recordBuiltTranslations(t.db, new Map([[article.id, { en: 'hash' }]]));
    const written = await changeStatus(withBuild, ana, 'news', 'shown', statusChangeSchema.parse({ status: 'draft' }));
    // The store says draft, the files still show it: reported as readers see it.
    expect(written.status).toBe('published');
    const settled = await settleWrite(withBuild, ana, 'news', { ...written, warnings: [{ code: 'W', message: 'kept' }] });
    expect(output.waits).toEqual([WITHDRAWAL_WAIT_MS]);
    expect(settled).toMatchObject({ status: 'draft', warnings: [{ code: 'W', message: 'kept' }] });
  });

  it('does not wait when nothing withdrawn is still shown', async () => {
    const article = await published('kept');
    const output = fakeBuild(article.id);
    await recordBuiltTranslations(t.db, new Map([[article.id, { en: 'hash' }]]));
    const view = await getArticle({ ...deps, output }, ana, 'news', 'kept');
    expect(await settleWrite({ ...deps, output }, ana, 'news', view)).toBe(view);
    expect(output.waits).toEqual([]);
  });
});
