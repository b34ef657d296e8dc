import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusBody } from '../../../scripts/bench/corpus.ts';
import { BODY_LIMITS, checkHtmlBody, checkMarkdownBody, type BodyLimitName } from './limits.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The inputs of issue 18 that took minutes or overflowed the stack, and the limit each must hit. */
const PATHOLOGICAL_MARKDOWN: Array<[string, () => string, BodyLimitName]> = [
  ['"*a" × 100,000 (530 s)', () => '*a'.repeat(100_000), 'delimitersPerBlock'],
  ['"_a" × 100,000', () => '_a'.repeat(100_000), 'delimitersPerBlock'],
  ['">" × 100,000 (382 s, then a 500)', () => '>'.repeat(100_000), 'markdownDepth'],
  ['">" × 2,000 (stack overflow)', () => '>'.repeat(2_000), 'markdownDepth'],
  ['"[" × 200,000 + "a" + "]" × 200,000 (> 20 min)', () => '['.repeat(200_000) + 'a' + ']'.repeat(200_000), 'bracketsPerBlock'],
  ['a 500-deep nested list (25 s)', () => Array.from({ length: 500 }, (_, k) => `${'  '.repeat(k)}- item ${k}`).join('\n'), 'markdownDepth'],
  ['a 10,000-deep list on one line', () => `${'- '.repeat(10_000)}a`, 'markdownDepth'],
  ['"> - " mixed, 40 levels', () => `${'> - '.repeat(20)}a`, 'markdownDepth'],
  ['a 5,000-column table (5 s)', () => `|${'a|'.repeat(5_000)}\n|${'-|'.repeat(5_000)}\n`, 'tableColumns'],
  ['one paragraph of plain text longer than a part (~1 s per MB)', () => 'word '.repeat(250_000), 'segmentChars'],
  ['a body over the size limit', () => 'A paragraph.\n\n'.repeat(Math.ceil(BODY_LIMITS.markdownChars / 14) + 1), 'markdownChars'],
  ['a reference definition keeps a long body one part', () => `[a]: /x\n\n${'A paragraph.\n\n'.repeat(80_000)}`, 'segmentChars'],
  ['10,000 nested <div> as raw HTML', () => `${'<div>'.repeat(10_000)}x${'</div>'.repeat(10_000)}`, 'htmlDepth'],
  ['3,000 nested <b> as raw HTML', () => `${'<b>'.repeat(3_000)}x`, 'htmlDepth'],
  ['"`a" × 100,000', () => '`a'.repeat(100_000), 'backticksPerBlock'],
  ['a fence inside <pre> is no fence', () => `<pre>\n\n\`\`\`\n</pre>\n\n${'*a'.repeat(1_000)}`, 'delimitersPerBlock'],
  // Bodies that passed the limits above and still took seconds to minutes (issue 18, follow-up).
  ['3,000 blocks of 30 nested quotes with *em* and a link (237 KB, 180 s)', () => Array.from({ length: 3_000 }, () => `${'> '.repeat(30)}text *em* [l](/x)\n`).join('\n'), 'containerBlocks'],
  ['2,000 lines of "*a" × 240 (960 KB, 49 s)', () => Array.from({ length: 2_000 }, () => `${'*a'.repeat(240)}\n`).join('\n'), 'delimitersPerBody'],
  ['2,000 lines of 20 links (920 KB, 15 s)', () => Array.from({ length: 2_000 }, () => `${'[a](http://x.example/) '.repeat(20)}\n`).join('\n'), 'bracketsPerBody'],
  ['3,000 one-line quotes between blank lines (quadratic close)', () => '> quote text\n\n'.repeat(3_000), 'containerBlocks'],
  ['3,000 one-item lists between paragraphs (quadratic close)', () => '- item\n\npara\n\n'.repeat(3_000), 'containerBlocks'],
  ['one quoted paragraph of 3,000 lines with "*a" × 10 each', () => `> ${'*a'.repeat(10)}\n`.repeat(3_000), 'delimitersPerBlock'],
  ['one paragraph of 3,000 lazy lines with "*a" × 10 each', () => `> start\n${`${'*a'.repeat(10)}\n`.repeat(3_000)}`, 'delimitersPerBlock'],
  ['30-deep quote lines in one paragraph (25,000+ markers)', () => `${'> '.repeat(30)}text\n`.repeat(1_000), 'containerMarkers'],
];

const PATHOLOGICAL_HTML: Array<[string, () => string, BodyLimitName]> = [
  ['10,000 nested <div> (110 KB, stack overflow)', () => `${'<div>'.repeat(10_000)}x${'</div>'.repeat(10_000)}`, 'htmlDepth'],
  ['3,000 nested <b> (stack overflow)', () => `<p>${'<b>'.repeat(3_000)}x</p>`, 'htmlDepth'],
  ['10,000-deep lists', () => `${'<ul><li>'.repeat(10_000)}x`, 'htmlDepth'],
  ['"<" inside quoted attributes', () => `${'<b title="<">'.repeat(3_000)}x`, 'htmlDepth'],
  ['over the size limit', () => `<p>${'word '.repeat(500_000)}</p>`, 'htmlChars'],
];

/** `unit` repeated, then cut or padded with letters to exactly `length` characters. */
function atLength(unit: string, length: number): string {
  const text = unit.repeat(Math.floor(length / unit.length));
  return text + 'a'.repeat(length - text.length);
}

describe('checkMarkdownBody', () => {
  it.each(PATHOLOGICAL_MARKDOWN)('%s → %s', (_name, make, limit) => {
    const problem = checkMarkdownBody(make());
    expect(problem?.limit).toBe(limit);
    expect(problem!.value).toBeGreaterThan(problem!.max);
    expect(problem!.max).toBe(BODY_LIMITS[limit]);
    expect(problem!.message).toContain(`limit ${limit}`);
    expect(problem!.message).toContain(String(problem!.max));
  });

  it.each<[string, string]>([
    ['the sample content', fs.readFileSync(path.join(ROOT, 'content/pressroom-journal/welcome/en.md'), 'utf8')],
    ['the sample content in Arabic', fs.readFileSync(path.join(ROOT, 'content/pressroom-journal/welcome/ar.md'), 'utf8')],
    ['a generated long article', Array.from({ length: 40 }, (_, i) => corpusBody(i, 'en')).join('\n\n')],
    ['a 200 KB article of 2,000 paragraphs with emphasis and links', '_Lede_ with **bold**, `code` and [a link](https://example.com/a_b_c).\n\n'.repeat(2_000)],
    ['lists nested 8 deep', Array.from({ length: 8 }, (_, k) => `${'    '.repeat(k)}1. item **${k}**`).join('\n')],
    ['blockquotes nested 5 deep', '> > > > > quoted'],
    ['a 20-column table', `|${' head |'.repeat(20)}\n|${' --- |'.repeat(20)}\n|${' *a* |'.repeat(20)}\n`],
    ['a code fence full of brackets and stars', `\`\`\`js\n${'const a = [[1], [2]]; // *x*\n'.repeat(500)}\`\`\`\n`],
    ['deeply indented code in a fence', `\`\`\`python\n${Array.from({ length: 40 }, (_, k) => `${'    '.repeat(k)}- x`).join('\n')}\n\`\`\`\n`],
    ['balanced raw HTML', '<details><summary>More</summary>\n\n<div><p>text<br>more</p></div>\n\n</details>\n'.repeat(200)],
    ['a body exactly at the size limit', atLength('A paragraph of ordinary words, as many articles have them.\n\n', BODY_LIMITS.markdownChars)],
    ['one paragraph exactly as long as a part may be', 'a'.repeat(BODY_LIMITS.segmentChars)],
    // Per 1,000 characters: 12 emphasis characters, 6 brackets, 12 container markers, a quote and a list opened.
    ['3 MB with more emphasis, brackets and markers than one million characters may have', atLength(`Text ${'*a* '.repeat(6)}${'[b] '.repeat(3)}${'words '.repeat(150)}\n\n${'> - q\n'.repeat(6)}\n`, 3_000_000)],
    ['a list every 2,000 characters in 2 MB (1,000 lists, 16 to a part)', atLength(`- item\n\n${'Words of a paragraph. '.repeat(90)}\n\n`, 2_000_000)],
    ['a list of 3,000 items, loose and tight', '- item *a* [b](/c)\n\n'.repeat(1_500) + '- item\n'.repeat(1_500)],
    ['200 separate quotes and lists', '> a quote\n\n- a\n- b\n\nText.\n\n'.repeat(200)],
  ])('accepts %s', (_name, markdown) => {
    expect(checkMarkdownBody(markdown)).toBeNull();
  });

  it('allows the per-body counts once per started million characters, and says so', () => {
    const dense = `${'*a'.repeat(240)}\n\n`.repeat(400); // 96,000 emphasis characters in 193 KB
    expect(checkMarkdownBody(dense)).toMatchObject({ limit: 'delimitersPerBody', max: 20_000 });
    const padded = dense + 'A paragraph of words.\n\n'.repeat(160_000); // 3.9 MB: four millions started
    const problem = checkMarkdownBody(padded);
    expect(problem).toMatchObject({ limit: 'delimitersPerBody', max: 80_000 });
    expect(checkMarkdownBody(padded + 'A paragraph of words.\n\n'.repeat(15_000))).toBeNull(); // 4.2 MB: five
    expect(problem!.message).toContain('20000 per started million characters');
  });

  it('says where and why a body stopped being divided when its last part is too long', () => {
    const text = `A paragraph.\n\n[a]: /x\n\n${'More words.\n\n'.repeat(80_000)}`;
    const problem = checkMarkdownBody(text);
    expect(problem).toMatchObject({ limit: 'segmentChars', line: 1 });
    expect(problem!.message).toContain('the division stopped at line 3: a reference definition');
    expect(checkMarkdownBody('word '.repeat(250_000))!.message).not.toContain('the division stopped');
  });

  it('counts blockquotes and lists opened per part', () => {
    const part = `${'> quote\n\nText.\n\n'.repeat(400)}${'A paragraph of words. '.repeat(6_000)}\n\n`;
    expect(checkMarkdownBody(part.repeat(4))).toBeNull();
    expect(checkMarkdownBody('> quote\n\nText.\n\n'.repeat(600))).toMatchObject({ limit: 'containerBlocks' });
  });

  it('names the line of the problem', () => {
    expect(checkMarkdownBody(`# Title\n\nfine\n\n${'>'.repeat(40)} deep`)).toMatchObject({ limit: 'markdownDepth', line: 5, value: 40 });
  });

  it('is linear: a 1 MB worst case is checked in well under a second', () => {
    const started = performance.now();
    for (const text of ['<a'.repeat(499_999), '- '.repeat(499_999), '\n'.repeat(999_999), '[]'.repeat(499_999)]) checkMarkdownBody(text);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('checkHtmlBody', () => {
  it.each(PATHOLOGICAL_HTML)('%s → %s', (_name, make, limit) => {
    expect(checkHtmlBody(make())?.limit).toBe(limit);
  });

  it.each<[string, string]>([
    ['a CMS export with wrappers', `${'<div class="w">'.repeat(30)}<p>Text <b><i>x</i></b><br><img src="/a.png"></p>${'</div>'.repeat(30)}`],
    ['unclosed paragraphs and list items', `<ul>${'<li>item<p>para'.repeat(5_000)}</ul>`],
    ['a long table', `<table>${'<tr><td>a<td>b'.repeat(5_000)}</table>`],
    ['self-closed elements', '<span/>'.repeat(5_000)],
    ['text with stray < signs', 'a < b and c<d '.repeat(10_000)],
  ])('accepts %s', (_name, html) => {
    expect(checkHtmlBody(html)).toBeNull();
  });

  it('names the line where the nesting goes over', () => {
    expect(checkHtmlBody(`<p>a</p>\n<p>b</p>\n${'<div>'.repeat(101)}`)).toMatchObject({ limit: 'htmlDepth', line: 3, value: 101 });
  });
});
