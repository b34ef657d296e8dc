/**
 * The decision table of the rule policy, shared by its in-thread tests
 * (`moderation-policy.test.ts`) and the body threads' (`server/bodies/`),
 * which must decide exactly alike. Test data only.
 * @module
 */
import { DEFAULT_MODERATION_RULES, type ModerationRules, type ModerationSubject } from '../../server/domain/moderation/moderation-policy.ts';

/** A harmless submission, with `over` replacing some of its fields. */
export const subject = (over: Partial<ModerationSubject> = {}): ModerationSubject => ({
  language: 'en',
  title: 'A title',
  excerpt: null,
  markdown: 'Plain text.',
  seoTitle: null,
  seoDescription: null,
  authorName: null,
  channelSlug: 'news',
  accountReviewRequired: false,
  ...over,
});

/** The rules the table is decided with. */
export const CASE_RULES: ModerationRules = {
  ...DEFAULT_MODERATION_RULES,
  blocked_terms: ['casino bonus', 'spamword', 'zzblockmarker', 'ass'],
  blocked_link_domains: ['bad.example', 'spam.example'],
  review_terms: ['lawsuit'],
  max_external_links: 2,
};

/** Name, submission, expected outcome and a pattern of the reason (null on a pass). */
export const DECISION_CASES: ReadonlyArray<readonly [string, ModerationSubject, 'pass' | 'block' | 'manual', RegExp | null]> = [
    ['innocuous content passes', subject(), 'pass', null],
    ['a blocked term in the body blocks', subject({ markdown: 'Get your CASINO BONUS now' }), 'block', /blocked_term.*content_markdown/],
    ['a blocked term in the title blocks', subject({ title: 'spamword' }), 'block', /blocked_term/],
    ['a term inside another word does not block', subject({ markdown: 'nonspamwordy' }), 'pass', null],
    ['a blocked link domain blocks, subdomains too', subject({ markdown: '[x](https://www.bad.example/page)' }), 'block', /bad\.example/],
    ['a flagged account goes to a person', subject({ accountReviewRequired: true }), 'manual', /account_flagged/],
    ['too many external links go to a person', subject({ markdown: 'https://a.example https://b.example https://c.example' }), 'manual', /too_many_external_links/],
    ['links in other fields count too', subject({ seoDescription: 'https://a.example', markdown: '[a](https://b.example) [c](//c.example/)' }), 'manual', /too_many_external_links: 3/],
    ['relative links are not external', subject({ markdown: '[a](/x) [b](../y) [c](#z) [d](page.html)' }), 'pass', null],
    ['a review term goes to a person', subject({ excerpt: 'About the lawsuit' }), 'manual', /review_term.*excerpt/],
    ['a blocked term wins over manual review', subject({ accountReviewRequired: true, markdown: 'spamword' }), 'block', /blocked_term/],
    // Every public field of a submission.
    ['a blocked term in seo_title blocks', subject({ seoTitle: 'Best casino bonus' }), 'block', /blocked_term: "casino bonus" in seo_title/],
    ['a blocked term in seo_description blocks', subject({ seoDescription: 'spamword' }), 'block', /in seo_description/],
    ['a blocked term in the byline blocks', subject({ authorName: 'Spamword Inc.' }), 'block', /in author\.name/],
    ['a blocked term in image alt text blocks', subject({ markdown: '![casino bonus](/media/x.png)' }), 'block', /blocked_term/],
    ['a blocked term in raw HTML alt text blocks', subject({ markdown: '<img src="/m.png" alt="spamword">' }), 'block', /blocked_term/],
    ['a blocked domain in seo_description blocks', subject({ seoDescription: 'see https://spam.example/' }), 'block', /spam\.example in seo_description/],
    ['a review term in seo_title goes to a person', subject({ seoTitle: 'The lawsuit' }), 'manual', /in seo_title/],
];
