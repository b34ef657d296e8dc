import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moderateRevision } from '../domain/article/moderation.service.ts';
import { createRulePolicy, DEFAULT_MODERATION_RULES } from '../domain/moderation/moderation-policy.ts';
import { insertJob } from '../store/job.repository.ts';
import { listEvents } from '../store/publication-event.repository.ts';
import { changePlan } from './account-commands.ts';
import { createKey } from './key-commands.ts';
import { decideModeration, homepageCommand, listJobsCommand, listModeration, retryJobCommand, reviewCommand } from './lifecycle-commands.ts';
import { createTestChannel, openTestDeps, publishTestArticle, type TestDeps } from '../../test/support/admin-deps.ts';

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
  await createKey(t, { account: 'ana', plan: 'pro' });
  await createTestChannel(t, 'ana', 'news');
});
afterEach(async () => t.cleanup());

async function publish(slug: string, extra: Record<string, unknown> = {}) {
  await publishTestArticle(t, 'ana', 'news', slug, extra);
  const policy = createRulePolicy(DEFAULT_MODERATION_RULES);
  const revisions = await t.db.selectFrom('revisions').select('id').where('moderation_state', '=', 'pending').execute();
  for (const r of revisions) await moderateRevision({ ...t, policy }, r.id);
}

describe('moderation commands', () => {
  it('lists what waits for a person and approves it', async () => {
    await reviewCommand(t, { account: 'ana', on: true });
    await publish('waiting');
    expect((await listModeration(t)).stdout).toMatch(/news\s+waiting\s+en\s+waiting\s+account_flagged_for_review/);
    expect((await decideModeration(t, { channel: 'news', article: 'waiting', language: 'en', outcome: 'pass' })).stdout).toBe('Approved news/waiting (en).\n');
    const article = await t.db.selectFrom('articles').selectAll().where('slug', '=', 'waiting').executeTakeFirstOrThrow();
    expect(article.status).toBe('published');
    expect((await listModeration(t)).stdout).toBe('Nothing waits for manual review.\n');
  });

  it('blocks with a note, and refuses what does not wait', async () => {
    await reviewCommand(t, { account: 'ana', on: true });
    await publish('bad');
    await decideModeration(t, { channel: 'news', article: 'bad', language: 'en', outcome: 'block', note: 'spam' });
    const revision = await t.db.selectFrom('revisions').selectAll().executeTakeFirstOrThrow();
    expect(revision).toMatchObject({ moderation_state: 'blocked', moderation_reason: 'manual: spam' });
    await expect(decideModeration(t, { channel: 'news', article: 'bad', language: 'en', outcome: 'pass' })).rejects.toThrow(/Nothing waits for manual review/);
  });
});

describe('jobs commands', () => {
  it('lists jobs with counts and requeues a parked one', async () => {
    const job = await insertJob(t.db, { kind: 'x', payload: { a: 1 }, runAt: '2026-11-22T12:00:00.000Z', now: '2026-11-22T12:00:00.000Z' });
    await t.db.updateTable('jobs').set({ state: 'parked', attempts: 5, last_error: 'Error: boom\n    at stack' }).where('id', '=', job.id).execute();
    const listed = (await listJobsCommand(t, { state: 'parked' })).stdout;
    expect(listed).toContain('Jobs: 0 pending, 0 running, 0 done, 1 parked.');
    expect(listed).toMatch(/x\s+parked\s+5\/5.*Error: boom/);
    expect(listed).not.toContain('at stack');
    expect((await retryJobCommand(t, String(job.id))).stdout).toBe(`Job ${job.id} is queued again.\n`);
    await expect(retryJobCommand(t, String(job.id))).rejects.toThrow(/No parked job/);
    await expect(listJobsCommand(t, { state: 'stuck' })).rejects.toThrow(/Choose one of/);
  });
});

describe('homepage and plans', () => {
  it('excludes a channel and an article from the homepage, with a publication event', async () => {
    await publish('front');
    const before = (await listEvents(t.db)).length;
    expect((await homepageCommand(t, { channel: 'news', excluded: true })).stdout).toBe('Channel news is now excluded from the homepage.\n');
    expect((await homepageCommand(t, { channel: 'news', excluded: true })).stdout).toContain('was already');
    expect((await homepageCommand(t, { channel: 'news', article: 'front', excluded: true })).stdout).toContain('Article news/front');
    const events = (await listEvents(t.db)).slice(before).map((e) => e.kind);
    expect(events).toEqual(['channel_changed', 'article_homepage_changed']);
  });

  it('a downgrade pauses scheduled articles and says so', async () => {
    await publish('later', { status: 'scheduled', scheduled_at: '2026-11-23T12:00:00.000Z' });
    const result = await changePlan(t, { account: 'ana', plan: 'free' });
    expect(result.stderr).toContain('1 scheduled article of "ana" paused');
    const article = await t.db.selectFrom('articles').selectAll().where('slug', '=', 'later').executeTakeFirstOrThrow();
    expect(article).toMatchObject({ status: 'scheduled', scheduled_paused: 1, scheduled_pause_reason: 'account_plan' });
  });
});
