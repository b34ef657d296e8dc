import { describe, expect, it } from 'vitest';
import { buildArticle, buildChannel, groupByChannel, SITE, standardFixtures } from '../../test/support/view-models.ts';
import { xmlProblems } from '../../test/support/xml-check.ts';
import { ARTICLES_PER_PART, articleParts } from '../read-model/selection.ts';
import { renderChannelSitemap, renderChannelSitemapPart, renderHomeSitemap, renderSitemapIndex } from './sitemap.ts';

const { channel, articles } = standardFixtures();
const entries = (xml: string) => [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
const locOf = (entry: string) => /<loc>(.*)<\/loc>/.exec(entry)![1]!;
const entryFor = (xml: string, loc: string) => entries(xml).find((e) => locOf(e) === loc)!;
const alternates = (entry: string) => [...entry.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]);

describe('renderChannelSitemap and renderChannelSitemapPart', () => {
  const pages = renderChannelSitemap(channel, articles);
  const xml = renderChannelSitemapPart(channel, articles);

  it('are well-formed urlsets with the xhtml namespace', () => {
    for (const file of [pages, xml]) {
      expect(xmlProblems(file)).toEqual([]);
      expect(file).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
      expect(file.endsWith('</urlset>\n')).toBe(true);
    }
  });

  it('list the channel pages, and every article translation of the part once, sorted by URL, all under the channel folder', () => {
    expect(entries(pages).map(locOf)).toEqual(['https://news.example/journal/', 'https://news.example/journal/ar/']);
    expect(entries(xml).map(locOf)).toEqual([
      'https://news.example/journal/ar/arabic-only',
      'https://news.example/journal/ar/hello-world',
      'https://news.example/journal/en/english-only',
      'https://news.example/journal/en/hello-world',
    ]);
  });

  it('link sibling translations with hreflang, itself and x-default included', () => {
    const en = entryFor(xml, 'https://news.example/journal/en/hello-world');
    expect(alternates(en)).toEqual([
      ['ar', 'https://news.example/journal/ar/hello-world'],
      ['en', 'https://news.example/journal/en/hello-world'],
      ['x-default', 'https://news.example/journal/en/hello-world'],
    ]);
    expect(alternates(entryFor(xml, 'https://news.example/journal/ar/hello-world'))).toEqual(alternates(en));
    expect(alternates(entryFor(pages, 'https://news.example/journal/ar/'))).toEqual([
      ['ar', 'https://news.example/journal/ar/'],
      ['en', 'https://news.example/journal/'],
      ['x-default', 'https://news.example/journal/'],
    ]);
    expect(alternates(entryFor(xml, 'https://news.example/journal/en/english-only'))).toEqual([]);
  });

  it('list a channel page in a language only an article is published in, among every page\'s alternates', () => {
    const french = buildArticle(channel, { id: 80, slug: 'salut', defaultLanguage: 'fr', translations: [{ language: 'fr', title: 'Salut', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    const withFrench = renderChannelSitemap(channel, [...articles, french]);
    expect(entries(withFrench).map(locOf)).toEqual(['https://news.example/journal/', 'https://news.example/journal/ar/', 'https://news.example/journal/fr/']);
    for (const loc of entries(withFrench).map(locOf)) {
      expect(alternates(entryFor(withFrench, loc))).toEqual([
        ['ar', 'https://news.example/journal/ar/'],
        ['en', 'https://news.example/journal/'],
        ['fr', 'https://news.example/journal/fr/'],
        ['x-default', 'https://news.example/journal/'],
      ]);
    }
  });

  it('date entries from the models', () => {
    const lastmod = (file: string, loc: string) => /<lastmod>(.*)<\/lastmod>/.exec(entryFor(file, loc))![1];
    expect(lastmod(xml, 'https://news.example/journal/en/hello-world')).toBe('2026-02-03T10:00:00.000Z');
    expect(lastmod(xml, 'https://news.example/journal/ar/hello-world')).toBe('2026-02-02T09:00:00.000Z');
    expect(lastmod(pages, 'https://news.example/journal/')).toBe('2026-03-01T08:00:00.000Z');
  });

  it('leave out other channels’ articles and stay the same whatever the input order', () => {
    const other = buildChannel({ id: 2, slug: 'other', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Other' }] });
    const single = buildArticle(other, { id: 70, slug: 's', defaultLanguage: 'en', translations: [{ language: 'en', title: 'S', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    expect(renderChannelSitemapPart(channel, [single, ...articles].reverse())).toBe(xml);
    expect(renderChannelSitemap(channel, [single, ...articles].reverse())).toBe(pages);
    expect(entries(renderChannelSitemap(other, [...articles, single])).map(locOf)).toEqual(['https://news.example/other/']);
    expect(entries(renderChannelSitemapPart(other, [...articles, single])).map(locOf)).toEqual(['https://news.example/other/en/s']);
  });

  it('cut a channel into parts of 100 articles in id order, each its own sitemap named in the index', () => {
    const many = Array.from({ length: 2 * ARTICLES_PER_PART + 50 }, (_, i) =>
      buildArticle(channel, { id: 1000 - i, slug: `m-${i}`, defaultLanguage: 'en', translations: [{ language: 'en', title: `M ${i}`, publishedAt: '2026-01-01T00:00:00.000Z' }] }),
    );
    const parts = articleParts(many);
    expect(parts.map((p) => p.length)).toEqual([100, 100, 50]);
    expect(parts[0]![0]!.id).toBe(751);
    expect(parts[2]![49]!.id).toBe(1000);
    expect(entries(renderChannelSitemapPart(channel, parts[1]!))).toHaveLength(100);
    const index = renderSitemapIndex([channel], groupByChannel(many), SITE);
    expect([...index.matchAll(/<loc>(.*)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://news.example/journal/sitemap-1.xml',
      'https://news.example/journal/sitemap-2.xml',
      'https://news.example/journal/sitemap-3.xml',
      'https://news.example/journal/sitemap.xml',
      'https://news.example/sitemap-home.xml',
    ]);
  });
});

describe('renderHomeSitemap and renderSitemapIndex', () => {
  it('lists the homepage, dated with the newest change of all', () => {
    const xml = renderHomeSitemap([channel], groupByChannel(articles), SITE);
    expect(xmlProblems(xml)).toEqual([]);
    expect(entries(xml).map(locOf)).toEqual(['https://news.example/']);
    expect(xml).toContain('<lastmod>2026-03-01T08:00:00.000Z</lastmod>');
  });

  it('indexes the homepage sitemap and each channel sitemap, sorted, with lastmod, escaped', () => {
    const other = buildChannel({ id: 2, slug: 'a-other', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Other' }] });
    const xml = renderSitemapIndex([channel, other], groupByChannel(articles), SITE);
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...xml.matchAll(/<loc>(.*)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://news.example/a-other/sitemap.xml',
      'https://news.example/journal/sitemap-1.xml',
      'https://news.example/journal/sitemap.xml',
      'https://news.example/sitemap-home.xml',
    ]);
    expect(xml).toContain('<loc>https://news.example/journal/sitemap.xml</loc>\n    <lastmod>2026-03-01T08:00:00.000Z</lastmod>');
    expect(renderSitemapIndex([other, channel], groupByChannel([...articles].reverse()), SITE)).toBe(xml);
    expect(renderSitemapIndex([channel], groupByChannel([]), { ...SITE, baseUrl: 'https://news.example/a&b' })).toContain('<loc>https://news.example/a&amp;b/sitemap-home.xml</loc>');
  });
});
