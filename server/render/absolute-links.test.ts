import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { absoluteHtmlLinks, absoluteMarkdownLinks, resolveTarget } from './absolute-links.ts';
import { pageHtmlOf } from './public-body.ts';

const AR = 'https://news.example/harbour/ar/tides';
const DEFAULT = 'https://news.example/harbour/tides';

describe('resolveTarget', () => {
  it.each([
    ['./boats', AR, 'https://news.example/harbour/ar/boats'],
    ['boats', AR, 'https://news.example/harbour/ar/boats'],
    ['./boats', DEFAULT, 'https://news.example/harbour/boats'],
    ['../sahara/dunes', DEFAULT, 'https://news.example/sahara/dunes'],
    ['/sahara/', AR, 'https://news.example/sahara/'],
    ['./boats?lang=ar#x', DEFAULT, 'https://news.example/harbour/boats?lang=ar#x'],
    ['//cdn.example/x.png', AR, 'https://cdn.example/x.png'],
    ['#notes', AR, '#notes'],
    ['https://example.org/a', AR, 'https://example.org/a'],
    ['mailto:a@example.org', AR, 'mailto:a@example.org'],
  ])('%s in %s → %s', (url, base, expected) => {
    expect(resolveTarget(url, base)).toBe(expected);
  });
});

describe('absoluteMarkdownLinks', () => {
  it('rewrites only the destinations, keeping every other byte', () => {
    const md = [
      'See [the boats](./boats "Boats"), [again](<./boats and more>), ![a *b*](img/x.png) and [ref][r].',
      '',
      '[r]: ../sahara/dunes',
      '',
      '| [cell](boats) | [abs](https://example.org/) |',
      '| - | - |',
      '',
      'Footnote[^1], [anchor](#notes), `[code](./not-a-link)`.',
      '',
      '[^1]: The note with [a link](./stars).',
      '',
      '<a href="./raw">raw</a> <img src=\'pic.png\' alt="">',
    ].join('\n');
    expect(absoluteMarkdownLinks(md, AR).split('\n')).toEqual([
      'See [the boats](https://news.example/harbour/ar/boats "Boats"), [again](<https://news.example/harbour/ar/boats%20and%20more>), ![a *b*](https://news.example/harbour/ar/img/x.png) and [ref][r].',
      '',
      '[r]: https://news.example/harbour/sahara/dunes',
      '',
      '| [cell](https://news.example/harbour/ar/boats) | [abs](https://example.org/) |',
      '| - | - |',
      '',
      'Footnote[^1], [anchor](#notes), `[code](./not-a-link)`.',
      '',
      '[^1]: The note with [a link](https://news.example/harbour/ar/stars).',
      '',
      '<a href="https://news.example/harbour/ar/raw">raw</a> <img src=\'https://news.example/harbour/ar/pic.png\' alt="">',
    ]);
  });

  it('decodes escapes and entities before resolving, and writes a destination Markdown reads back', () => {
    const out = absoluteMarkdownLinks('[x](./a\\(b\\)&amp;c) [y](<./sp ace>)', DEFAULT);
    expect(out).toBe('[x](https://news.example/harbour/a%28b%29&c) [y](<https://news.example/harbour/sp%20ace>)');
    const hrefs = [...new MarkdownIt().render(out).matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['https://news.example/harbour/a%28b%29&amp;c', 'https://news.example/harbour/sp%20ace']);
  });

  it('returns a body without relative targets as it is, without parsing', () => {
    const md = 'Only [absolute](https://example.org) and [fragment](#x) links, and text (with parentheses).';
    expect(absoluteMarkdownLinks(md, AR)).toBe(md);
  });
});

describe('absoluteHtmlLinks', () => {
  it('resolves href and src, and keeps fragments and absolute targets', () => {
    const html = '<p><a href="./boats">b</a> <a href="#user-content-notes">n</a> <a href="https://example.org/">e</a> <img src="pic.png" alt="p"></p>';
    expect(absoluteHtmlLinks(html, AR)).toBe(
      '<p><a href="https://news.example/harbour/ar/boats">b</a> <a href="#user-content-notes">n</a> <a href="https://example.org/">e</a> <img src="https://news.example/harbour/ar/pic.png" alt="p"></p>',
    );
  });

  it('leaves HTML without relative targets untouched, text that looks like an attribute included', () => {
    const html = '<p>Write href="./x" in text, <a href="https://example.org/">here</a>.</p>';
    expect(absoluteHtmlLinks(html, AR)).toBe(html);
  });
});

describe('pageHtmlOf (the article page: issue 34)', () => {
  const t = { htmlUrl: 'https://news.example/tech/en/hello', html: '<p><a href="./other">o</a> <a href="../other-channel/slug">c</a> <a href="/about">a</a> <a href="https://elsewhere.example/x">x</a> <a href="#notes">n</a> <img src="../../media/a.png" alt="a"></p>' };

  it('resolves relative targets against the canonical page, root-relative on the site, as the Markdown resolves them', () => {
    const html = pageHtmlOf(t, 'https://news.example');
    expect(html).toContain('href="/tech/en/other"');
    expect(html).toContain('href="/tech/other-channel/slug"');
    expect(html).toContain('href="/about"');
    expect(html).toContain('href="https://elsewhere.example/x"');
    expect(html).toContain('href="#notes"');
    expect(html).toContain('src="/media/a.png"');
    // The Markdown's absolute targets name the same addresses.
    const md = absoluteMarkdownLinks('[c](../other-channel/slug)', t.htmlUrl);
    expect(md).toBe('[c](https://news.example/tech/other-channel/slug)');
  });

  it('leaves a body without relative targets byte for byte', () => {
    const html = '<p><a href="https://x.example/">x</a></p>';
    expect(pageHtmlOf({ htmlUrl: t.htmlUrl, html }, 'https://news.example')).toBe(html);
  });
});
