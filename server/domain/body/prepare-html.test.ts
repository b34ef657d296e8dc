import { describe, expect, it } from 'vitest';
import { prepareBody, renderMarkdown } from './index.ts';

const prepareHtml = (contentHtml: string, title = 'Unrelated') => prepareBody({ title, contentHtml });
const codes = (contentHtml: string, title?: string) => prepareHtml(contentHtml, title).warnings.map((w) => w.code);

describe('prepareBody (HTML input)', () => {
  it('converts ordinary article markup to canonical Markdown without warnings', () => {
    const result = prepareHtml(
      '<h2>Part</h2><p>Some <strong>bold</strong>, <em>em</em> and <del>gone</del>.</p>' +
        '<ul><li>one</li><li>two</li></ul><blockquote><p>Quote</p></blockquote>' +
        '<pre><code class="language-js">const x = 1;\n</code></pre><hr>',
    );
    expect(result.warnings).toEqual([]);
    expect(result.markdown).toBe(
      '## Part\n\nSome **bold**, _em_ and ~~gone~~.\n\n- one\n- two\n\n> Quote\n\n```js\nconst x = 1;\n```\n\n***\n',
    );
  });

  it.each([
    ['one H1', '<h1>Part</h1><p>x</p>', '## Part\n\nx\n', 1],
    ['two H1s', '<p>x</p><h1>A</h1><h1>B</h1>', 'x\n\n## A\n\n## B\n', 2],
  ])('demotes H1 to H2 (%s)', (_name, html, expected, count) => {
    const result = prepareHtml(html);
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_H1_DEMOTED']);
    expect(result.warnings[0]?.message).toContain(`${count} level-1 heading`);
  });

  it.each([
    ['H1', '<h1>My Title</h1><p>Body</p>'],
    ['H2 with other case and spacing', '\n  <h2> my\n title </h2><p>Body</p>'],
    ['heading inside a wrapper div', '<div><h3>My Title</h3><p>Body</p></div>'],
    ['heading after a comment', '<!-- x --><h1>My Title</h1><p>Body</p>'],
  ])('removes a first-block heading repeating the title (%s)', (_name, html) => {
    const result = prepareHtml(html, 'My Title');
    expect(result.markdown).toBe('Body\n');
    expect(result.warnings.map((w) => w.code)).toContain('BODY_TITLE_HEADING_REMOVED');
    expect(result.warnings.map((w) => w.code)).not.toContain('BODY_H1_DEMOTED');
  });

  it.each([
    ['not the first block', '<p>Intro</p><h2>My Title</h2>', 'Intro\n\n## My Title\n'],
    ['not matching', '<h2>My Title again</h2><p>Body</p>', '## My Title again\n\nBody\n'],
  ])('keeps a heading that is %s', (_name, html, expected) => {
    const result = prepareHtml(html, 'My Title');
    expect(result.markdown).toBe(expected);
    expect(result.warnings).toEqual([]);
  });

  it('keeps relative ./slug links (HTML → Markdown → HTML)', () => {
    const result = prepareHtml('<p>See <a href="./other-article-slug" title="Other">other</a>.</p>');
    expect(result.markdown).toBe('See [other](./other-article-slug "Other").\n');
    expect(renderMarkdown(result.markdown)).toContain('<a href="./other-article-slug" title="Other">other</a>');
  });

  it.each([
    ['script', '<p>a</p><script>alert(1)</script>', 'a\n', ['<script>']],
    ['style', '<style>p{color:red}</style><p>a</p>', 'a\n', ['<style>']],
    ['iframe', '<p>a</p><iframe src="https://evil.example"></iframe>', 'a\n', ['<iframe>']],
    ['onclick', '<p onclick="steal()">a</p>', 'a\n', ['onclick attribute']],
    ['javascript: URL', '<p><a href="javascript:alert(1)">a</a></p>', 'a\n', ['href attribute (unsafe URL)']],
    ['img onerror', '<p><img src="/x.png" alt="x" onerror="steal()"></p>', '![x](/x.png)\n', ['onerror attribute']],
  ])('removes %s and warns', (_name, html, expected, mentioned) => {
    const result = prepareHtml(html);
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_HTML_REMOVED']);
    for (const text of mentioned) expect(result.warnings[0]?.message).toContain(text);
  });

  it('reports all removals in one warning', () => {
    const result = prepareHtml('<script>x</script><iframe></iframe><p onclick="y">a</p>');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.message).toBe(
      'Removed HTML that is not allowed in article bodies: <iframe>, <script>, onclick attribute.',
    );
  });

  it('keeps dir on a block and reproduces it after HTML → Markdown → render', () => {
    const result = prepareHtml('<p dir="RTL">مرحبا <a href="./slug">رابط</a></p><p>Plain</p>');
    expect(result.warnings).toEqual([]);
    expect(result.markdown).toBe('<p dir="rtl">مرحبا <a href="./slug">رابط</a></p>\n\nPlain\n');
    expect(renderMarkdown(result.markdown)).toBe('<p dir="rtl">مرحبا <a href="./slug">رابط</a></p>\n<p>Plain</p>');
  });

  it.each([
    ['h2', '<h2 dir="rtl">عنوان</h2>'],
    ['blockquote', '<blockquote dir="rtl"><p>اقتباس</p></blockquote>'],
    ['list item', '<ul><li dir="rtl">بند</li><li>item</li></ul>'],
    ['table cell', '<table><tbody><tr><td dir="rtl">خلية</td></tr></tbody></table>'],
    ['demoted h1', '<h1 dir="rtl">عنوان</h1>'],
  ])('keeps dir through the round trip on %s', (_name, html) => {
    const result = prepareHtml(html);
    expect(result.warnings.map((w) => w.code)).not.toContain('BODY_DIR_REMOVED');
    expect(renderMarkdown(result.markdown)).toContain('dir="rtl"');
  });

  it('keeps blank lines inside a dir block from ending the raw HTML block', () => {
    const result = prepareHtml('<pre dir="rtl" tabindex="0">line 1\n\nline *3*</pre><p>after</p>');
    const html = renderMarkdown(result.markdown);
    expect(html).toContain('<pre dir="rtl" tabindex="0">line 1\n\nline *3*</pre>');
    expect(html).toContain('<p>after</p>');
  });

  it.each([
    ['span', '<p><span dir="rtl">x</span></p>', 'x\n'],
    ['a', '<p><a dir="rtl" href="./s">x</a></p>', '[x](./s)\n'],
    ['value foo', '<p dir="foo">x</p>', 'x\n'],
    ['empty value', '<div dir="">x</div>', 'x\n'],
  ])('removes dir on %s with a warning', (_name, html, expected) => {
    const result = prepareHtml(html);
    expect(result.markdown).toBe(expected);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_DIR_REMOVED']);
    expect(renderMarkdown(result.markdown)).not.toContain('dir=');
  });

  it('counts all removed dir attributes in one warning', () => {
    const result = prepareHtml('<p dir="x"><em dir="rtl">a</em> <code dir="ltr">b</code></p>');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.message).toContain('Removed 3 dir attributes');
  });

  it('strips bidi controls from text, attributes and character references, with the count', () => {
    const result = prepareHtml('<p title="\u202Ex">a\u202Eb\u202C &#x2067;c&#8297;</p>');
    expect(result.markdown).toBe('ab c\n');
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_BIDI_CONTROLS_STRIPPED']);
    expect(result.warnings[0]?.message).toContain('Removed 5 bidirectional');
  });

  it('keeps RLM and LRM marks', () => {
    const result = prepareHtml('<p>a\u200Fb\u200Ec</p>');
    expect(result.markdown).toBe('a\u200Fb\u200Ec\n');
    expect(result.warnings).toEqual([]);
  });

  it('keeps GFM tables', () => {
    const result = prepareHtml(
      '<table><thead><tr><th>Name</th><th>Value</th></tr></thead>' +
        '<tbody><tr><td>a</td><td><a href="./slug">1</a></td></tr><tr><td>b</td><td>2</td></tr></tbody></table>',
    );
    expect(result.warnings).toEqual([]);
    expect(result.markdown).toBe('| Name | Value       |\n| ---- | ----------- |\n| a    | [1](./slug) |\n| b    | 2           |\n');
    expect(renderMarkdown(result.markdown)).toContain('<td><a href="./slug">1</a></td>');
  });

  it('keeps figure images, sizes and sup/sub that Markdown cannot express', () => {
    const result = prepareHtml(
      '<figure><img src="/a.png" alt="A" width="640" height="480"><figcaption>Caption</figcaption></figure>' +
        '<p>E = mc<sup>2</sup>, H<sub>2</sub>O</p>',
    );
    expect(result.warnings).toEqual([]);
    const html = renderMarkdown(result.markdown);
    expect(html).toContain('<img src="/a.png" alt="A" width="640" height="480">');
    expect(html).toContain('Caption');
    expect(html).toContain('mc<sup>2</sup>, H<sub>2</sub>O');
  });

  it('does not prefix ids twice (only rendering clobbers them)', () => {
    const result = prepareHtml('<p dir="rtl" id="note">x</p>');
    expect(result.markdown).toBe('<p dir="rtl" id="note">x</p>\n');
    expect(renderMarkdown(result.markdown)).toBe('<p dir="rtl" id="user-content-note">x</p>');
  });

  it('returns an empty body for empty HTML', () => {
    expect(prepareHtml('')).toEqual({ markdown: '', warnings: [] });
    expect(codes('<!-- only a comment -->')).toEqual(['BODY_HTML_REMOVED']);
  });
});
