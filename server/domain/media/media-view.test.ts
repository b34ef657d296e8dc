import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { createPublicUrls } from '../../urls/public-urls.ts';
import { parseMarkdown } from '../body/processors.ts';
import { toImageView } from './media-view.ts';
import type { MediaRow } from '../../store/media.table.ts';

const row: MediaRow = {
  id: 1, channel_id: 1, article_id: null, purpose: 'article', file_name: 'pics/_drafts/a (1).webp', alt: '',
  width: 10, height: 10, bytes: 100, watermark_applied: 0, watermark_type: 'none', created_at: '2026-01-01T00:00:00.000Z',
  content_hash: 'x', focus_x: 50, focus_y: 50, draft: 1, feed_file_name: null,
};
const urls = createPublicUrls('https://news.example', 'https://news.example/dashboard');
const markdownIt = new MarkdownIt({ html: true });

describe('the markdown snippet of an upload', () => {
  it.each([
    ['brackets', 'A [blue] square'],
    ['a link', 'x](javascript:alert(1)) ![y'],
    ['raw HTML', '<img src=x onerror=alert(1)>'],
    ['a code span hiding the bracket', 'a `] b'],
    ['an entity', '&#93; and &lt;'],
    ['emphasis and a table pipe', '*bold* _it_ | cell'],
  ])('keeps alt text with %s as the alt text of one image', (_name, alt) => {
    const view = toImageView(row, urls, alt);
    // CommonMark (remark) reads one paragraph holding one image, with the alt text exactly as sent.
    const tree = parseMarkdown(view.markdown);
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({ type: 'paragraph', children: [{ type: 'image', alt, url: encodeURI(decodeURI(view.url)).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) }] });
    // markdown-it, with raw HTML on, finds one image and nothing else.
    const html = markdownIt.render(view.markdown);
    expect(html).toMatch(/^<p><img src="[^"]*" alt="[^"]*"><\/p>\n$/);
  });
});
