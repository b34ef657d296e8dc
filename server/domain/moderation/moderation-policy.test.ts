import { describe, expect, it } from 'vitest';
import { createRulePolicy, DEFAULT_MODERATION_RULES, linkHosts } from './moderation-policy.ts';
import { CASE_RULES, DECISION_CASES, subject } from '../../../test/support/moderation-cases.ts';

const policy = createRulePolicy(CASE_RULES);

describe('rule policy', () => {
  it.each(DECISION_CASES)('%s', (_name, input, outcome, reason) => {
    const decision = policy.evaluate(input);
    expect(decision.outcome).toBe(outcome);
    if (reason === null) expect(decision.reason).toBeNull();
    else expect(decision.reason).toMatch(reason);
  });

  // Issue 18 item 5: each spelling reached the public site before.
  it.each([
    ['an entity', 'zzblock&#109;arker'],
    ['a named entity', 'casino&nbsp;bonus'],
    ['Markdown strong markers', 'zz**block**marker'],
    ['Markdown emphasis markers', 'zz_block_marker'],
    ['inline HTML', 'zz<b>block</b>marker'],
    ['an HTML comment', 'zz<!-- -->blockmarker'],
    ['a soft hyphen', 'zzblock\u00admarker'],
    ['a zero-width space', 'zzblock\u200bmarker'],
    ['a zero-width joiner', 'zzblock\u200dmarker'],
    ['a word joiner', 'zz\u2060blockmarker'],
    ['a variation selector', 'zzblock\ufe0fmarker'],
    ['a bidi override', 'zz\u202eblockmarker\u202c'],
    ['a NUL byte', 'zzblock\u0000marker'],
    ['full-width letters', 'ｚｚｂｌｏｃｋｍａｒｋｅｒ'],
    ['mixed case', 'ZzBlockMarker'],
    ['a no-break space in a phrase', 'casino\u00a0bonus'],
    ['a newline in a phrase', 'casino\nbonus'],
    ['several spaces and a tab in a phrase', 'casino \t  bonus'],
    ['an ideographic space in a phrase', 'casino\u3000bonus'],
    ['a line separator in a phrase', 'casino\u2028bonus'],
  ])('a blocked term written with %s blocks, in every field', (_name, text) => {
    for (const field of ['title', 'excerpt', 'markdown', 'seoTitle', 'seoDescription', 'authorName'] as const) {
      expect(policy.evaluate(subject({ [field]: text })).outcome, field).toBe('block');
    }
  });

  it.each([
    ['userinfo', '[x](https://user@spam.example/)'],
    ['userinfo and password', '[x](https://user:pw@spam.example/)'],
    ['a trailing dot', '[x](https://spam.example./)'],
    ['a port', '[x](https://spam.example:8443/)'],
    ['upper case', '[x](HTTPS://SPAM.EXAMPLE/)'],
    ['protocol-relative Markdown', '[x](//spam.example/)'],
    ['backslashes', '[x](https:\\\\spam.example/)'],
    ['backslashes in raw HTML', '<a href="https:\\\\spam.example/">x</a>'],
    ['a percent-encoded dot', '[x](https://spam%2Eexample/)'],
    ['a full-width host', '[x](https://ｓｐａｍ.example/)'],
    ['an ideographic full stop', '[x](https://spam。example/)'],
    ['a scheme without slashes', '[x](https:spam.example)'],
    ['protocol-relative raw HTML', '<a href="//spam.example/">x</a>'],
    ['an unquoted raw HTML attribute', '<a href=//spam.example/>x</a>'],
    ['an image', '![x](//spam.example/pixel.png)'],
    ['a raw HTML image', '<img src="//spam.example/p.png" alt="">'],
    ['a srcset', '<img src="/a.png" srcset="/a.png 1x, //spam.example/b.png 2x" alt="">'],
    ['a reference definition', '[x][r]\n\n[r]: //spam.example/'],
    ['an autolink', '<https://spam.example/>'],
    ['a plain-text URL', 'Visit https://spam.example/ today'],
    ['a plain-text www. address', 'Visit www.spam.example today'],
    ['a subdomain', '[x](https://a.b.spam.example/)'],
    ['an entity in the URL', '[x](https://spam&#46;example/)'],
    ['a mailto address', '[x](mailto:someone@spam.example)'],
    ['a tab inside the URL', '<a href="https://spam.exa\tmple/">x</a>'],
  ])('a blocked link domain written with %s blocks', (_name, markdown) => {
    expect(policy.evaluate(subject({ markdown })).reason).toMatch(/^blocked_link_domain: [a-z.]*spam\.example in content_markdown$/);
  });

  it.each([
    ['a term inside a word (ass in class)', 'A class of its own, massive'],
    ['a term as a prefix (ass in assess)', 'We assess it'],
    ['a phrase split by other words', 'casino night, bonus round'],
    ['a phrase split across paragraphs stays two words', 'zzblock\n\nmarker'],
    ['a similar domain', '[x](https://notspam.example/) [y](https://spam.example.org/)'],
    ['the blocked domain in a path', '[x](https://good.example/spam.example)'],
    ['the blocked domain as userinfo', '[x](https://spam.example@good.example/)'],
    ['a relative link named like the domain', '[x](spam.example)'],
  ])('%s does not block', (_name, markdown) => {
    expect(policy.evaluate(subject({ markdown })).outcome).toBe('pass');
  });

  it('matches terms outside ASCII as whole words', () => {
    const arabic = createRulePolicy({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['قمار'] });
    expect(arabic.evaluate(subject({ markdown: 'نص عن قمار هنا' })).outcome).toBe('block');
  });

  it('normalises the rules as it normalises the text', () => {
    const odd = createRulePolicy({ ...DEFAULT_MODERATION_RULES, blocked_terms: ['ＣＡＳＩＮＯ  Bonus', '\u200b'], blocked_link_domains: ['SPAM.Example.'] });
    expect(odd.evaluate(subject({ markdown: 'casino bonus' })).outcome).toBe('block');
    expect(odd.evaluate(subject({ markdown: '[x](https://spam.example/)' })).outcome).toBe('block');
    expect(odd.evaluate(subject({ markdown: 'nothing here' })).outcome).toBe('pass');
  });

  it('never throws on odd or deeply nested bodies', () => {
    // Small versions of the worst shapes: the body limits (not moderation) bound their size.
    const bodies = ['>'.repeat(300) + ' spamword', '<div>'.repeat(5000) + 'spamword', '- '.repeat(300) + 'x', '[', '\u0000\ud800', '*a'.repeat(300), '<a href="'];
    for (const markdown of bodies) expect(() => policy.evaluate(subject({ markdown }))).not.toThrow();
    expect(policy.evaluate(subject({ markdown: '<div>'.repeat(5000) + 'spamword' })).outcome).toBe('block');
  });

  it('reads link hosts from Markdown and HTML', () => {
    expect(linkHosts('[a](https://A.example:8080/x) <a href="http://b.example">b</a> ./local')).toEqual(['a.example', 'b.example']);
  });
});

describe('evaluateFields', () => {
  it.each([
    [[{ name: 'title', value: 'Fine' }, { name: 'description', value: null }], 'pass', null, null],
    [[{ name: 'title', value: 'Fine' }, { name: 'description', value: 'zz**block**marker' }], 'block', 'description', /blocked_term/],
    [[{ name: 'translations.1.title', value: 'see //spam.example/' }], 'block', 'translations.1.title', /blocked_link_domain/],
    [[{ name: 'title', value: 'a lawsuit' }], 'manual', 'title', /review_term/],
  ] as const)('%j → %s', (fields, outcome, field, reason) => {
    const decision = policy.evaluateFields(fields);
    expect(decision.outcome).toBe(outcome);
    expect(decision.field).toBe(field);
    if (reason) expect(decision.reason).toMatch(reason);
  });
});
