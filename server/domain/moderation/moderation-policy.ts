/**
 * Moderation behind a small interface. The default policy applies rules from
 * a config file (`moderation-rules.ts`); another policy (a classifier, a
 * human queue) implements the same interface.
 * @module
 */
import { z } from 'zod';

/** What a policy sees of one submission. */
export interface ModerationSubject {
  readonly language: string;
  readonly title: string;
  readonly excerpt: string | null;
  readonly markdown: string;
  /** The channel's slug, for link-domain rules that exempt the site itself. */
  readonly channelSlug: string;
  /** An administrator flagged the account: every submission needs a person. */
  readonly accountReviewRequired: boolean;
}

/** A policy's decision, with a reason a person can read. */
export type ModerationDecision =
  | { readonly outcome: 'pass'; readonly reason: null }
  | { readonly outcome: 'block' | 'manual'; readonly reason: string };

/** Decides on one submission. Must be deterministic for the same subject. */
export interface ModerationPolicy {
  evaluate(subject: ModerationSubject): ModerationDecision;
}

/** The rules of the default policy; every field is optional in the file. */
export const moderationRulesSchema = z
  .object({
    /** Words or phrases that block a submission (case-insensitive, whole words). */
    blocked_terms: z.array(z.string().min(1)).default([]),
    /** Link domains that block a submission (subdomains included). */
    blocked_link_domains: z.array(z.string().min(1)).default([]),
    /** More external links than this sends the submission to a person. */
    max_external_links: z.number().int().min(0).default(25),
    /** Words or phrases that send a submission to a person. */
    review_terms: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** Validated rules. */
export type ModerationRules = z.output<typeof moderationRulesSchema>;

/** Rules used when no file is configured: nothing blocked, link floods reviewed. */
export const DEFAULT_MODERATION_RULES: ModerationRules = Object.freeze(moderationRulesSchema.parse({}));

function escape(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function termPattern(terms: readonly string[]): RegExp | null {
  if (terms.length === 0) return null;
  // \p{L}/\p{N} boundaries so that whole-word matching also works outside ASCII.
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
}

/** Host names of absolute http(s) links in Markdown or raw HTML. */
export function linkHosts(markdown: string): string[] {
  const hosts: string[] = [];
  for (const match of markdown.matchAll(/https?:\/\/([^\s/?#)"'<>\]]+)/gi)) hosts.push(match[1]!.toLowerCase().replace(/:\d+$/, ''));
  return hosts;
}

/**
 * Creates the rule-based policy.
 * @example createRulePolicy({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['casino'] })
 */
export function createRulePolicy(rules: ModerationRules): ModerationPolicy {
  const blocked = termPattern(rules.blocked_terms);
  const review = termPattern(rules.review_terms);
  const blockedDomains = rules.blocked_link_domains.map((d) => d.toLowerCase().replace(/^\.+/, ''));
  return Object.freeze({
    evaluate(subject: ModerationSubject): ModerationDecision {
      const text = [subject.title, subject.excerpt ?? '', subject.markdown].join('\n');
      const term = blocked?.exec(text);
      if (term) return { outcome: 'block', reason: `blocked_term: "${term[0]}"` };
      const hosts = linkHosts(subject.markdown);
      const domain = hosts.find((h) => blockedDomains.some((d) => h === d || h.endsWith(`.${d}`)));
      if (domain) return { outcome: 'block', reason: `blocked_link_domain: ${domain}` };
      if (subject.accountReviewRequired) return { outcome: 'manual', reason: 'account_flagged_for_review' };
      if (hosts.length > rules.max_external_links) {
        return { outcome: 'manual', reason: `too_many_external_links: ${hosts.length} > ${rules.max_external_links}` };
      }
      const flagged = review?.exec(text);
      if (flagged) return { outcome: 'manual', reason: `review_term: "${flagged[0]}"` };
      return { outcome: 'pass', reason: null };
    },
  });
}
