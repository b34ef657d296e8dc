import { describe, expect, it } from 'vitest';
import { FEED_MAX_ITEMS, renderJsonFeed, renderRss } from './feeds.ts';
import { buildArticle, buildChannel, SITE, standardFixtures } from '../../test/support/view-models.ts';
import { xmlProblems } from '../../test/support/xml-check.ts';

const { channel, articles, bilingual } = standardFixtures();
const items = (xml: string) => [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
const tag = (xml: string, name: string) => new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];
const links = (xml: string) => items(xml).map((item) => tag(item, 'link'));

describe('renderRss', () => {
  it('is well-formed RSS 2.0 with language, self link and a data-derived lastBuildDate', () => {
    const xml = renderRss(channel, articles, 'ar', SITE);
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<rss version="2.0" xmlns:dc="http:\/\/purl.org\/dc\/elements\/1.1\/" xmlns:atom="http:\/\/www.w3.org\/2005\/Atom">/);
    expect(tag(xml, 'title')).toBe('مجلة بريسروم');
    expect(tag(xml, 'link')).toBe('https://news.example/journal/ar/');
    expect(tag(xml, 'language')).toBe('ar');
    // Newest updatedAt among the Arabic items (arabic-only, 1 March), not the clock.
    expect(tag(xml, 'lastBuildDate')).toBe('Sun, 01 Mar 2026 08:00:00 GMT');
    expect(xml).toContain('<atom:link href="https://news.example/journal/ar/rss.xml" rel="self" type="application/rss+xml"/>');
    expect(xml.endsWith('</rss>\n')).toBe(true);
  });

  it('without a language has one published version per article, the primary (rule 7)', () => {
    const xml = renderRss(channel, articles, null, SITE);
    expect(links(xml)).toEqual([
      'https://news.example/journal/ar/arabic-only',
      'https://news.example/journal/en/english-only',
      'https://news.example/journal/en/hello-world',
    ]);
    // It mixes languages (here en and ar): it declares none at channel level rather than a wrong one.
    expect(tag(xml, 'language')).toBeUndefined();
    expect(xml).toContain('href="https://news.example/journal/rss.xml" rel="self"');
  });

  it('with a language has only the articles with that exact translation (rule 7)', () => {
    expect(links(renderRss(channel, articles, 'en', SITE))).toEqual([
      'https://news.example/journal/en/english-only',
      'https://news.example/journal/en/hello-world',
    ]);
    expect(links(renderRss(channel, articles, 'ar', SITE))).toEqual([
      'https://news.example/journal/ar/arabic-only',
      'https://news.example/journal/ar/hello-world',
    ]);
  });

  it('describes each item and points at the full text in Markdown and JSON', () => {
    const [hello] = items(renderRss(channel, [bilingual], 'en', SITE));
    const en = bilingual.translations[0]!;
    expect(tag(hello!, 'title')).toBe('Hello: "World" &amp; &lt;friends&gt;');
    expect(tag(hello!, 'dc:creator')).toBe('Jane Doe');
    expect(hello).toContain(`<enclosure length="12345" type="image/webp" url="https://news.example/media/journal/cover.jpg"/>`);
    expect(hello).toContain(`<guid isPermaLink="true">${en.htmlUrl}</guid>`);
    expect(tag(hello!, 'pubDate')).toBe('Sun, 01 Feb 2026 09:00:00 GMT');
    expect(tag(hello!, 'description')).toBe('<![CDATA[A first look at the press.]]>');
    expect(hello).toContain(`<atom:link rel="alternate" type="text/markdown" hreflang="en" href="${en.markdownUrl}"/>`);
    expect(hello).toContain(`<atom:link rel="alternate" type="application/json" hreflang="en" href="${en.jsonUrl}"/>`);
    expect(hello).not.toContain(en.markdown.trim().slice(0, 20));
  });

  it('describes an item without excerpt by the start of its text', () => {
    const xml = renderRss(channel, articles, 'en', SITE);
    const description = /<!\[CDATA\[(.*)\]\]>/.exec(tag(items(xml)[0]!, 'description')!)![1]!;
    expect(description.startsWith('word word')).toBe(true);
    expect(description.endsWith('…')).toBe(true);
    expect(description.length).toBeLessThanOrEqual(301);
  });

  it(`keeps at most ${FEED_MAX_ITEMS} items, the newest`, () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      buildArticle(channel, {
        id: 100 + i,
        slug: `a-${i}`,
        defaultLanguage: 'en',
        translations: [{ language: 'en', title: `A ${i}`, publishedAt: `2026-05-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z` }],
      }),
    );
    const xml = renderRss(channel, many, null, SITE);
    const got = links(xml);
    expect(got).toHaveLength(FEED_MAX_ITEMS);
    expect(got[0]).toBe('https://news.example/journal/en/a-55');
    expect(xmlProblems(xml)).toEqual([]);
  });

  it('stays well-formed with hostile text and keeps it readable', () => {
    const odd = buildChannel({ id: 5, slug: 'odd', defaultLanguage: 'en', translations: [{ language: 'en', title: 'R&amp;D <lab>' }] });
    const article = buildArticle(odd, {
      id: 50,
      slug: 'odd',
      defaultLanguage: 'en',
      translations: [
        { language: 'en', title: 'a]]>b]]>c\u0000\u0008 \uD800', excerpt: '<script>x</script> ]]> & done', publishedAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    const xml = renderRss(odd, [article], null, SITE);
    expect(xmlProblems(xml)).toEqual([]);
    expect(tag(xml, 'title')).toBe('R&amp;amp;D &lt;lab&gt;');
    expect(tag(xml, 'description')).toBe('R&amp;amp;D &lt;lab&gt;');
    expect(xml).toContain('&lt;script&gt;x&lt;/script&gt; ]]&gt; &amp; done');
    // An empty feed dates itself by the channel.
    expect(tag(renderRss(odd, [], null, SITE), 'lastBuildDate')).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
  });

  it('reads back every title exactly, "]]>" and markup included, in a feed parser', async () => {
    const { parseRssFeed } = await import('feedsmith');
    const title = 'a]]>b ]]> <b>&amp; "q" & \'s\'';
    const article = buildArticle(channel, { id: 70, slug: 'odd', defaultLanguage: 'en', translations: [{ language: 'en', title, publishedAt: '2026-01-01T00:00:00.000Z' }] });
    const xml = renderRss(channel, [article], null, SITE);
    expect(parseRssFeed(xml).items?.map((i) => i.title)).toEqual([title]);
  });

  it('has no item author without one, and an <image> only as the PNG rendition of the avatar', () => {
    const webpOnly = buildChannel({ id: 7, slug: 'c', defaultLanguage: 'en', translations: [{ language: 'en', title: 'C' }], avatarUrl: 'https://news.example/media/c/_channel/avatar-0123456789abcdef.webp' });
    const article = buildArticle(webpOnly, { id: 71, slug: 'x', defaultLanguage: 'en', author: null, translations: [{ language: 'en', title: 'X', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    const xml = renderRss(webpOnly, [article], null, SITE);
    expect(xml).not.toContain('<image>');
    expect(xml).not.toContain('dc:creator');
    expect(xml).not.toContain('<enclosure');
    const png = 'https://news.example/media/c/_channel/avatar-0123456789abcdef.png';
    const withPng = renderRss({ ...webpOnly, feedImageUrl: png }, [article], null, SITE);
    expect(tag(tag(withPng, 'image')!, 'url')).toBe(png);
  });

  it('names its own address for a language the channel lacks', () => {
    const french = buildArticle(channel, {
      id: 60,
      slug: 'salut',
      defaultLanguage: 'fr',
      translations: [{ language: 'fr', title: 'Salut', publishedAt: '2026-01-01T00:00:00.000Z' }],
    });
    const xml = renderRss(channel, [french], 'fr', SITE);
    expect(xml).toContain('href="https://news.example/journal/fr/rss.xml" rel="self"');
    // The channel's own fields are its default language's (no French title exists); the feed is French.
    expect(tag(xml, 'title')).toBe('Pressroom Journal');
    expect(tag(xml, 'language')).toBe('fr');
    expect(tag(xml, 'link')).toBe('https://news.example/journal/fr/');
    const json = JSON.parse(renderJsonFeed(channel, [french], 'fr', SITE));
    expect(json).toMatchObject({ home_page_url: 'https://news.example/journal/fr/', feed_url: 'https://news.example/journal/fr/feed.json', language: 'fr' });
  });

  it('links the channel page that has the same canonical address as the sitemap and the channel JSON', () => {
    expect(tag(renderRss(channel, articles, null, SITE), 'link')).toBe('https://news.example/journal/');
    expect(tag(renderRss(channel, articles, 'en', SITE), 'link')).toBe('https://news.example/journal/');
    expect(tag(renderRss(channel, articles, 'ar', SITE), 'link')).toBe('https://news.example/journal/ar/');
  });

  it('is deterministic, whatever the input order', () => {
    const a = renderRss(channel, articles, null, SITE);
    expect(renderRss(channel, [...articles].reverse(), null, SITE)).toBe(a);
  });
});

describe('renderJsonFeed', () => {
  it('is JSON Feed 1.1 with the same items and order as the RSS feed', () => {
    for (const language of [null, 'en', 'ar']) {
      const feed = JSON.parse(renderJsonFeed(channel, articles, language, SITE));
      expect(feed.items.map((i: { url: string }) => i.url)).toEqual(links(renderRss(channel, articles, language, SITE)));
    }
  });

  it('states language, addresses, dates and the full-text links', () => {
    const feed = JSON.parse(renderJsonFeed(channel, articles, 'ar', SITE));
    expect(Object.keys(feed)).toEqual(['version', 'title', 'home_page_url', 'feed_url', 'description', 'language', 'items']);
    expect(feed).toMatchObject({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'مجلة بريسروم',
      home_page_url: 'https://news.example/journal/ar/',
      feed_url: 'https://news.example/journal/ar/feed.json',
      language: 'ar',
    });
    const ar = bilingual.translations[1]!;
    expect(feed.items[1]).toEqual({
      id: ar.htmlUrl,
      url: ar.htmlUrl,
      title: 'مرحبا: العالم',
      summary: 'نظرة أولى على المطبعة.',
      content_html: `<p>نظرة أولى على المطبعة.</p><p><a href="${ar.htmlUrl}">مرحبا: العالم</a></p>`,
      image: 'https://news.example/media/journal/cover.jpg',
      date_published: ar.publishedAt,
      date_modified: ar.updatedAt,
      authors: [{ name: 'Jane Doe' }],
      language: 'ar',
      _pressroom: { markdown_url: ar.markdownUrl, json_url: ar.jsonUrl },
    });
    expect(feed.items[0]).not.toHaveProperty('authors');
  });

  it('uses the unfiltered feed address without a language, and is deterministic', () => {
    const a = renderJsonFeed(channel, articles, null, SITE);
    expect(JSON.parse(a).feed_url).toBe('https://news.example/journal/feed.json');
    // It mixes languages: each item states its own, the feed none.
    expect(JSON.parse(a)).not.toHaveProperty('language');
    expect(JSON.parse(a).items.map((i: { language: string }) => i.language).sort()).toEqual(['ar', 'en', 'en']);
    expect(renderJsonFeed(channel, [...articles].reverse(), null, SITE)).toBe(a);
    expect(a).toBe(`${JSON.stringify(JSON.parse(a), null, 2)}\n`);
  });
});

describe('xmlProblems (the test helper)', () => {
  it('finds what breaks XML', () => {
    expect(xmlProblems('<a><b></a></b>')).not.toEqual([]);
    expect(xmlProblems('<a>x & y</a>')).not.toEqual([]);
    expect(xmlProblems('<a href="x&y"/>')).not.toEqual([]);
    expect(xmlProblems('<a></a><b/>')).not.toEqual([]);
    expect(xmlProblems('<a>')).not.toEqual([]);
    expect(xmlProblems('<?xml version="1.0"?>\n<a x="1"><![CDATA[<&>]]>&amp;&#38;<b/></a>\n')).toEqual([]);
  });
});
