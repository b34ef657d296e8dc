import { describe, expect, it } from 'vitest';
import { renderArticleJson, withContentHtml } from './article-json.ts';
import { publicHtmlOf } from './public-body.ts';
import { buildArticle, standardFixtures } from '../../test/support/view-models.ts';

const { channel, bilingual, englishOnly } = standardFixtures();
const parse = (text: string) => JSON.parse(text) as Record<string, any>;

// The spec's Article table, in order, with the JSON type of each field; `?` marks optional ones.
const ARTICLE_FIELDS: ReadonlyArray<[string, string]> = [
  ['schema_version', 'string'],
  ['id', 'number'],
  ['slug', 'string'],
  ['title', 'string'],
  ['excerpt?', 'string|null'],
  ['language', 'string'],
  ['default_language', 'string'],
  ['canonical_url', 'string'],
  ['image?', 'object|null'],
  ['publisher', 'object'],
  ['author?', 'object'],
  ['published_at?', 'string|null'],
  ['updated_at?', 'string|null'],
  ['content_markdown', 'string'],
  ['content_html?', 'string'],
  ['available_translations', 'array'],
  ['_links', 'object'],
];
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('renderArticleJson', () => {
  it('has every required field of the spec, with its type, in table order and nothing else', () => {
    for (const [article, language, options] of [
      [bilingual, 'en', { includeHtml: true }],
      [bilingual, 'ar', {}],
      [englishOnly, 'en', {}],
    ] as const) {
      const body = parse(renderArticleJson(article, language, options));
      const spec = ARTICLE_FIELDS.map(([name]) => name.replace('?', ''));
      const keys = Object.keys(body);
      expect(keys.filter((k) => !spec.includes(k))).toEqual([]);
      expect(keys).toEqual(spec.filter((k) => keys.includes(k)));
      for (const [name, type] of ARTICLE_FIELDS) {
        const key = name.replace('?', '');
        if (!name.endsWith('?')) expect(keys, key).toContain(key);
        if (key in body) expect(type.split('|'), key).toContain(typeOf(body[key]));
      }
    }
  });

  it('renders the English version exactly', () => {
    const body = parse(renderArticleJson(bilingual, 'en'));
    const en = bilingual.translations[0]!;
    expect(body).toMatchObject({
      schema_version: '1.0',
      id: 10,
      slug: 'hello-world',
      title: 'Hello: "World" & <friends>',
      excerpt: 'A first look at the press.',
      language: 'en',
      default_language: 'en',
      canonical_url: 'https://news.example/journal/en/hello-world',
      image: { url: 'https://news.example/media/journal/cover.jpg', alt: 'A printing press' },
      publisher: { id: 1, slug: 'journal', name: 'Pressroom Journal', url: 'https://news.example/journal/' },
      author: { name: 'Jane Doe' },
      published_at: en.publishedAt,
      updated_at: en.updatedAt,
      content_markdown: en.markdown,
    });
    expect(body).not.toHaveProperty('content_html');
    expect(body._links).toEqual({
      self: 'https://news.example/api/public/v1/channels/journal/articles/hello-world?lang=en',
      html: 'https://news.example/journal/en/hello-world',
      markdown: 'https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=en',
      channel: 'https://news.example/api/public/v1/channels/journal',
      articles: 'https://news.example/api/public/v1/channels/journal/articles?lang=en',
      rss: 'https://news.example/journal/en/rss.xml',
    });
  });

  it('names the publisher and links the channel in the Arabic version', () => {
    const body = parse(renderArticleJson(bilingual, 'ar'));
    expect(body.language).toBe('ar');
    expect(body.title).toBe('مرحبا: العالم');
    expect(body.publisher).toEqual({ id: 1, slug: 'journal', name: 'مجلة بريسروم', url: 'https://news.example/journal/ar/' });
    expect(body._links.channel).toBe('https://news.example/api/public/v1/channels/journal?lang=ar');
    expect(body._links.rss).toBe('https://news.example/journal/ar/rss.xml');
  });

  it('lists every published translation, this one included, the same on each sibling', () => {
    const en = parse(renderArticleJson(bilingual, 'en')).available_translations;
    const ar = parse(renderArticleJson(bilingual, 'ar')).available_translations;
    expect(en).toEqual(ar);
    expect(en).toEqual([
      {
        language: 'en',
        title: 'Hello: "World" & <friends>',
        html_url: 'https://news.example/journal/en/hello-world',
        markdown_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=en',
        json_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world?lang=en',
        api_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world?lang=en',
      },
      expect.objectContaining({ language: 'ar', title: 'مرحبا: العالم' }),
    ]);
  });

  it('adds content_html only when asked, right after content_markdown', () => {
    const body = parse(renderArticleJson(bilingual, 'en', { includeHtml: true }));
    expect(body.content_html).toBe(bilingual.translations[0]!.html);
    const keys = Object.keys(body);
    expect(keys.indexOf('content_html')).toBe(keys.indexOf('content_markdown') + 1);
  });

  it('omits author and keeps excerpt and image as null when absent', () => {
    const body = parse(renderArticleJson(englishOnly, 'en'));
    expect(body).not.toHaveProperty('author');
    expect(body.excerpt).toBeNull();
    expect(body.image).toBeNull();
    expect(body.available_translations).toHaveLength(1);
  });

  it('links a language the channel lacks to that language\'s channel page, list and feed, and the default channel document', () => {
    const french = buildArticle(channel, {
      id: 20,
      slug: 'bonjour',
      defaultLanguage: 'en',
      translations: [
        { language: 'en', title: 'Hi', publishedAt: '2026-01-01T00:00:00.000Z' },
        { language: 'fr', title: 'Salut', publishedAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    const body = parse(renderArticleJson(french, 'fr'));
    expect(body.publisher.name).toBe('Pressroom Journal');
    expect(body.publisher.url).toBe('https://news.example/journal/fr/');
    // The channel has no French document (no substitution of its own fields): the default one.
    expect(body._links.channel).toBe(channel.jsonUrl);
    // The French list and feed exist: the article is published in French.
    expect(body._links.articles).toBe(`${channel.articlesJsonUrl}?lang=fr`);
    expect(body._links.rss).toBe('https://news.example/journal/fr/rss.xml');
  });

  it('refuses a language that is not published (the caller answers 404)', () => {
    expect(() => renderArticleJson(englishOnly, 'ar')).toThrow(RangeError);
  });

  it('is deterministic and written as 2-space JSON with a final newline', () => {
    const a = renderArticleJson(bilingual, 'ar', { includeHtml: true });
    expect(renderArticleJson(bilingual, 'ar', { includeHtml: true })).toBe(a);
    expect(a).toBe(`${JSON.stringify(JSON.parse(a), null, 2)}\n`);
  });
});

describe('renderArticleJson with a body stored before the safe-Markdown rule', () => {
  it('gives content_markdown without unsafe HTML or link targets', () => {
    const stored = '<iframe src="https://evil.example/"></iframe>\n\n[x](data:text/html,hi) <meta http-equiv="refresh" content="0">\n';
    const article = buildArticle(channel, { id: 78, slug: 'old', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Old', markdown: stored, publishedAt: '2026-02-01T09:00:00.000Z' }] });
    const json = JSON.parse(renderArticleJson(article, 'en'));
    expect(json.content_markdown).not.toMatch(/iframe|data:|<meta/);
    expect(json.content_markdown).toContain('x');
  });
});

describe('withContentHtml (include=html from the built document)', () => {
  // Bodies whose text looks like the document's own members: only structure may be matched.
  const tricky = buildArticle(channel, {
    id: 79,
    slug: 'tricky',
    defaultLanguage: 'en',
    translations: [
      {
        language: 'en',
        title: '"available_translations": [] and "content_html": x',
        markdown: 'A line\n\n  "available_translations": [\n\n,\n  "content_html": "no"\n\n[rel](../other) and "updated_at": "2026-01-01T00:00:00.000Z",\n',
        publishedAt: '2026-02-01T09:00:00.000Z',
      },
    ],
  });
  const cases = [
    [bilingual, 'en'],
    [bilingual, 'ar'],
    [englishOnly, 'en'],
    [tricky, 'en'],
  ] as const;

  it.each(cases)('gives the bytes of rendering with includeHtml (article %#)', (article, language) => {
    const shown = article.translations.find((t) => t.language === language)!;
    const document = renderArticleJson(article, language);
    expect(withContentHtml(document, { id: article.id, ...shown }, publicHtmlOf(shown))).toBe(renderArticleJson(article, language, { includeHtml: true }));
  });

  it('is null for a document of another version, article, language or address, or one that has the member already', () => {
    const shown = bilingual.translations[0]!;
    const document = renderArticleJson(bilingual, 'en');
    const version = { id: bilingual.id, ...shown };
    const html = publicHtmlOf(shown);
    expect(withContentHtml(document, { ...version, updatedAt: '2000-01-01T00:00:00.000Z' }, html)).toBeNull();
    expect(withContentHtml(document, { ...version, id: 11 }, html)).toBeNull();
    expect(withContentHtml(document, { ...version, language: 'ar' }, html)).toBeNull();
    expect(withContentHtml(document, { ...version, htmlUrl: `${shown.htmlUrl}-moved` }, html)).toBeNull();
    expect(withContentHtml(renderArticleJson(bilingual, 'en', { includeHtml: true }), version, html)).toBeNull();
    expect(withContentHtml(JSON.stringify(JSON.parse(document)), version, html)).toBeNull();
  });
});
