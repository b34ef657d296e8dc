import { describe, expect, it } from 'vitest';
import { withAttachedMarkdown } from './article-save.ts';
import type { PreparedContent } from './article-bodies.ts';

const content = (): PreparedContent => ({
  language: 'en',
  title: 'T',
  excerpt: null,
  content_markdown: 'a\n',
  seo_title: null,
  seo_description: null,
  content_html: '<p>a</p>',
  content_text: 'a',
  body_version: '1',
  link_targets: null,
  content_prose: 'a',
});

describe('withAttachedMarkdown', () => {
  it('keeps the rendering when attach changed nothing', () => {
    const c = content();
    withAttachedMarkdown(c, 'a\n');
    expect(c.content_html).toBe('<p>a</p>');
  });

  it('takes the rendering the body pool made of the planned rewrite, without rendering in the transaction', () => {
    const c = content();
    // A marker no renderer would produce: only taking `rewritten` as it is can put it there.
    withAttachedMarkdown(c, 'b\n', { markdown: 'b\n', html: '<p>from the pool</p>', text: 'b', links: '[]', prose: 'b' });
    expect(c).toMatchObject({ content_markdown: 'b\n', content_html: '<p>from the pool</p>', content_text: 'b' });
  });

  it('renders again when attach did something other than planned', () => {
    const c = content();
    withAttachedMarkdown(c, 'c *d*\n', { markdown: 'b\n', html: '<p>b</p>', text: 'b', links: '[]', prose: 'b' });
    expect(c).toMatchObject({ content_markdown: 'c *d*\n', content_html: '<p>c <em>d</em></p>', content_text: 'c d', content_prose: 'c d' });
  });
});
