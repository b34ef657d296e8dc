import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BODY_RENDER_VERSION, renderMarkdownBody } from './index.ts';

/** Bodies that touch every part of the pipeline: GFM, raw HTML, bidi, headings, footnotes, code, autolinks. */
const SAMPLES = [
  '# Title\n\nSee [other](./other-article-slug) and ~~old~~, `code`, https://example.com/a?b=1 and desk@example.com.\n',
  '## Section\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst x = 1;\n```\n\n> quoted *em* **strong**\n',
  'مرحبا بالعالم `npm test` [read more](https://example.com)\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
  'Raw <span onclick="x()">html</span> <script>alert(1)</script><table><tr><td>a</td><td>b</td></tr></table>\u202Ebidi\u202C\n',
  'Text with a footnote[^1] and <div dir="rtl" id="name">block</div>.\n\n[^1]: The note.\n\n![alt](https://example.com/i.png "title")\n',
  '| l | c | r |\n| :- | :-: | -: |\n| 1 | 2 | 3 |\n\n<table><tr><td align="RIGHT">x</td><td align="justify">y</td></tr></table>\n',
];

/**
 * The rendering of the samples when BODY_RENDER_VERSION was last set. When
 * this test fails, the renderer's output changed: bump BODY_RENDER_VERSION
 * (so stored bodies are rendered again) and record the new pair here.
 */
const RECORDED: Record<string, string> = {
  // 2: table alignment as classes, focusable <pre> and <table> (valid HTML, keyboard-reachable when they scroll); a table sample added.
  // 3: the prose (the body's paragraphs) made and kept with the rendering; HTML and text as in 2.
  '3': '276c7e5e718fdd358e166bd604eefd6f6ec3f47cdc5a61458d7c3bf0ffc6362c',
};

describe('BODY_RENDER_VERSION', () => {
  it('changes whenever the rendered bytes change', () => {
    const hash = createHash('sha256');
    for (const sample of SAMPLES) {
      const { html, text, prose } = renderMarkdownBody(sample);
      hash.update(html).update('\0').update(text).update('\0').update(prose).update('\0');
    }
    expect({ version: BODY_RENDER_VERSION, output: hash.digest('hex') }).toEqual({ version: BODY_RENDER_VERSION, output: RECORDED[BODY_RENDER_VERSION] });
  });
});
