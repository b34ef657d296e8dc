/**
 * Moderation behind a small interface. The default policy applies rules from
 * a config file (`moderation-rules.ts`); another policy (a classifier, a
 * human queue) implements the same interface.
 * @module
 */
import { z } from 'zod';
import { hostMatches, linkHost, normaliseHost, normaliseText, withoutMarkers } from './normalise.ts';
import { markdownPublicText } from './public-text.ts';

/** What a policy sees of one submission: every field of it that readers get. */
export interface ModerationSubject {
  readonly language: string;
  readonly title: string;
  readonly excerpt: string | null;
  readonly markdown: string;
  /** `<title>`, `og:title`, JSON-LD headline when set. */
  readonly seoTitle: string | null;
  /** Meta and `og:` description when set. */
  readonly seoDescription: string | null;
  /** The article's byline, shown beside every translation. */
  readonly authorName: string | null;
  /** The channel's slug, for link-domain rules that exempt the site itself. */
  readonly channelSlug: string;
  /** An administrator flagged the account: every submission needs a person. */
  readonly accountReviewRequired: boolean;
}

/** One public text judged on its own, named as in the request (`translations.0.title`). */
export interface ModerationField {
  readonly name: string;
  readonly value: string | null | undefined;
}

/** A policy's decision, with a reason a person can read. */
export type ModerationDecision =
  | { readonly outcome: 'pass'; readonly reason: null }
  | { readonly outcome: 'block' | 'manual'; readonly reason: string };

/** Decides on one submission. Must be deterministic for the same subject. */
export interface ModerationPolicy {
  /** Decides in the calling thread: tests, tools, and a service without body threads. */
  evaluate(subject: ModerationSubject): ModerationDecision;
  /**
   * Decides off the calling thread, when the policy can (the rule policy on
   * the body threads, `server/bodies/threaded-moderation.ts`). The moderation
   * job prefers it: judging a large body is seconds of parsing. A policy
   * without it (a classifier, say) is run with `evaluate`.
   */
  evaluateAsync?(subject: ModerationSubject): Promise<ModerationDecision>;
  /**
   * Judges texts that go public without a revision to hold them (channel
   * title and description, the byline) and names the field a decision is
   * about (for a link flood, the first field with a link; null on a pass).
   */
  evaluateFields(fields: readonly ModerationField[]): ModerationDecision & { readonly field: string | null };
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
  // Terms are compared in the same normal form as the text; one that normalises to nothing matches nothing.
  const normalised = [...new Set(terms.map(normaliseText).filter((t) => t !== ''))];
  if (normalised.length === 0) return null;
  // Longest first, so that the reported term is the most specific one.
  normalised.sort((a, b) => b.length - a.length);
  // Letter/number/mark boundaries so that whole-word matching also works outside ASCII.
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${normalised.map(escape).join('|')})(?![\\p{L}\\p{N}\\p{M}])`, 'u');
}

/** A field reduced to the texts terms are matched against and the hosts its links lead to. */
interface JudgedField {
  readonly name: string;
  readonly texts: readonly string[];
  readonly hosts: readonly string[];
}

function judgeable(field: ModerationField): JudgedField | null {
  if (field.value === null || field.value === undefined || field.value === '') return null;
  const reduced = markdownPublicText(field.value);
  const text = normaliseText(reduced.text);
  return {
    name: field.name,
    // What readers see, the same with formatting markers gone, comments, and the source itself (the public .md carries it).
    texts: [text, withoutMarkers(text), ...reduced.hidden.map(normaliseText), normaliseText(field.value)],
    hosts: reduced.links.map(linkHost).filter((h): h is string => h !== null),
  };
}

/**
 * Host names of every link target in Markdown or raw HTML, in normal form
 * (see {@link linkHost}); relative targets are left out.
 */
export function linkHosts(markdown: string): string[] {
  return markdownPublicText(markdown)
    .links.map(linkHost)
    .filter((h): h is string => h !== null);
}

/**
 * Creates the rule-based policy. Text is matched in normal form (see
 * `normalise.ts`), whole words only; link targets by their resolved host.
 * @example createRulePolicy({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['casino'] })
 */
export function createRulePolicy(rules: ModerationRules): ModerationPolicy {
  const blocked = termPattern(rules.blocked_terms);
  const review = termPattern(rules.review_terms);
  const blockedDomains = rules.blocked_link_domains.map(normaliseHost).filter((d): d is string => d !== null);

  const firstTerm = (pattern: RegExp | null, fields: readonly JudgedField[]) => {
    if (!pattern) return null;
    for (const field of fields) {
      for (const text of field.texts) {
        const match = pattern.exec(text);
        if (match) return { term: match[0], field: field.name };
      }
    }
    return null;
  };

  const judge = (input: readonly ModerationField[], accountReviewRequired: boolean): ModerationDecision & { field: string | null } => {
    const fields = input.map(judgeable).filter((f): f is JudgedField => f !== null);
    const term = firstTerm(blocked, fields);
    if (term) return { outcome: 'block', reason: `blocked_term: "${term.term}" in ${term.field}`, field: term.field };
    for (const field of fields) {
      const domain = field.hosts.find((h) => blockedDomains.some((d) => hostMatches(h, d)));
      if (domain) return { outcome: 'block', reason: `blocked_link_domain: ${domain} in ${field.name}`, field: field.name };
    }
    if (accountReviewRequired) return { outcome: 'manual', reason: 'account_flagged_for_review', field: null };
    const links = fields.reduce((n, f) => n + f.hosts.length, 0);
    if (links > rules.max_external_links) {
      const first = fields.find((f) => f.hosts.length > 0)!;
      return { outcome: 'manual', reason: `too_many_external_links: ${links} > ${rules.max_external_links}`, field: first.name };
    }
    const flagged = firstTerm(review, fields);
    if (flagged) return { outcome: 'manual', reason: `review_term: "${flagged.term}" in ${flagged.field}`, field: flagged.field };
    return { outcome: 'pass', reason: null, field: null };
  };

  return Object.freeze({
    evaluate(subject: ModerationSubject): ModerationDecision {
      const { outcome, reason } = judge(
        [
          { name: 'title', value: subject.title },
          { name: 'excerpt', value: subject.excerpt },
          { name: 'seo_title', value: subject.seoTitle },
          { name: 'seo_description', value: subject.seoDescription },
          { name: 'author.name', value: subject.authorName },
          { name: 'content_markdown', value: subject.markdown },
        ],
        subject.accountReviewRequired,
      );
      return outcome === 'pass' ? { outcome, reason: null } : { outcome, reason: reason! };
    },
    evaluateFields(fields: readonly ModerationField[]) {
      return judge(fields, false);
    },
  });
}
