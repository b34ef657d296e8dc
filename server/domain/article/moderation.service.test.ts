import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../admin/key-commands.ts';
import { reviewCommand } from '../../admin/lifecycle-commands.ts';
import { createTestChannel, openTestDeps, publishTestArticle, type TestDeps } from '../../../test/support/admin-deps.ts';
import { createRulePolicy, DEFAULT_MODERATION_RULES, type ModerationDecision, type ModerationPolicy, type ModerationSubject } from '../moderation/moderation-policy.ts';
import { moderateRevision } from './moderation.service.ts';

let t: TestDeps;
beforeEach(async () => {
  t = await openTestDeps();
  await createKey(t, { account: 'ana', plan: 'pro' });
  await createTestChannel(t, 'ana', 'news');
});
afterEach(async () => t.cleanup());

/** Saves a published article and returns its pending revision's id. */
async function submit(slug: string): Promise<number> {
  await publishTestArticle(t, 'ana', 'news', slug);
  return (await t.db.selectFrom('revisions').select('id').where('moderation_state', '=', 'pending').executeTakeFirstOrThrow()).id;
}

const revision = (id: number) => t.db.selectFrom('revisions').select(['moderation_state', 'moderation_reason']).where('id', '=', id).executeTakeFirstOrThrow();

/** The default rules, judged only through `evaluateAsync` (as on the body threads); `before` runs first each time. */
function asyncPolicy(before: (subject: ModerationSubject) => Promise<ModerationDecision | void> = async () => {}): ModerationPolicy & { calls: number } {
  const rules = createRulePolicy(DEFAULT_MODERATION_RULES);
  const policy = {
    calls: 0,
    evaluate: (): never => {
      throw new Error('judged on the main thread');
    },
    evaluateFields: rules.evaluateFields,
    async evaluateAsync(subject: ModerationSubject) {
      policy.calls++;
      return (await before(subject)) ?? rules.evaluate(subject);
    },
  };
  return policy;
}

describe('moderateRevision with a policy that judges off the main thread', () => {
  it('uses evaluateAsync, never evaluate', async () => {
    const id = await submit('clean');
    const policy = asyncPolicy();
    expect(await moderateRevision({ ...t, policy }, id)).toBe('passed');
    expect(policy.calls).toBe(1);
  });

  it('sends a submission judged too slowly to a person, with the reason', async () => {
    const id = await submit('slow');
    const reason = 'moderation_timeout: evaluating the rules took longer than the time limit of 10 ms (limit timeMs), so it was stopped; a person decides';
    const policy = asyncPolicy(async () => ({ outcome: 'manual', reason }));
    expect(await moderateRevision({ ...t, policy }, id)).toBe('manual_review');
    expect(await revision(id)).toEqual({ moderation_state: 'manual_review', moderation_reason: reason });
    const article = await t.db.selectFrom('articles').select('status').where('slug', '=', 'slow').executeTakeFirstOrThrow();
    expect(article.status).not.toBe('published');
  });

  it('judges again when the account was flagged while it judged', async () => {
    const id = await submit('flagged');
    const policy = asyncPolicy(async (subject) => {
      if (!subject.accountReviewRequired) await reviewCommand(t, { account: 'ana', on: true });
    });
    expect(await moderateRevision({ ...t, policy }, id)).toBe('manual_review');
    expect(policy.calls).toBe(2);
    expect(await revision(id)).toEqual({ moderation_state: 'manual_review', moderation_reason: 'account_flagged_for_review' });
  });

  it('leaves it to a person when what it judges keeps changing', async () => {
    const id = await submit('unsettled');
    let on = false;
    const policy = asyncPolicy(async () => {
      on = !on;
      await reviewCommand(t, { account: 'ana', on });
    });
    expect(await moderateRevision({ ...t, policy }, id)).toBe('manual_review');
    expect(policy.calls).toBe(3);
    expect((await revision(id)).moderation_reason).toMatch(/^moderation_unsettled: /);
  });

  it('skips a revision already decided, without judging it', async () => {
    const id = await submit('twice');
    await moderateRevision({ ...t, policy: asyncPolicy() }, id);
    const policy = asyncPolicy();
    expect(await moderateRevision({ ...t, policy }, id)).toBe('skipped');
    expect(policy.calls).toBe(0);
  });
});
