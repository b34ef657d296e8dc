import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRulePolicy, DEFAULT_MODERATION_RULES } from '../domain/moderation/moderation-policy.ts';
import { CASE_RULES, DECISION_CASES, subject } from '../../test/support/moderation-cases.ts';
import { createBodyPool, type BodyPool } from './body-pool.ts';
import { rulePolicyFor } from './moderation-task.ts';
import { createThreadedRulePolicy } from './threaded-moderation.ts';

// Within the body limits, but about a second of parsing for the policy.
const SLOW_MARKDOWN = `${'word *x* and [y](https://ok.example/) '.repeat(10).trim()}\n\n`.repeat(1_000);

describe('moderation on the body threads', () => {
  let pool: BodyPool;
  beforeAll(() => {
    pool = createBodyPool({ threads: 1, timeLimitMs: 30_000 });
  });
  afterAll(async () => pool.close());

  const inThread = createRulePolicy(CASE_RULES);

  it.each(DECISION_CASES)('decides as in the calling thread: %s', async (_name, input) => {
    expect(await pool.moderate(CASE_RULES, input)).toEqual(inThread.evaluate(input));
  });

  it('judges with the rules each job carries', async () => {
    const input = subject({ markdown: 'A new term: zzother.' });
    expect((await pool.moderate(CASE_RULES, input)).outcome).toBe('pass');
    expect(await pool.moderate({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['zzother'] }, input)).toEqual({
      outcome: 'block',
      reason: 'blocked_term: "zzother" in content_markdown',
    });
  });

  it('shares its threads with bodies', async () => {
    const [body, decision] = await Promise.all([pool.process({ title: 'T', contentMarkdown: 'spamword' }), pool.moderate(CASE_RULES, subject({ markdown: 'spamword' }))]);
    expect(body.html).toBe('<p>spamword</p>');
    expect(decision.outcome).toBe('block');
  });

  it('is what the threaded policy evaluates asynchronously, and in the calling thread otherwise', async () => {
    const policy = createThreadedRulePolicy(CASE_RULES, pool);
    const input = subject({ excerpt: 'About the lawsuit' });
    expect(await policy.evaluateAsync!(input)).toEqual(inThread.evaluate(input));
    expect(policy.evaluate(input)).toEqual(inThread.evaluate(input));
    expect(policy.evaluateFields([{ name: 'title', value: 'spamword' }])).toMatchObject({ outcome: 'block', field: 'title' });
  });
});

describe('moderation over the time limit', () => {
  it('sends the submission to a person with the reason, and the thread is replaced', async () => {
    const pool = createBodyPool({ threads: 1, timeLimitMs: 200 });
    try {
      const slow = pool.moderate(CASE_RULES, subject({ markdown: SLOW_MARKDOWN }));
      // Queued behind it: its own time limit starts when a thread takes it.
      const next = pool.moderate(CASE_RULES, subject({ markdown: 'spamword' }));
      const decision = await slow;
      expect(decision.outcome).toBe('manual');
      expect(decision.reason).toMatch(/^moderation_timeout: evaluating the rules took longer than the time limit of 200 ms .*a person decides$/);
      expect((await next).outcome).toBe('block');
      expect(pool.started).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('rejects once the pool is closed', async () => {
    const pool = createBodyPool({ threads: 1, timeLimitMs: 30_000 });
    await pool.close();
    await expect(pool.moderate(CASE_RULES, subject())).rejects.toThrow(/closed/);
  });
});

describe('rulePolicyFor', () => {
  it('builds a policy once per distinct rule set', () => {
    const a = rulePolicyFor(CASE_RULES);
    expect(rulePolicyFor({ ...CASE_RULES })).toBe(a);
    expect(rulePolicyFor(DEFAULT_MODERATION_RULES)).not.toBe(a);
  });
});
