/**
 * The one rule that cuts summaries (`truncateText` in `selection.ts`), and
 * the summaries made with it: from the excerpt when there is one, else from
 * the body's prose (its paragraphs only, `domain/body/prose.ts`).
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdownBody } from '../domain/body/index.ts';
import { pageExcerptOf, summaryOf, SUMMARY_MAX_CHARS, textStartOf, truncateText } from './selection.ts';

const length = (text: string) => Array.from(text).length;

describe('truncateText', () => {
  it('leaves a text within the limit as it is, whitespace collapsed', () => {
    expect(truncateText('  Short   text.\n', 40)).toBe('Short text.');
  });

  it('cuts at the last sentence end near the limit, marked with an ellipsis', () => {
    const text = 'The river rose in the night. Boats were moved to the upper quay. Nobody was hurt, said the harbour master this morning.';
    expect(truncateText(text, 80)).toBe('The river rose in the night. Boats were moved to the upper quay. …');
  });

  it('cuts at a word when no sentence ends near the limit, without trailing punctuation', () => {
    const text = 'One long sentence that goes on, and on, past the limit of the description without ever ending';
    const cut = truncateText(text, 50);
    expect(cut).toBe('One long sentence that goes on, and on, past the…');
    expect(length(cut)).toBeLessThanOrEqual(50);
  });

  it('ends sentences in Arabic and CJK too, and cuts text without spaces at the limit', () => {
    expect(truncateText('فقرة أولى طويلة بعض الشيء؟ ثم فقرة ثانية أطول بكثير من الحد المسموح به هنا', 40)).toBe('فقرة أولى طويلة بعض الشيء؟ …');
    const cjk = '日'.repeat(100);
    expect(truncateText(cjk, 30)).toBe(`${'日'.repeat(29)}…`);
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const cut = truncateText('😀'.repeat(50), 20);
    expect(length(cut)).toBe(20);
    expect(cut).toBe(`${'😀'.repeat(19)}…`);
  });
});

describe('summaries of a body without an excerpt', () => {
  // The body issue 34 quoted: headings, a table and code ran into the summary.
  const body = [
    '## Observations',
    '| Time | Reading |\n| - | - |\n| 06:00 | 135 |\n| 18:00 | 225 |',
    '```py\nprint("note 45")\n```',
    'The morning was calm and clear. By the evening the wind had turned to the west, and the readings rose with it. '.repeat(4),
    '## Previous note',
  ].join('\n\n');
  const textStart = textStartOf(renderMarkdownBody(body).prose);
  const paragraph = 'The morning was calm and clear. By the evening the wind had turned to the west, and the readings rose with it.';

  it('read as prose: the summary is the start of a paragraph, cut at a sentence', () => {
    const summary = summaryOf({ excerpt: null, textStart });
    expect(summary.startsWith(paragraph)).toBe(true);
    expect(summary).toMatch(/\. …$/);
    expect(length(summary)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    const excerpt = pageExcerptOf({ excerpt: null, seoDescription: null, textStart })!;
    expect(excerpt.startsWith('The morning was calm and clear.')).toBe(true);
    expect(excerpt).not.toMatch(/Observations|06:00|print/);
  });

  it('keep the publisher\'s excerpt whole when there is one', () => {
    expect(summaryOf({ excerpt: '  Their   own words. ', textStart })).toBe('Their own words.');
  });
});
