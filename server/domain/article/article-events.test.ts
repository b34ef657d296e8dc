/**
 * The effects of lifecycle events on stored translations (`article-events.ts`),
 * over a real migrated SQLite file: the revision snapshots, the moderation and
 * schedule jobs, withdrawal, and the outbox row that tells the builder, written
 * in the caller's own transaction.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoNow } from '../../clock.ts';
import { createKey } from '../../admin/key-commands.ts';
import * as articles from '../../store/article.repository.ts';
import type { ArticleRow, TranslationRow } from '../../store/article.table.ts';
import { listJobs } from '../../store/job.repository.ts';
import { listEvents, type PublicationEvent } from '../../store/publication-event.repository.ts';
import type { Executor } from '../../store/database.ts';
import { createTestChannel, openTestDeps, publishTestArticle, type TestDeps } from '../../../test/support/admin-deps.ts';
import type { LifecycleEvent } from './article-lifecycle.ts';
import {
  applyTranslationEvents,
  contentHash,
  lastOccurrences,
  MODERATION_JOB,
  SCHEDULE_JOB,
  secondaryMustWait,
  setHomepageMode,
  stateOf,
  syncArticleRecord,
  type ModerationMode,
} from './article-events.ts';

let t: TestDeps;
let channelId: number;
beforeEach(async () => {
  t = await openTestDeps();
  await createKey(t, { account: 'ana', plan: 'pro' });
  channelId = (await createTestChannel(t, 'ana', 'news')).id;
});
afterEach(async () => t.cleanup());

const now = () => isoNow(t.clock);

/** The article and its translation in `language`, as stored now. */
async function load(db: Executor, slug: string, language = 'en'): Promise<{ article: ArticleRow; row: TranslationRow }> {
  const article = (await articles.findArticleBySlug(db, channelId, slug))!;
  const row = (await articles.listTranslations(db, [article.id])).find((r) => r.language === language)!;
  return { article, row };
}

/** Applies `events` to one translation in a transaction of its own. */
async function apply(slug: string, events: LifecycleEvent[], mode: ModerationMode = 'queue', language = 'en') {
  return t.db.transaction().execute(async (trx) => {
    const { article, row } = await load(trx, slug, language);
    return applyTranslationEvents(trx, { now: now(), mode }, article, row, events);
  });
}

const revisionsOf = (translationId: number) => t.db.selectFrom('revisions').selectAll().where('translation_id', '=', translationId).orderBy('id').execute();

/** Outbox rows about one article (channel creation writes one of its own first). */
async function eventsOf(articleId: number): Promise<PublicationEvent[]> {
  return (await listEvents(t.db)).filter((e) => e.articleId === articleId);
}

/** A draft one-language article, never submitted: no revision, no job, no event. */
async function draft(slug: string): Promise<ArticleRow> {
  return publishTestArticle(t, 'ana', 'news', slug, { status: 'draft' });
}

/** A published article whose first revision passed (trusted), its record in line: it has a public version. */
async function published(slug: string): Promise<ArticleRow> {
  await draft(slug);
  return t.db.transaction().execute(async (trx) => {
    const { article, row } = await load(trx, slug);
    const applied = await applyTranslationEvents(trx, { now: now(), mode: 'trusted' }, article, row, [{ type: 'publish' }]);
    return syncArticleRecord(trx, now(), article, applied, false);
  });
}

describe('contentHash', () => {
  const base = { title: 'T', excerpt: null, content_markdown: 'Body.', seo_title: null, seo_description: null };

  it.each([['title', 'U'], ['excerpt', 'E'], ['content_markdown', 'Other.'], ['seo_title', 'S'], ['seo_description', 'D']])(
    'changes with %s, which a revision snapshots',
    (field, value) => {
      expect(contentHash({ ...base, [field]: value })).not.toBe(contentHash(base));
    },
  );

  it('ignores what a revision does not snapshot, and tells a field from its neighbour', () => {
    expect(contentHash({ ...base, status: 'published' } as typeof base)).toBe(contentHash(base));
    // Fields are serialised apart, so moving text from one to the next is a change.
    expect(contentHash({ ...base, title: 'ab', excerpt: null })).not.toBe(contentHash({ ...base, title: 'a', excerpt: 'b' }));
  });
});

describe('lastOccurrences and secondaryMustWait', () => {
  it('keeps each effect once, where it last occurs', () => {
    expect(lastOccurrences(['moderate', 'withdraw', 'moderate'])).toEqual(['withdraw', 'moderate']);
    expect(lastOccurrences([])).toEqual([]);
  });

  it.each([
    ['fr', 'draft', true],
    ['fr', 'moderation_review', true],
    ['fr', 'published', false],
    ['fr', 'scheduled', false],
    // The primary language itself never waits for itself.
    ['en', 'draft', false],
  ] as const)('a %s translation under a %s primary must wait: %s', (language, primaryStatus, expected) => {
    const article = { default_language: 'en' } as ArticleRow;
    expect(secondaryMustWait(article, language, { status: primaryStatus } as TranslationRow)).toBe(expected);
  });
});

describe('applyTranslationEvents', () => {
  it('publishing a draft snapshots a pending revision and queues its moderation, but changes nothing public yet', async () => {
    const article = await draft('first');
    const applied = await apply('first', [{ type: 'publish' }]);
    expect(applied.effects).toEqual(['moderate']);
    expect(applied.moderation).toBe('pending');
    const { row } = await load(t.db, 'first');
    const [revision] = await revisionsOf(row.id);
    expect(revision).toMatchObject({ number: 1, title: 'first', content_markdown: 'Body.\n', moderation_state: 'pending', decided_at: null, content_hash: contentHash(row) });
    expect(row).toMatchObject({ status: 'moderation_review', current_revision_id: revision!.id, published_revision_id: null });
    const jobs = await listJobs(t.db);
    expect(jobs.map((j) => [j.kind, JSON.parse(j.payload)])).toEqual([[MODERATION_JOB, { revisionId: revision!.id }]]);
    // Readers see nothing new, so the builder is not told.
    expect(await eventsOf(article.id)).toEqual([]);
  });

  it('a trusted source passes at once: the revision is public, no job, and the builder is told', async () => {
    const article = await draft('trusted');
    const applied = await apply('trusted', [{ type: 'publish' }], 'trusted');
    expect(applied.effects).toEqual(['moderate', 'make_public']);
    const { row } = await load(t.db, 'trusted');
    const [revision] = await revisionsOf(row.id);
    expect(revision).toMatchObject({ moderation_state: 'passed', moderation_reason: 'trusted_source', decided_at: now() });
    expect(row).toMatchObject({ status: 'published', published_revision_id: revision!.id, published_at: now() });
    expect(await listJobs(t.db)).toEqual([]);
    expect((await eventsOf(article.id)).map((e) => [e.kind, e.languages])).toEqual([['article_public_changed', ['en']]]);
  });

  it('writes the revision, the job and the outbox row in the caller\u2019s transaction: a rollback leaves none', async () => {
    const article = await draft('rolled-back');
    const { row } = await load(t.db, 'rolled-back');
    const boom = new Error('rolled back on purpose');
    await expect(
      t.db.transaction().execute(async (trx) => {
        const fresh = await load(trx, 'rolled-back');
        await applyTranslationEvents(trx, { now: now(), mode: 'trusted' }, fresh.article, fresh.row, [{ type: 'publish' }]);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await revisionsOf(row.id)).toEqual([]);
    expect(await eventsOf(article.id)).toEqual([]);
    expect((await load(t.db, 'rolled-back')).row.status).toBe('draft');
  });

  it('moderation passing a pending first submission makes it public and marks the revision decided', async () => {
    const article = await draft('pass');
    await apply('pass', [{ type: 'publish' }]);
    t.clock.advance(60_000);
    const applied = await apply('pass', [{ type: 'moderation_pass' }]);
    expect(applied.effects).toEqual(['make_public']);
    const { row } = await load(t.db, 'pass');
    expect(await revisionsOf(row.id)).toMatchObject([{ id: row.published_revision_id, moderation_state: 'passed', decided_at: now() }]);
    expect(row).toMatchObject({ status: 'published', published_at: now() });
    expect(await eventsOf(article.id)).toHaveLength(1);
  });

  it('unpublishing withdraws the public version and supersedes a revision still waiting', async () => {
    const article = await published('gone');
    await t.db.transaction().execute(async (trx) => {
      // A new text waits for moderation while the first one is public.
      const { row } = await load(trx, 'gone');
      await articles.updateTranslation(trx, row.id, { title: 'Second' });
    });
    await apply('gone', [{ type: 'revise' }]);
    const before = await eventsOf(article.id);
    const applied = await apply('gone', [{ type: 'save_draft' }]);
    expect(applied.effects).toEqual(['withdraw']);
    const { row } = await load(t.db, 'gone');
    expect(row).toMatchObject({ status: 'draft', published_revision_id: null, published_at: null });
    expect((await revisionsOf(row.id)).map((r) => r.moderation_state)).toEqual(['passed', 'superseded']);
    const after = await eventsOf(article.id);
    expect(after.slice(before.length).map((e) => e.kind)).toEqual(['article_public_changed']);
  });

  it('a refused revision of published content is dropped and the translation goes back to the public text', async () => {
    const article = await published('refused');
    await t.db.transaction().execute(async (trx) => {
      const { row } = await load(trx, 'refused');
      await articles.updateTranslation(trx, row.id, { title: 'Refused title', content_markdown: 'Bad.' });
    });
    await apply('refused', [{ type: 'revise' }]);
    const events = (await eventsOf(article.id)).length;
    const applied = await apply('refused', [{ type: 'moderation_block' }]);
    expect(applied).toMatchObject({ effects: ['discard_pending_revision'], moderation: 'blocked' });
    const { row } = await load(t.db, 'refused');
    const [first, second] = await revisionsOf(row.id);
    expect(second).toMatchObject({ title: 'Refused title', moderation_state: 'blocked', decided_at: now() });
    // Readers keep the first version; the API then shows it, not the refused text.
    expect(row).toMatchObject({ status: 'published', title: 'refused', content_markdown: 'Body.\n', current_revision_id: first!.id, published_revision_id: first!.id });
    expect(await eventsOf(article.id)).toHaveLength(events);
  });

  it('a trusted schedule for later arms the schedule job at that time and shows nothing yet', async () => {
    const article = await draft('later');
    const at = '2026-11-23T08:00:00.000Z';
    const applied = await apply('later', [{ type: 'schedule', at }], 'trusted');
    expect(applied.effects).toEqual(['moderate', 'arm_schedule']);
    const { row } = await load(t.db, 'later');
    expect(row).toMatchObject({ status: 'scheduled', scheduled_at: at, published_revision_id: null });
    const jobs = await listJobs(t.db);
    expect(jobs.map((j) => [j.kind, JSON.parse(j.payload), j.run_at])).toEqual([[SCHEDULE_JOB, { articleId: article.id }, at]]);
    expect(await eventsOf(article.id)).toEqual([]);
  });

  it('scheduling published content withdraws it before snapshotting the new submission', async () => {
    const article = await published('resched');
    const applied = await apply('resched', [{ type: 'schedule', at: '2026-12-01T00:00:00.000Z' }]);
    expect(applied.effects).toEqual(['withdraw', 'moderate']);
    const { row } = await load(t.db, 'resched');
    const revisions = await revisionsOf(row.id);
    // The new submission is the current one and still pending: the withdrawal did not supersede it.
    expect(revisions.map((r) => r.moderation_state)).toEqual(['passed', 'pending']);
    expect(row).toMatchObject({ status: 'moderation_review', current_revision_id: revisions[1]!.id, published_revision_id: null });
    expect((await eventsOf(article.id)).length).toBe(2);
  });

  it.each<[string, LifecycleEvent]>([
    ['moderation passing a draft', { type: 'moderation_pass' }],
    ['a schedule falling due on a draft', { type: 'schedule_due', schedulingAllowed: true }],
    ['revising a draft', { type: 'revise' }],
  ])('%s does nothing: no revision, no job, no event', async (_name, event) => {
    const article = await draft('idle');
    const applied = await apply('idle', [event]);
    expect(applied.effects).toEqual([]);
    const { row } = await load(t.db, 'idle');
    expect(row.status).toBe('draft');
    expect(await revisionsOf(row.id)).toEqual([]);
    expect(await listJobs(t.db)).toEqual([]);
    expect(await eventsOf(article.id)).toEqual([]);
  });
});

describe('stateOf', () => {
  it('reports a pending revision only while published content has a newer submission waiting', async () => {
    await published('state');
    let { article, row } = await load(t.db, 'state');
    expect(await stateOf(t.db, row, article)).toEqual({ status: 'published', scheduledAt: null, scheduledPaused: false, hasPublicVersion: true, pendingRevision: false });
    await t.db.transaction().execute(async (trx) => articles.updateTranslation(trx, row.id, { title: 'Newer' }));
    await apply('state', [{ type: 'revise' }]);
    ({ article, row } = await load(t.db, 'state'));
    expect(await stateOf(t.db, row, article)).toMatchObject({ status: 'published', pendingRevision: true, hasPublicVersion: true });
  });
});

describe('syncArticleRecord', () => {
  it.each([
    { primary: 'published', archived: false, status: 'published' },
    { primary: 'moderation_blocked', archived: false, status: 'draft' },
    { primary: 'moderation_review', archived: false, status: 'moderation_review' },
    { primary: 'published', archived: true, status: 'archived' },
  ] as const)('a $primary primary (archived: $archived) makes the article $status', async ({ primary, archived, status }) => {
    await published('sync');
    const { article, row } = await load(t.db, 'sync');
    const next = await t.db.transaction().execute((trx) => syncArticleRecord(trx, now(), article, { ...row, status: primary }, archived));
    expect(next.status).toBe(status);
    expect((await load(t.db, 'sync')).article.status).toBe(status);
  });

  it('keeps the first publication time, and clears it once nothing is public (unless archived)', async () => {
    await published('times');
    const first = now();
    t.clock.advance(3_600_000);
    const { article, row } = await load(t.db, 'times');
    const synced = await t.db.transaction().execute((trx) => syncArticleRecord(trx, now(), { ...article, published_at: first }, row, false));
    expect(synced.published_at).toBe(first);
    const withdrawn = { ...row, status: 'draft' as const, published_revision_id: null };
    expect((await t.db.transaction().execute((trx) => syncArticleRecord(trx, now(), synced, withdrawn, false))).published_at).toBeNull();
    expect((await t.db.transaction().execute((trx) => syncArticleRecord(trx, now(), synced, withdrawn, true))).published_at).toBe(first);
  });

  it('releases a secondary that passed moderation while it waited for the primary', async () => {
    // Both submitted together; the secondary's revision passed first and waits in moderation_review.
    const article = await publishTestArticle(t, 'ana', 'news', 'pair', {
      translations: [
        { language: 'en', title: 'Pair', content_markdown: 'Body.' },
        { language: 'fr', title: 'Paire', content_markdown: 'Corps.' },
      ],
    });
    const fr = (await load(t.db, 'pair', 'fr')).row;
    await t.db.transaction().execute((trx) => articles.updateRevision(trx, fr.current_revision_id!, { moderation_state: 'passed', decided_at: now() }));
    expect((await load(t.db, 'pair', 'fr')).row.status).toBe('moderation_review');
    // The primary passes: the article record follows it and the waiting secondary goes out with it.
    await t.db.transaction().execute(async (trx) => {
      const { article: a, row } = await load(trx, 'pair');
      const applied = await applyTranslationEvents(trx, { now: now(), mode: 'queue' }, a, row, [{ type: 'moderation_pass' }]);
      await syncArticleRecord(trx, now(), a, applied, false);
    });
    expect((await load(t.db, 'pair', 'fr')).row).toMatchObject({ status: 'published', published_revision_id: fr.current_revision_id });
    expect((await load(t.db, 'pair')).article).toMatchObject({ status: 'published', moderation: 'passed' });
    expect((await eventsOf(article.id)).flatMap((e) => e.languages).sort()).toEqual(['en', 'fr']);
  });
});

describe('setHomepageMode', () => {
  it('does nothing when the mode is already set', async () => {
    const article = await published('same');
    const { article: stored } = await load(t.db, 'same');
    const result = await t.db.transaction().execute((trx) => setHomepageMode(trx, now(), stored, stored.homepage_mode));
    expect(result).toBe(stored);
    expect((await eventsOf(article.id)).map((e) => e.kind)).not.toContain('article_homepage_changed');
  });

  it.each([
    { name: 'a public article tells the builder', make: published, status: undefined, told: true },
    { name: 'a draft changes silently', make: draft, status: undefined, told: false },
    { name: 'an archived article changes silently', make: published, status: 'archived' as const, told: false },
  ])('$name', async ({ make, status, told }) => {
    const article = await make('home');
    let { article: stored } = await load(t.db, 'home');
    if (status) stored = { ...stored, status };
    t.clock.advance(1_000);
    const result = await t.db.transaction().execute((trx) => setHomepageMode(trx, now(), stored, 'hide'));
    expect(result).toMatchObject({ homepage_mode: 'hide', updated_at: now() });
    expect((await load(t.db, 'home')).article.homepage_mode).toBe('hide');
    const kinds = (await eventsOf(article.id)).map((e) => e.kind);
    expect(kinds.includes('article_homepage_changed')).toBe(told);
  });
});
