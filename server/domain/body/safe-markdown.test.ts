import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { prepareBody } from './prepare.ts';
import { DANGEROUS_MARKDOWN } from '../../../test/fixtures/dangerous-markdown.ts';
import { isSafeUrl, mayNeedWork, publicMarkdown } from './safe-markdown.ts';

// In rendered HTML: unsafe elements, event handlers, or a dangerous scheme in a link or image.
const UNSAFE_HTML = /<(?:script|iframe|meta|svg|style)|\son\w+=|(?:href|src)="\s*(?:javascript|vbscript|data):/i;
// In Markdown source: the same as raw HTML, or as a link, autolink or definition target ("javascript:" as words is harmless text).
const UNSAFE = new RegExp(`${UNSAFE_HTML.source}|\\]\\(\\s*(?:javascript|vbscript|data)|<(?:javascript|vbscript|data):|\\]:\\s*(?:javascript|vbscript|data)`, 'i');
const markdownIt = new MarkdownIt({ html: true, linkify: true });

describe('public Markdown', () => {
  it('the checks see the dangers when nothing is done', () => {
    for (const [, markdown] of DANGEROUS_MARKDOWN) {
      expect(markdown.match(UNSAFE) ?? markdownIt.render(markdown).match(UNSAFE_HTML), markdown).not.toBeNull();
    }
  });

  it.each(DANGEROUS_MARKDOWN)('carries nothing unsafe: %s', (_name, markdown) => {
    const safe = publicMarkdown(markdown);
    expect(safe).not.toMatch(UNSAFE);
    // A renderer that passes raw HTML through (markdown-it with html: true) gets nothing unsafe either.
    expect(markdownIt.render(safe)).not.toMatch(UNSAFE_HTML);
    // A fixed point: the public form of the public form is itself.
    expect(publicMarkdown(safe)).toBe(safe);
  });

  it.each(DANGEROUS_MARKDOWN)('is what a save stores, with warnings: %s', (_name, markdown) => {
    const prepared = prepareBody({ title: 'Unrelated', contentMarkdown: markdown });
    expect(prepared.markdown).not.toMatch(UNSAFE);
    expect(publicMarkdown(prepared.markdown)).toBe(prepared.markdown);
    expect(prepared.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^BODY_(HTML|UNSAFE_URL)_REMOVED$/)]),
    );
  });

  it.each([
    'Plain text with a [link](https://example.com) and ![img](/media/a.webp).\n',
    'H<sub>2</sub>O, <kbd>Ctrl</kbd> and <a href="https://example.com">a</a>\n',
    '<div dir="rtl">نص</div>\n\n[ref]\n\n[ref]: https://example.com "Title"\n',
    '[mail](mailto:desk@example.com) [rel](../other) [frag](#top) [q](?a=b:c)\n',
  ])('keeps safe bodies byte for byte: %j', (markdown) => {
    expect(publicMarkdown(markdown)).toBe(markdown);
    expect(prepareBody({ title: 'Unrelated', contentMarkdown: markdown }).warnings).toEqual([]);
  });

  it('names what it removed', () => {
    const { warnings } = prepareBody({ title: 'T', contentMarkdown: 'a <script>x</script> [b](javascript:y) <img src=z onerror=w>' });
    expect(warnings.find((w) => w.code === 'BODY_HTML_REMOVED')?.message).toMatch(/<script>.*onerror attribute/);
    expect(warnings.find((w) => w.code === 'BODY_UNSAFE_URL_REMOVED')?.message).toMatch(/^Removed 1 link or image target /);
    // The image itself goes too: it has no alt text (`image-alt.ts`).
    expect(warnings.find((w) => w.code === 'BODY_IMAGE_ALT_MISSING')?.message).toMatch(/^Removed 1 image without an alt attribute/);
  });

  it.each([
    ['https://a.example/', true],
    ['/relative:path', true],
    ['page?x=1:2', true],
    ['#frag:x', true],
    ['mailto:a@b.example', true],
    ['javascript:alert(1)', false],
    [' javascript:x', false],
    ['java\tscript:x', false],
    ['DATA:text/html,x', false],
  ])('isSafeUrl(%j) is %s for links', (url, safe) => {
    expect(isSafeUrl(url, ['http', 'https', 'mailto'])).toBe(safe);
  });
});

describe('mayNeedWork (the parse is skipped only when it says false)', () => {
  it.each([
    ['raw HTML', 'a <b>b</b>', true],
    ['an autolink', '<https://example.com>', true],
    ['a target after spaces', '[x](   javascript:alert(1))', true],
    ['a target on the next line', '[x](\njavascript:alert(1))', true],
    ['a definition continued in a quote', '> [a][r]\n>\n> [r]:\n> javascript:alert(1)', true],
    ['an entity in the scheme', '[x](java&#115;cript:alert(1))', true],
    ['an escape in the scheme', '[x](javascript\\:alert(1))', true],
    ['a mailto image', '![i](mailto:a@example.com)', true],
    ['another scheme', '[x](ftp://example.com/)', true],
    ['http(s), relative and fragment targets', 'See [a](./a-1), [b](https://example.org/docs/1?x=y:z), ![c](/media/c.webp) and [d](#top).', false],
    ['a definition', '[a][r]\n\n[r]: https://example.com "T"', false],
    ['words with a bracket and colon', 'Note [sic]: nothing here.', false],
    ['plain text', 'Just words, https://example.org and *emphasis*.', false],
  ])('%s → %s', (_name, markdown, expected) => {
    expect(mayNeedWork(markdown)).toBe(expected);
  });

  it('never says false for a body that public Markdown would change', () => {
    for (const [, markdown] of DANGEROUS_MARKDOWN) expect(mayNeedWork(markdown), markdown).toBe(true);
  });
});
