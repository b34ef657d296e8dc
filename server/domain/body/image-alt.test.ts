/**
 * The alt rule (`image-alt.ts`), through every door a body comes in by:
 * Markdown with raw HTML, an HTML body, the public Markdown of a body stored
 * before the rule, and its rendering.
 */
import { describe, expect, it } from 'vitest';
import { prepareBody, processBody, renderMarkdown } from './index.ts';
import { publicMarkdown } from './safe-markdown.ts';

const SRC = 'https://example.com/photo.webp';

describe('images without alt', () => {
  it('a raw <img> with no alt in Markdown is removed, with BODY_IMAGE_ALT_MISSING saying how to fix it', () => {
    const result = prepareBody({ title: 'T', contentMarkdown: `Before.\n\n<img src="${SRC}">\n\nAfter <img src="${SRC}" onerror="x()"> inline.\n` });
    expect(result.markdown).not.toContain('<img');
    expect(result.warnings.map((w) => w.code)).toContain('BODY_IMAGE_ALT_MISSING');
    const warning = result.warnings.find((w) => w.code === 'BODY_IMAGE_ALT_MISSING')!;
    expect(warning.message).toMatch(/^Removed 2 images without an alt attribute .*Describe the image in alt="…", or write alt="" \(in Markdown, !\[\]\(address\)\) if it is only decoration\.$/);
  });

  it('an <img> with no alt in an HTML body is removed too, never turned into a decorative ![](…)', () => {
    const result = prepareBody({ title: 'T', contentHtml: `<p>Text.</p><img src="${SRC}"><p><img src="${SRC}" alt="The harbour"></p>` });
    expect(result.markdown).toBe(`Text.\n\n![The harbour](${SRC})\n`);
    expect(result.warnings.map((w) => w.code)).toEqual(['BODY_IMAGE_ALT_MISSING']);
  });

  it.each([
    ['Markdown alt text', `![The harbour](${SRC})`, 'alt="The harbour"'],
    ['Markdown decorative', `![](${SRC})`, 'alt=""'],
    ['raw HTML alt text', `<img src="${SRC}" alt="The harbour">`, 'alt="The harbour"'],
    ['raw HTML decorative', `<img src="${SRC}" alt="">`, 'alt=""'],
  ])('%s is kept, with its alt, and no warning', (_name, markdown, alt) => {
    const result = prepareBody({ title: 'T', contentMarkdown: `${markdown}\n` });
    expect(result.warnings).toEqual([]);
    expect(renderMarkdown(result.markdown)).toContain(alt);
  });

  it('a body stored before the rule publishes neither the image in its HTML nor in its public Markdown', () => {
    const stored = `Before <img src="${SRC}"> after.\n`;
    expect(renderMarkdown(stored)).toBe('<p>Before  after.</p>');
    expect(publicMarkdown(stored)).not.toContain('<img');
  });
});

describe('images whose address leads nowhere', () => {
  it.each([
    ['a relative address', '![A chart](chart.png)', ['chart.png']],
    ['a parent address', '![A chart](../charts/a.png)', ['../charts/a.png']],
    ['a root-relative address outside /media/', '![A chart](/images/a.png)', ['/images/a.png']],
    ['raw HTML with alt', '<img src="x.png" alt="X">', ['x.png']],
    ['raw HTML with alt first', '<img alt="X" src="y.png">', ['y.png']],
  ])('%s is kept, with BODY_IMAGE_SRC_UNRESOLVED naming it', (_name, markdown, sources) => {
    const body = processBody({ title: 'T', contentMarkdown: `${markdown}\n` });
    const warning = body.warnings.find((w) => w.code === 'BODY_IMAGE_SRC_UNRESOLVED');
    expect(warning?.message).toContain(`"${sources[0]}"`);
    expect(warning?.message).toMatch(/Upload the image .* or give a full https:\/\/ address\.$/);
    expect(body.html).toContain('<img');
  });

  it.each([
    ['an uploaded image', '![A chart](/media/news/a/0123456789abcdef.webp)'],
    ['an absolute address', `![A chart](${SRC})`],
  ])('%s passes without a warning', (_name, markdown) => {
    expect(processBody({ title: 'T', contentMarkdown: `${markdown}\n` }).warnings).toEqual([]);
  });
});
