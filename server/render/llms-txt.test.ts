import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { LLMS_CHANNEL_ARTICLES, LLMS_RECENT_ARTICLES, renderChannelLlmsPart, renderChannelLlmsTxt, renderLlmsTxt } from './llms-txt.ts';
import { articleParts } from '../read-model/selection.ts';
import { buildArticle, buildChannel, groupByChannel, SITE, standardFixtures } from '../../test/support/view-models.ts';
import { parseLlmsFile } from '../../test/validate/llms-txt-parser.ts';

const { channel, articles } = standardFixtures();

describe('renderLlmsTxt', () => {
  const text = renderLlmsTxt([channel], groupByChannel(articles), SITE);

  it('has the llms.txt shape: H1, blockquote summary, citation note, one H2 per channel', () => {
    const blocks = text.split('\n\n');
    expect(blocks[0]).toBe('# Pressroom News');
    expect(blocks[1]!.startsWith('> ')).toBe(true);
    for (const word of ['canonical_url', 'title', 'publisher', 'language', 'publication date', 'no extra reuse or training rights']) {
      expect(blocks[2]).toContain(word);
    }
    expect(blocks[3]).toBe('## Pressroom Journal');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
  });

  it('lists every published translation, articles newest first, primary first', () => {
    const items = text.split('\n').filter((l) => l.startsWith('- '));
    expect(items.map((l) => /\]\(([^)]+)\)/.exec(l)![1])).toEqual([
      'https://news.example/journal/llms.txt',
      'https://news.example/api/public/v1/channels/journal/articles/arabic-only.md?lang=ar',
      'https://news.example/api/public/v1/channels/journal/articles/english-only.md?lang=en',
      'https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=en',
      'https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=ar',
    ]);
    expect(items[4]).toBe(
      '- [مرحبا: العالم](https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=ar): نظرة أولى على المطبعة. (ar, published 2026-02-02)',
    );
    expect(items[3]).toContain('[Hello: "World" \\& \\<friends\\>]');
  });

  it('escapes link text, skips channels without articles, and is deterministic', () => {
    const empty = buildChannel({ id: 9, slug: 'empty', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Empty channel' }] });
    const odd = buildArticle(channel, {
      id: 80,
      slug: 'odd',
      defaultLanguage: 'en',
      translations: [{ language: 'en', title: 'a [b]\nc', excerpt: 'line one\nline two', publishedAt: '2025-01-01T00:00:00.000Z' }],
    });
    const out = renderLlmsTxt([empty, channel], groupByChannel([...articles, odd]), SITE);
    expect(out).not.toContain('Empty channel');
    expect(out).toContain('- [a \\[b&#93; c](https://news.example/api/public/v1/channels/journal/articles/odd.md?lang=en): line one line two (en, published 2025-01-01)');
    expect(renderLlmsTxt([channel, empty], groupByChannel([odd, ...articles].reverse()), SITE)).toBe(out);
  });
});

describe('renderLlmsTxt with many articles, and renderChannelLlmsTxt', () => {
  const many = Array.from({ length: LLMS_RECENT_ARTICLES + 5 }, (_, i) =>
    buildArticle(channel, { id: 100 + i, slug: `n-${i}`, defaultLanguage: 'en', translations: [{ language: 'en', title: `N ${i}`, publishedAt: `2027-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z` }] }),
  );

  it('lists only each channel’s newest articles and links the channel’s own file', () => {
    const text = renderLlmsTxt([channel], groupByChannel([...articles, ...many]), SITE);
    const items = text.split('\n').filter((l) => l.startsWith('- '));
    expect(items).toHaveLength(LLMS_RECENT_ARTICLES + 1);
    expect(items[1]).toContain(`[N ${LLMS_RECENT_ARTICLES + 4}]`);
    expect(text).toContain('(https://news.example/journal/llms.txt)');
  });

  it('lists the channel’s newest in its own file and links every part, whose lines cover every translation', () => {
    const text = renderChannelLlmsTxt(channel, [...articles, ...many], SITE);
    expect(text.split('\n\n')[0]).toBe('# Pressroom Journal · Pressroom News');
    expect(text.split('\n').filter((l) => l.startsWith('- [') && l.includes('.md'))).toHaveLength(4 + many.length);
    expect(text).toContain('](https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=ar)');
    expect(text).toContain('- [Pressroom Journal, part 1](https://news.example/journal/llms-1.txt)');
    expect(text.endsWith('\n')).toBe(true);
    const part = renderChannelLlmsPart(channel, articleParts([...articles, ...many])[0]!, 1, SITE);
    expect(part.split('\n\n')[0]).toBe('# Pressroom Journal, part 1 · Pressroom News');
    expect(part.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(4 + many.length);
  });

  it('keeps the channel’s own file to its newest articles', () => {
    const lots = Array.from({ length: LLMS_CHANNEL_ARTICLES + 120 }, (_, i) =>
      buildArticle(channel, { id: 500 + i, slug: `l-${i}`, defaultLanguage: 'en', translations: [{ language: 'en', title: `L ${i}`, publishedAt: '2027-02-01T00:00:00.000Z' }] }),
    );
    const text = renderChannelLlmsTxt(channel, lots, SITE);
    expect(text.split('\n').filter((l) => l.includes('.md'))).toHaveLength(LLMS_CHANNEL_ARTICLES);
    expect(text).toContain('(https://news.example/journal/llms-2.txt)');
    expect(text).not.toContain('llms-3.txt');
  });
});

describe('publishers\' text in llms.txt', () => {
  const HOSTILE = 'Evil](javascript:alert(1)) [x\n## Injected heading\n<script>alert(2)</script> &#106;s `code ![i](data:x) | # end #';
  const evil = buildChannel({ id: 5, slug: 'evil', defaultLanguage: 'en', translations: [{ language: 'en', title: HOSTILE }] });
  const article = buildArticle(evil, {
    id: 50,
    slug: 'evil-article',
    defaultLanguage: 'en',
    translations: [{ language: 'en', title: HOSTILE, excerpt: HOSTILE, publishedAt: '2026-03-01T00:00:00.000Z' }],
  });
  const outputs = [
    ['llms.txt', renderLlmsTxt([evil], groupByChannel([article]), SITE)],
    ['channel llms.txt', renderChannelLlmsTxt(evil, [article], SITE)],
    ['part', renderChannelLlmsPart(evil, [article], 1, SITE)],
  ] as const;

  it.each(outputs)('%s: titles and excerpts stay text — no links, HTML, headings or lines of their own', (_name, text) => {
    const html = new MarkdownIt({ html: true }).render(text);
    expect(html).not.toMatch(/<script|href="(?:javascript|data)|src="data|<h2>Injected/);
    expect(text).not.toMatch(/^## Injected/m);
    // Every link is one of ours.
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^https:\/\/news\.example\//);
    // The text itself reads back whole.
    expect(html).toContain('Evil](javascript:alert(1)) [x ## Injected heading &lt;script&gt;alert(2)&lt;/script&gt; &amp;#106;s `code ![i](data:x) | # end #');
  });
});

describe('llms files as the llms.txt reference parser reads them (test/validate/llms-txt-parser.ts)', () => {
  const AWKWARD = ['Brackets ] and [ and ] again', 'Parens (a) and \\ backslash', 'نص عربي 🚀 ]', 'Every article'];
  const twin = buildChannel({ id: 7, slug: 'twin', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Pressroom Journal' }] });
  const odd = AWKWARD.map((title, i) =>
    buildArticle(channel, { id: 300 + i, slug: `awkward-${i}`, defaultLanguage: 'en', translations: [{ language: 'en', title, excerpt: `${title}: (excerpt)`, publishedAt: '2026-04-01T00:00:00.000Z' }] }),
  );
  const twinArticle = buildArticle(twin, { id: 400, slug: 'twin-article', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Twin', publishedAt: '2026-04-02T00:00:00.000Z' }] });
  const all = [...articles, ...odd];
  const md = new MarkdownIt();
  /** A link text as a Markdown reader reads it: escapes and character references decoded. */
  const read = (s: string) => md.utils.unescapeAll(s);

  it('/llms.txt: title, summary, info, one uniquely named section per channel, every line a link', () => {
    const file = parseLlmsFile(renderLlmsTxt([channel, twin], groupByChannel([...all, twinArticle]), SITE));
    expect(file.title).toBe('Pressroom News');
    expect(file.summary).toMatch(/^Pressroom News publishes/);
    expect(file.info).toContain('canonical_url');
    expect([...file.sections.keys()]).toEqual(['Pressroom Journal (https://news.example/journal/)', 'Pressroom Journal (https://news.example/twin/)']);
    const journal = file.sections.get('Pressroom Journal (https://news.example/journal/)')!;
    expect(journal[0]!.url).toBe('https://news.example/journal/llms.txt');
    expect(journal.map((l) => read(l.title))).toEqual(expect.arrayContaining(AWKWARD));
    for (const link of journal) expect(link.url).toMatch(/^https:\/\/news\.example\/\S+$/);
  });

  it('/{channel}/llms.txt and its parts: every title read back exactly, parts linked', () => {
    const own = parseLlmsFile(renderChannelLlmsTxt(channel, all, SITE));
    expect(own.title).toBe('Pressroom Journal · Pressroom News');
    expect([...own.sections.keys()]).toEqual(['Newest articles', 'Every article']);
    expect(own.sections.get('Newest articles')!.map((l) => read(l.title))).toEqual(expect.arrayContaining(AWKWARD));
    expect(own.sections.get('Every article')!.map((l) => l.url)).toEqual(['https://news.example/journal/llms-1.txt']);
    const part = parseLlmsFile(renderChannelLlmsPart(channel, articleParts(all)[0]!, 1, SITE));
    expect([...part.sections.keys()]).toEqual(['Part 1']);
    expect(part.sections.get('Part 1')!.map((l) => read(l.title))).toEqual(expect.arrayContaining(AWKWARD));
  });

  it('the port fails where the reference parser fails: prose in a section, an escaped ] in a title', () => {
    expect(() => parseLlmsFile('# T\n\n> s\n\ninfo\n\n## S\n\nSome prose.\n- [a](https://x/)\n')).toThrow(/not a link item/);
    expect(() => parseLlmsFile('# T\n\n> s\n\ninfo\n\n## S\n\n- [a \\] b](https://x/)\n')).toThrow(/not a link item/);
  });
});
