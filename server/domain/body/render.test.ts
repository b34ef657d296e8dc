import { describe, expect, it } from 'vitest';
import { markdownToPlainText, renderMarkdown, renderMarkdownBody } from './index.ts';
import { storedLinkTargets } from './link-targets.ts';

/** Deterministic ~1,200-word article mixing the constructs the renderer touches. */
function generatedArticle(words: number): string {
  const vocabulary = ['press', 'room', 'article', 'مرحبا', 'بالعالم', 'reader', 'editor', 'story', 'draft', 'page'];
  const paragraphs: string[] = [];
  let count = 0;
  for (let p = 0; count < words; p++) {
    const sentence: string[] = [];
    for (let w = 0; w < 40; w++) sentence.push(vocabulary[(p * 7 + w) % vocabulary.length] ?? 'x');
    count += sentence.length;
    if (p % 5 === 0) paragraphs.push(`## Section ${p}`);
    paragraphs.push(`${sentence.join(' ')} *em* **strong** \`code\` [next](./slug-${p}) https://example.com/${p}.`);
    if (p % 7 === 0) paragraphs.push('- one\n- two\n\n```ts\nconst x = 1;\n```');
  }
  return paragraphs.join('\n\n') + '\n';
}

describe('renderMarkdown', () => {
  it('renders GFM and keeps relative ./slug links', () => {
    expect(renderMarkdown('See [other](./other-article-slug) and ~~old~~.\n')).toBe(
      '<p>See <a href="./other-article-slug">other</a> and <del>old</del>.</p>',
    );
  });

  it.each([
    ['inline code', 'Run `npm test` now', '<code dir="ltr">npm test</code>'],
    ['fenced code', '```js\nx()\n```', '<pre dir="ltr" tabindex="0"><code class="language-js">x()\n</code></pre>'],
    ['URL autolink literal', 'Go to https://example.com/a?b=1', '<a href="https://example.com/a?b=1" dir="ltr">https://example.com/a?b=1</a>'],
    ['www autolink', 'Go to www.example.com', '<a href="http://www.example.com" dir="ltr">www.example.com</a>'],
    ['angle autolink', '<https://example.com>', '<a href="https://example.com" dir="ltr">https://example.com</a>'],
    ['e-mail', 'Mail desk@example.com', '<a href="mailto:desk@example.com" dir="ltr">desk@example.com</a>'],
    ['link with URL text', '[https://example.com](https://example.com)', '<a href="https://example.com" dir="ltr">'],
  ])('adds dir="ltr" to %s', (_name, markdown, expected) => {
    expect(renderMarkdown(markdown)).toContain(expected);
  });

  it('does not add dir to links whose text is prose, nor to code inside pre', () => {
    const html = renderMarkdown('[read more](https://example.com)\n\n```\ncode\n```');
    expect(html).toContain('<a href="https://example.com">read more</a>');
    expect(html).toContain('<pre dir="ltr" tabindex="0"><code>code\n</code></pre>');
  });

  it('renders an embedded URL in Arabic text left to right', () => {
    expect(renderMarkdown('اقرأ المزيد على https://example.com/ar/news اليوم.')).toBe(
      '<p>اقرأ المزيد على <a href="https://example.com/ar/news" dir="ltr">https://example.com/ar/news</a> اليوم.</p>',
    );
  });

  it.each([
    ['script', 'a\n\n<script>alert(1)</script>\n\nb', '<script', 'alert'],
    ['inline script', 'a <script>alert(1)</script> b', '<script', 'alert'],
    ['iframe', '<iframe src="https://evil.example"></iframe>', '<iframe', 'evil'],
    ['event handler', '<p onclick="steal()">x</p>', 'onclick', 'steal'],
    ['javascript: link', '[x](javascript:alert(1))', 'javascript:', 'alert'],
    ['style', '<style>body{display:none}</style>', '<style', 'display'],
  ])('sanitises raw %s in Markdown', (_name, markdown, tag, payload) => {
    const html = renderMarkdown(markdown);
    expect(html).not.toContain(tag);
    expect(html).not.toContain(payload);
  });

  it('enforces the dir rule on raw HTML in Markdown', () => {
    expect(renderMarkdown('<p dir="RTL">a <span dir="rtl">b</span></p>\n\n<div dir="sideways">c</div>')).toBe(
      '<p dir="rtl">a <span>b</span></p>\n<div>c</div>',
    );
  });

  it('renders stray H1s as H2: the title is the page H1', () => {
    expect(renderMarkdown('# Old body\n\n<h1>Raw</h1>')).toBe('<h2>Old body</h2>\n<h2>Raw</h2>');
  });

  it('strips bidi controls from stored bodies', () => {
    expect(renderMarkdown('a\u202Eb &#x202E;c')).toBe('<p>ab c</p>');
  });

  it('prefixes ids once and points footnote links at them', () => {
    const html = renderMarkdown('Claim[^1].\n\n[^1]: Source.\n');
    expect(html).toContain('href="#user-content-fn-1" id="user-content-fnref-1"');
    expect(html).toContain('<li id="user-content-fn-1">');
    expect(html).toContain('href="#user-content-fnref-1"');
    expect(html).not.toContain('user-content-user-content');
  });

  it('leaves fragment links to anchors outside the body alone', () => {
    expect(renderMarkdown('[top](#top)')).toBe('<p><a href="#top">top</a></p>');
  });

  it('is deterministic', () => {
    const markdown = generatedArticle(300);
    expect(renderMarkdown(markdown)).toBe(renderMarkdown(markdown));
  });

  it('renders a generated 1,200-word article', () => {
    const markdown = generatedArticle(1200);
    expect(markdown.split(/\s+/).length).toBeGreaterThanOrEqual(1200);
    const html = renderMarkdown(markdown);
    expect(html).toContain('<h2>Section 0</h2>');
    expect(html).toContain('<a href="./slug-29">next</a>');
    expect(html).toContain('<a href="https://example.com/29" dir="ltr">https://example.com/29</a>');
    expect(html).not.toMatch(/<h1|<script/);
  });
});

describe('markdownToPlainText', () => {
  it.each([
    ['formatting', '## Title\n\nSome  *emphasised*\ntext with `code`.', 'Title Some emphasised text with code.'],
    ['lists and tables', '- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |', 'a b x y 1 2'],
    ['raw HTML blocks without whitespace', '<table><tr><td>x</td><td>y</td></tr></table>', 'x y'],
    ['sanitised content', 'a <script>alert(1)</script> b', 'a b'],
    ['links', 'See [other](./slug) or https://example.com', 'See other or https://example.com'],
    ['empty', '', ''],
  ])('extracts text (%s)', (_name, markdown, expected) => {
    expect(markdownToPlainText(markdown)).toBe(expected);
  });
});

describe('renderMarkdownBody', () => {
  it('gives exactly renderMarkdown and markdownToPlainText from one parse, and the stored link targets', () => {
    for (const markdown of [generatedArticle(1200), 'a <script>x</script> b', '[^1]\n\n[^1]: note', '']) {
      expect(renderMarkdownBody(markdown)).toEqual({ html: renderMarkdown(markdown), text: markdownToPlainText(markdown), links: storedLinkTargets(markdown), prose: expect.any(String) });
    }
  });
});

describe('renderMarkdown: valid and accessible markup', () => {
  it('writes table column alignment as classes, never the obsolete align attribute', () => {
    const html = renderMarkdown('| l | c | r | n |\n| :- | :-: | -: | - |\n| 1 | 2 | 3 | 4 |\n\n<table><tr><td align="RIGHT">x</td><td align="justify">y</td></tr></table>\n');
    expect(html).not.toContain('align=');
    expect(html).toContain('<th class="align-left">l</th>\n<th class="align-center">c</th>\n<th class="align-right">r</th>\n<th>n</th>');
    expect(html).toContain('<td class="align-right">x</td><td>y</td>');
  });

  it('makes code blocks and tables focusable, since they may scroll sideways', () => {
    expect(renderMarkdown('```\ncode\n```\n')).toContain('<pre dir="ltr" tabindex="0"><code>');
    expect(renderMarkdown('| a |\n| - |\n| 1 |\n')).toContain('<table tabindex="0">');
  });

  it('drops the code points HTML forbids (C0 but tab/LF/FF/CR, DEL, C1), raw in text or attributes', () => {
    const { html, text } = renderMarkdownBody('a\u0007b c\u0085d e\u007ff <span title="x\u0001y">z</span> &#7;');
    expect(html).toBe('<p>ab cd ef <span title="xy">z</span> \ufffd</p>');
    expect(text).toBe('ab cd ef z \ufffd');
  });
});
