import { describe, expect, it } from 'vitest';
import { createRulePolicy, DEFAULT_MODERATION_RULES, linkHosts, type ModerationSubject } from './moderation-policy.ts';

const subject = (over: Partial<ModerationSubject> = {}): ModerationSubject => ({
  language: 'en',
  title: 'A title',
  excerpt: null,
  markdown: 'Plain text.',
  channelSlug: 'news',
  accountReviewRequired: false,
  ...over,
});

const policy = createRulePolicy({
  ...DEFAULT_MODERATION_RULES,
  blocked_terms: ['casino bonus', 'spamword'],
  blocked_link_domains: ['bad.example'],
  review_terms: ['lawsuit'],
  max_external_links: 2,
});

describe('rule policy', () => {
  it.each([
    ['innocuous content passes', subject(), 'pass', null],
    ['a blocked term in the body blocks', subject({ markdown: 'Get your CASINO BONUS now' }), 'block', /blocked_term/],
    ['a blocked term in the title blocks', subject({ title: 'spamword' }), 'block', /blocked_term/],
    ['a term inside another word does not block', subject({ markdown: 'nonspamwordy' }), 'pass', null],
    ['a blocked link domain blocks, subdomains too', subject({ markdown: '[x](https://www.bad.example/page)' }), 'block', /bad\.example/],
    ['a flagged account goes to a person', subject({ accountReviewRequired: true }), 'manual', /account_flagged/],
    ['too many external links go to a person', subject({ markdown: 'https://a.example https://b.example https://c.example' }), 'manual', /too_many_external_links/],
    ['a review term goes to a person', subject({ excerpt: 'About the lawsuit' }), 'manual', /review_term/],
    ['a blocked term wins over manual review', subject({ accountReviewRequired: true, markdown: 'spamword' }), 'block', /blocked_term/],
  ] as const)('%s', (_name, input, outcome, reason) => {
    const decision = policy.evaluate(input);
    expect(decision.outcome).toBe(outcome);
    if (reason === null) expect(decision.reason).toBeNull();
    else expect(decision.reason).toMatch(reason);
  });

  it('matches terms outside ASCII as whole words', () => {
    const arabic = createRulePolicy({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['قمار'] });
    expect(arabic.evaluate(subject({ markdown: 'نص عن قمار هنا' })).outcome).toBe('block');
  });

  it('reads link hosts from Markdown and HTML', () => {
    expect(linkHosts('[a](https://A.example:8080/x) <a href="http://b.example">b</a> ./local')).toEqual(['a.example', 'b.example']);
  });
});
