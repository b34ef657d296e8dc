import { describe, expect, it } from 'vitest';
import { currentRendering, keptColumns, storedRendering } from './current-rendering.ts';
import { BODY_RENDER_VERSION, renderMarkdownBody } from './render.ts';

describe('the rendering a stored body is read with', () => {
  const kept = { content_html: '<p>kept</p>', content_text: 'kept', body_version: BODY_RENDER_VERSION, link_targets: null, content_prose: 'kept' };

  it.each([
    ['the current renderer', kept, { html: '<p>kept</p>', text: 'kept', links: null, prose: 'kept' }],
    ['another renderer', { ...kept, body_version: 'old' }, null],
    ['no renderer (before migration 0006)', { ...kept, body_version: null }, null],
    ['no HTML kept (before migration 0007)', { ...kept, content_html: null }, null],
    ['no text kept', { ...kept, content_text: null }, null],
    ['no prose kept (before migration 0015)', { ...kept, content_prose: null }, null],
  ])('a row rendered by %s → %j', (_name, row, expected) => {
    expect(storedRendering(row)).toEqual(expected);
  });

  it('uses the kept rendering when current, without rendering', () => {
    const render = () => {
      throw new Error('rendered');
    };
    expect(currentRendering({ ...kept, content_markdown: 'other *text*' }, render).html).toBe('<p>kept</p>');
  });

  it('renders in memory otherwise, the same as a save would keep', () => {
    const row = { ...kept, body_version: 'old', content_markdown: 'A *new* [link](../x).' };
    const body = currentRendering(row);
    expect(body).toEqual(renderMarkdownBody(row.content_markdown));
    expect(keptColumns(body)).toEqual({ content_html: body.html, content_text: body.text, body_version: BODY_RENDER_VERSION, link_targets: body.links, content_prose: body.prose });
  });
});
