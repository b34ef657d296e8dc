import { describe, expect, it } from 'vitest';
import { renderArticleList } from './article-list-json.ts';
import { standardFixtures } from '../../test/support/view-models.ts';
import { cursorPosition, listArticlesFor, listedTranslation } from '../read-model/selection.ts';
import type { AnyPublicArticle } from '../read-model/view-models.ts';

const { channel, articles, bilingual } = standardFixtures();
const parse = (text: string) => JSON.parse(text) as Record<string, any>;
const SUMMARY_FIELDS = ['id', 'slug', 'title', 'excerpt', 'language', 'default_language', 'html_url', 'markdown_url', 'json_url'];
const page = (selfUrl: string) => ({ limit: 20, nextCursor: null, selfUrl, nextUrl: null });

describe('listArticlesFor', () => {
  it('orders newest first by publication, then by id descending', () => {
    expect(listArticlesFor(articles, null).map((a) => a.id)).toEqual([12, 11, 10]);
    expect(listArticlesFor([...articles].reverse(), null).map((a) => a.id)).toEqual([12, 11, 10]);
  });

  it('with a language keeps only articles with that exact translation (rule 7)', () => {
    expect(listArticlesFor(articles, 'en').map((a) => a.id)).toEqual([11, 10]);
    expect(listArticlesFor(articles, 'ar').map((a) => a.id)).toEqual([12, 10]);
    expect(listArticlesFor(articles, 'fr')).toEqual([]);
  });

  it('shows the primary translation without a language, the exact one with', () => {
    expect(listArticlesFor(articles, null).map((a) => listedTranslation(a, null).language)).toEqual(['ar', 'en', 'en']);
    expect(listedTranslation(bilingual, 'ar').language).toBe('ar');
  });

  it('gives the keyset position the cursor carries', () => {
    expect(cursorPosition(bilingual)).toEqual({ p: '2026-02-01T09:00:00.000Z', id: 10 });
  });
});

describe('renderArticleList', () => {
  it('is an ArticleCollection of ArticleSummary items, one version per article without a language', () => {
    const body = parse(renderArticleList(channel, articles, null, page(channel.articlesJsonUrl)));
    expect(Object.keys(body)).toEqual(['schema_version', 'articles', 'pagination', '_links']);
    expect(body.schema_version).toBe('1.0');
    for (const item of body.articles) expect(Object.keys(item)).toEqual(SUMMARY_FIELDS);
    expect(body.articles.map((a: any) => [a.id, a.language])).toEqual([
      [12, 'ar'],
      [11, 'en'],
      [10, 'en'],
    ]);
    expect(body.articles[2]).toEqual({
      id: 10,
      slug: 'hello-world',
      title: 'Hello: "World" & <friends>',
      excerpt: 'A first look at the press.',
      language: 'en',
      default_language: 'en',
      html_url: 'https://news.example/journal/en/hello-world',
      markdown_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world.md?lang=en',
      json_url: 'https://news.example/api/public/v1/channels/journal/articles/hello-world?lang=en',
    });
    expect(body._links).toEqual({ self: channel.articlesJsonUrl, next: null, channel: channel.jsonUrl });
  });

  it('in Arabic lists only the articles published in Arabic, in Arabic', () => {
    const selfUrl = `${channel.articlesJsonUrl}?lang=ar`;
    const body = parse(renderArticleList(channel, articles, 'ar', page(selfUrl)));
    expect(body.articles.map((a: any) => [a.id, a.language, a.title])).toEqual([
      [12, 'ar', 'بالعربية فقط'],
      [10, 'ar', 'مرحبا: العالم'],
    ]);
    expect(body._links.channel).toBe('https://news.example/api/public/v1/channels/journal?lang=ar');
  });

  it('shows the first `limit` items and the pagination it is given', () => {
    const next = `${channel.articlesJsonUrl}?cursor=C`;
    const body = parse(renderArticleList(channel, articles, null, { limit: 2, nextCursor: 'C', selfUrl: channel.articlesJsonUrl, nextUrl: next }));
    expect(body.articles.map((a: any) => a.id)).toEqual([12, 11]);
    expect(body.pagination).toEqual({ limit: 2, next_cursor: 'C', has_more: true });
    expect(body._links.next).toBe(next);
  });

  it('is deterministic, whatever the input order', () => {
    const a = renderArticleList(channel, articles, 'en', page('https://x/l'));
    expect(renderArticleList(channel, [...articles].reverse(), 'en', page('https://x/l'))).toBe(a);
    expect(a).toBe(`${JSON.stringify(JSON.parse(a), null, 2)}\n`);
  });
});

describe('renderArticleList bytes', () => {
  // What the page was before items were written once and pasted: one JSON.stringify of the whole body.
  const reference = (list: readonly AnyPublicArticle[], language: string | null, limit: number) =>
    `${JSON.stringify(
      {
        schema_version: '1.0',
        articles: listArticlesFor(list, language)
          .slice(0, limit)
          .map((a) => {
            const t = listedTranslation(a, language);
            return { id: a.id, slug: a.slug, title: t.title, excerpt: t.excerpt, language: t.language, default_language: a.defaultLanguage, html_url: t.htmlUrl, markdown_url: t.markdownUrl, json_url: t.jsonUrl };
          }),
        pagination: { limit, next_cursor: 'c', has_more: true },
        _links: { self: 's', next: 'n', channel: channel.jsonUrl },
      },
      null,
      2,
    )}\n`;
  const info = (limit: number) => ({ limit, nextCursor: 'c', selfUrl: 's', nextUrl: 'n' });

  it.each([
    ['every article, no language', null, 20],
    ['Arabic', 'ar', 20],
    ['one item', null, 1],
    ['no item', 'fr', 20],
  ])('are exactly one JSON.stringify of the whole page: %s', (_name, language, limit) => {
    const rendered = renderArticleList(channel, articles, language, info(limit));
    // The channel link depends on the language; the reference takes it from the rendered page.
    const channelLink = (JSON.parse(rendered) as { _links: { channel: string } })._links.channel;
    expect(rendered).toBe(reference(articles, language, limit).replace(JSON.stringify(channel.jsonUrl), JSON.stringify(channelLink)));
    // The second render pastes remembered items: still the same bytes.
    expect(renderArticleList(channel, articles, language, info(limit))).toBe(rendered);
  });

  it('keeps titles that need escaping byte for byte', () => {
    const odd = articles.map((a) => ({ ...a, translations: a.translations.map((t) => ({ ...t, title: `"Quoted" \\ line\u2028break 😀 </script>` })) }));
    const rendered = renderArticleList(channel, odd as readonly AnyPublicArticle[], null, info(20));
    const channelLink = (JSON.parse(rendered) as { _links: { channel: string } })._links.channel;
    expect(rendered).toBe(reference(odd, null, 20).replace(JSON.stringify(channel.jsonUrl), JSON.stringify(channelLink)));
  });
});
