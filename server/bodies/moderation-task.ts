/**
 * The moderation job of a body thread: the rule policy built from the rules
 * the job carries, evaluated on one submission.
 *
 * Rules travel with every job (they are a few kilobytes at most) so a thread
 * needs no setup and a replacement thread is ready at once; building the
 * policy compiles its term patterns, so each thread keeps the policies of the
 * last few rule sets it saw, keyed by their serialisation.
 * @module
 */
import { createRulePolicy, type ModerationDecision, type ModerationPolicy, type ModerationRules, type ModerationSubject } from '../domain/moderation/moderation-policy.ts';

// A service has one rule set; a few more cover tests that start several services in one process.
const CACHE_SIZE = 4;
const policies = new Map<string, ModerationPolicy>();

/** The rule policy for `rules`, built once per distinct rule set (by serialisation). */
export function rulePolicyFor(rules: ModerationRules): ModerationPolicy {
  const key = JSON.stringify(rules);
  let policy = policies.get(key);
  if (policy) {
    // Most recently used last, so the oldest is the one evicted.
    policies.delete(key);
  } else {
    policy = createRulePolicy(rules);
    if (policies.size >= CACHE_SIZE) policies.delete(policies.keys().next().value!);
  }
  policies.set(key, policy);
  return policy;
}

/** Evaluates the rule policy for `rules` on `subject` in this thread. */
export function moderateInPlace(rules: ModerationRules, subject: ModerationSubject): ModerationDecision {
  return rulePolicyFor(rules).evaluate(subject);
}
