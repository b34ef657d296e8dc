import matter from 'gray-matter';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderArticleMarkdown } from './article-markdown.ts';
import { buildArticle, standardFixtures } from '../../test/support/view-models.ts';

const { channel, bilingual, englishOnly } = standardFixtures();

/** Front matter and body as a consumer reads them; gray-matter uses js-yaml (YAML 1.1), `yaml` is YAML 1.2. */
function read(document: string) {
  // gray-matter caches by input; a fresh object per call keeps tests independent.
  const parsed = matter(document, {});
  const yamlBlock = /^---\n([\s\S]*?)\n---\n/.exec(document)![1]!;
  return { data: parsed.data, body: parsed.content, yaml12: parse(yamlBlock) as unknown };
}

describe('renderArticleMarkdown', () => {
  it('round-trips through gray-matter to the documented front matter and the full body', () => {
    const en = bilingual.translations[0]!;
    const doc = renderArticleMarkdown(bilingual, 'en');
    const { data, body, yaml12 } = read(doc);
    const expected = {
      schema_version: '1.0',
      title: 'Hello: "World" & <friends>',
      language: 'en',
      default_language: 'en',
      canonical_url: 'https://news.example/journal/en/hello-world',
      image: { url: 'https://news.example/media/journal/cover.jpg', alt: 'A printing press' },
      publisher: { name: 'Pressroom Journal', url: 'https://news.example/journal/' },
      author: 'Jane Doe',
      published_at: '2026-02-01T09:00:00.000Z',
      updated_at: '2026-02-03T10:00:00.000Z',
      excerpt: 'A first look at the press.',
      json_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world?lang=en',
      translations: bilingual.translations.map((t) => ({
        language: t.language,
        title: t.title,
        markdown_url: t.markdownUrl,
        html_url: t.htmlUrl,
      })),
    };
    expect(data).toEqual(expected);
    expect(Object.keys(data)).toEqual(Object.keys(expected));
    expect(yaml12).toEqual(expected);
    // One blank line separates front matter and body; the body starts with its own `---` rule.
    expect(body).toBe(`\n${en.markdown.trimEnd()}\n`);
  });

  it('keeps Arabic (RTL) values and null author/excerpt intact', () => {
    const { data } = read(renderArticleMarkdown(bilingual, 'ar'));
    expect(data).toMatchObject({ title: 'مرحبا: العالم', language: 'ar', publisher: { name: 'مجلة بريسروم', url: 'https://news.example/journal/ar/' } });
    const other = read(renderArticleMarkdown(englishOnly, 'en')).data;
    expect(other.author).toBeNull();
    expect(other.excerpt).toBeNull();
  });

  it('quotes values YAML 1.1 would misread and values that could break the block', () => {
    const tricky = buildArticle(channel, {
      id: 30,
      slug: 'tricky',
      defaultLanguage: 'no',
      author: { name: "O'Brien: \"the\" author" },
      translations: [
        {
          language: 'no',
          title: 'yes\n---\nfake: front matter\n...',
          excerpt: '# not a comment: {x: [1]} \u200Fمرحبا\u200F',
          markdown: '---\ntitle: injected\n---\nbody\n',
          publishedAt: '2026-04-01T00:00:00.000Z',
        },
      ],
    });
    const doc = renderArticleMarkdown(tricky, 'no');
    const { data, body, yaml12 } = read(doc);
    expect(data).toEqual(yaml12);
    expect(data).toMatchObject({
      language: 'no',
      default_language: 'no',
      title: 'yes\n---\nfake: front matter\n...',
      author: "O'Brien: \"the\" author",
      excerpt: '# not a comment: {x: [1]} \u200Fمرحبا\u200F',
      published_at: '2026-04-01T00:00:00.000Z',
    });
    expect(typeof data.published_at).toBe('string');
    expect(body).toBe('\n---\ntitle: injected\n---\nbody\n');
    // The only lines starting with `---` are the two delimiters and the body's own.
    expect(doc.split('\n').filter((line) => line.startsWith('---'))).toHaveLength(4);
  });

  it('ends with exactly one newline, also for an empty body', () => {
    expect(renderArticleMarkdown(bilingual, 'en').endsWith('.\n')).toBe(true);
    const empty = buildArticle(channel, {
      id: 31,
      slug: 'empty',
      defaultLanguage: 'en',
      translations: [{ language: 'en', title: 'Empty', markdown: '\n\n', publishedAt: '2026-04-01T00:00:00.000Z' }],
    });
    const doc = renderArticleMarkdown(empty, 'en');
    expect(doc.endsWith('---\n')).toBe(true);
    expect(doc.endsWith('\n\n')).toBe(false);
    expect(read(doc).data.title).toBe('Empty');
  });

  it('refuses a language that is not published', () => {
    expect(() => renderArticleMarkdown(englishOnly, 'ar')).toThrow(RangeError);
  });

  it('is deterministic', () => {
    expect(renderArticleMarkdown(bilingual, 'ar')).toBe(renderArticleMarkdown(bilingual, 'ar'));
  });
});

describe('renderArticleMarkdown with a body stored before the safe-Markdown rule', () => {
  it('publishes the body without unsafe HTML or link targets', () => {
    const stored = 'Intro <img src=x alt="A chart" onerror=alert(1)> <img src=y> [x](javascript:alert(1))\n\n<script>alert(2)</script>\n\n<sub>kept</sub>\n';
    const article = buildArticle(channel, { id: 77, slug: 'old', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Old', markdown: stored, publishedAt: '2026-02-01T09:00:00.000Z' }] });
    const { body } = read(renderArticleMarkdown(article, 'en'));
    expect(body).not.toMatch(/onerror|javascript:|<script/);
    // A relative target is resolved against the translation's page (absolute-links.ts).
    expect(body).toContain('<img src="https://news.example/journal/en/x" alt="A chart">');
    // An image with no alt at all is published nowhere (image-alt.ts).
    expect(body).not.toMatch(/\/y"/);
    expect(body).toContain('<sub>kept</sub>');
  });
});
