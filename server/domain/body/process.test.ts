import { describe, expect, it } from 'vitest';
import { BodyRejectedError, processBody } from './process.ts';
import { renderMarkdownBody } from './render.ts';

describe('processBody', () => {
  it.each<[string, { contentMarkdown?: string; contentHtml?: string }, string]>([
    ['Markdown over a limit', { contentMarkdown: '>'.repeat(2_000) }, 'markdownDepth'],
    ['HTML over a limit', { contentHtml: '<div>'.repeat(10_000) }, 'htmlDepth'],
    // 50 nested blockquotes are within the HTML limit but convert to 50 `>` per line.
    ['HTML whose Markdown is over a limit', { contentHtml: `${'<blockquote>'.repeat(50)}x${'</blockquote>'.repeat(50)}` }, 'markdownDepth'],
  ])('refuses %s before parsing, naming the limit', (_name, body, limit) => {
    let error: unknown;
    try {
      processBody({ title: 'T', ...body });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BodyRejectedError);
    expect((error as BodyRejectedError).limit).toBe(limit);
    expect((error as BodyRejectedError).message).toMatch(/at most \d+/);
  });

  it('prepares and renders a body in one go', () => {
    const body = processBody({ title: 'T', contentMarkdown: '# T\n\nHello *world*' });
    expect(body).toMatchObject({ markdown: 'Hello _world_\n', html: '<p>Hello <em>world</em></p>', text: 'Hello world', version: expect.any(String) });
    expect(body.warnings.map((w) => w.code)).toContain('BODY_TITLE_HEADING_REMOVED');
  });
});

describe('processBody with planned rewrites', () => {
  const draft = '/media/pics/_drafts/0123456789abcdef.webp';
  const final = '/media/pics/harbour/0123456789abcdef.webp';

  it('renders the rewritten Markdown too, so the save need not', () => {
    const body = processBody({ title: 'T', contentMarkdown: `![Boats](${draft})`, rewrites: [[draft, final]] });
    expect(body.markdown).toBe(`![Boats](${draft})\n`);
    expect(body.html).toContain(draft);
    expect(body.rewritten).toEqual({ markdown: `![Boats](${final})\n`, html: expect.stringContaining(final), text: body.text, links: `[[9,50,"${final}"]]`, prose: '' });
  });

  it('leaves it out when the rewrites change nothing', () => {
    expect(processBody({ title: 'T', contentMarkdown: 'No images.', rewrites: [[draft, final]] }).rewritten).toBeUndefined();
  });
});

describe('renderMarkdownBody of a stored body over the limits', () => {
  it('renders its escaped text in one paragraph, without parsing it', () => {
    const markdown = `${'>'.repeat(10_000)} <script>x</script> & "y"`;
    const body = renderMarkdownBody(markdown);
    expect(body.html.startsWith('<p>&gt;&gt;')).toBe(true);
    expect(body.html).toContain('&lt;script&gt;x&lt;/script&gt; &amp; &quot;y&quot;</p>');
    expect(body.text.endsWith('<script>x</script> & "y"')).toBe(true);
  });
});
