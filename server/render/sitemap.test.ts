import { describe, expect, it } from 'vitest';
import { buildArticle, buildChannel, SITE, standardFixtures } from './render-fixtures.ts';
import { xmlProblems } from './xml-check.ts';
import { groupByChannel } from './public-select.ts';
import { renderChannelSitemap, renderHomeSitemap, renderSitemapIndex } from './sitemap.ts';

const { channel, articles } = standardFixtures();
const entries = (xml: string) => [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
const locOf = (entry: string) => /<loc>(.*)<\/loc>/.exec(entry)![1]!;
const entryFor = (xml: string, loc: string) => entries(xml).find((e) => locOf(e) === loc)!;
const alternates = (entry: string) => [...entry.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]);

describe('renderChannelSitemap', () => {
  const xml = renderChannelSitemap(channel, articles);

  it('is a well-formed urlset with the xhtml namespace', () => {
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    expect(xml.endsWith('</urlset>\n')).toBe(true);
  });

  it('lists the channel pages and every article translation once, sorted by URL, all under the channel folder', () => {
    expect(entries(xml).map(locOf)).toEqual([
      'https://news.example/journal/',
      'https://news.example/journal/ar/',
      'https://news.example/journal/ar/arabic-only',
      'https://news.example/journal/ar/hello-world',
      'https://news.example/journal/en/english-only',
      'https://news.example/journal/en/hello-world',
    ]);
  });

  it('links sibling translations with hreflang, itself and x-default included', () => {
    const en = entryFor(xml, 'https://news.example/journal/en/hello-world');
    expect(alternates(en)).toEqual([
      ['ar', 'https://news.example/journal/ar/hello-world'],
      ['en', 'https://news.example/journal/en/hello-world'],
      ['x-default', 'https://news.example/journal/en/hello-world'],
    ]);
    expect(alternates(entryFor(xml, 'https://news.example/journal/ar/hello-world'))).toEqual(alternates(en));
    expect(alternates(entryFor(xml, 'https://news.example/journal/ar/'))).toEqual([
      ['ar', 'https://news.example/journal/ar/'],
      ['en', 'https://news.example/journal/'],
      ['x-default', 'https://news.example/journal/'],
    ]);
    expect(alternates(entryFor(xml, 'https://news.example/journal/en/english-only'))).toEqual([]);
  });

  it('dates entries from the models', () => {
    const lastmod = (loc: string) => /<lastmod>(.*)<\/lastmod>/.exec(entryFor(xml, loc))![1];
    expect(lastmod('https://news.example/journal/en/hello-world')).toBe('2026-02-03T10:00:00.000Z');
    expect(lastmod('https://news.example/journal/ar/hello-world')).toBe('2026-02-02T09:00:00.000Z');
    expect(lastmod('https://news.example/journal/')).toBe('2026-03-01T08:00:00.000Z');
  });

  it('leaves out other channels’ articles and stays the same whatever the input order', () => {
    const other = buildChannel({ id: 2, slug: 'other', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Other' }] });
    const single = buildArticle(other, { id: 70, slug: 's', defaultLanguage: 'en', translations: [{ language: 'en', title: 'S', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    expect(renderChannelSitemap(channel, [single, ...articles].reverse())).toBe(xml);
    expect(entries(renderChannelSitemap(other, [...articles, single])).map(locOf)).toEqual(['https://news.example/other/', 'https://news.example/other/en/s']);
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
      'https://news.example/journal/sitemap.xml',
      'https://news.example/sitemap-home.xml',
    ]);
    expect(xml).toContain('<loc>https://news.example/journal/sitemap.xml</loc>\n    <lastmod>2026-03-01T08:00:00.000Z</lastmod>');
    expect(renderSitemapIndex([other, channel], groupByChannel([...articles].reverse()), SITE)).toBe(xml);
    expect(renderSitemapIndex([channel], groupByChannel([]), { ...SITE, baseUrl: 'https://news.example/a&b' })).toContain('<loc>https://news.example/a&amp;b/sitemap-home.xml</loc>');
  });
});
