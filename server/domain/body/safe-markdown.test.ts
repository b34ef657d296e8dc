import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { prepareBody } from './prepare.ts';
import { DANGEROUS_MARKDOWN } from '../../../test/fixtures/dangerous-markdown.ts';
import { isSafeUrl, publicMarkdown } from './safe-markdown.ts';


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
