/**
 * The rule policy with its submissions judged on the body threads.
 *
 * Judging a submission parses each public field's Markdown with raw HTML,
 * seconds for a large body; on the main thread that stalls every request.
 * `evaluateAsync` (what the moderation job uses) hands the work to the body
 * pool under its time limit; `evaluate` and `evaluateFields` stay in this
 * thread for the short texts judged in requests (channel title and
 * description, the byline: a few hundred characters each).
 * @module
 */
import { createRulePolicy, type ModerationPolicy, type ModerationRules, type ModerationSubject } from '../domain/moderation/moderation-policy.ts';
import type { BodyPool } from './body-pool.ts';

/**
 * Creates the rule policy for `rules` whose `evaluateAsync` runs on `pool`.
 * Over the pool's time limit the decision is `manual` (`moderation_timeout: …`).
 */
export function createThreadedRulePolicy(rules: ModerationRules, pool: Pick<BodyPool, 'moderate'>): ModerationPolicy {
  const inThread = createRulePolicy(rules);
  return Object.freeze({
    evaluate: inThread.evaluate,
    evaluateFields: inThread.evaluateFields,
    evaluateAsync: (subject: ModerationSubject) => pool.moderate(rules, subject),
  });
}
