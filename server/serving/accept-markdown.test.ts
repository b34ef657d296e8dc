import { describe, expect, it } from 'vitest';
import { prefersMarkdown } from './accept-markdown.ts';

describe('prefersMarkdown', () => {
  it.each([
    [undefined, false],
    ['text/html', false],
    ['*/*', false],
    ['text/markdown', true],
    ['TEXT/MARKDOWN', true],
    ['text/markdown;q=0', false],
    ['text/markdown; q=0, text/html', false],
    ['text/html, text/markdown', false],
    // Equal q-values: the client's own order decides.
    ['text/markdown, text/html', true],
    ['text/markdown, text/html;q=0.5', true],
    ['text/html;q=0.4, text/markdown;q=0.9', true],
    ['text/markdown, */*', true],
    ['text/markdown;q=0.1, */*', false],
    ['application/json, text/markdown;q=0.5', true],
    ['text/x-markdown', false],
    // Parameters the Markdown answer satisfies (issue 34: these got the page).
    ['text/markdown; charset=utf-8', true],
    ['text/markdown;charset="UTF-8";q=0.9, text/html;q=0.5', true],
    ['text/markdown; variant=GFM', true],
    ['text/markdown; charset=utf-8; q=0, text/html', false],
    // One it does not: the page.
    ['text/markdown; charset=iso-8859-1', false],
  ] as const)('Accept: %s → Markdown %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});
