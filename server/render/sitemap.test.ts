import { describe, expect, it } from 'vitest';
import { buildArticle, buildChannel, SITE, standardFixtures } from './render-fixtures.ts';
import { xmlProblems } from './xml-check.ts';
import { renderSitemap } from './sitemap.ts';

const { channel, articles } = standardFixtures();
const entries = (xml: string) => [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
const locOf = (entry: string) => /<loc>(.*)<\/loc>/.exec(entry)![1]!;
const entryFor = (xml: string, loc: string) => entries(xml).find((e) => locOf(e) === loc)!;
const alternates = (entry: string) => [...entry.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]);

describe('renderSitemap', () => {
  const xml = renderSitemap([channel], articles, SITE);

  it('is a well-formed urlset with the xhtml namespace', () => {
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    expect(xml.endsWith('</urlset>\n')).toBe(true);
  });

  it('lists homepage, channel pages and every article translation once, sorted by URL', () => {
    expect(entries(xml).map(locOf)).toEqual([
      'https://news.example/',
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
    expect(lastmod('https://news.example/')).toBe('2026-03-01T08:00:00.000Z');
  });

  it('escapes URLs and stays the same whatever the input order', () => {
    const other = buildChannel({ id: 2, slug: 'other', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Other' }] });
    const site = { ...SITE, baseUrl: 'https://news.example/a&b' };
    const odd = renderSitemap([other, channel], [...articles].reverse(), site);
    expect(xmlProblems(odd)).toEqual([]);
    expect(odd).toContain('<loc>https://news.example/a&amp;b/</loc>');
    expect(renderSitemap([channel, other], articles, site)).toBe(odd);
    const single = buildArticle(other, { id: 70, slug: 's', defaultLanguage: 'en', translations: [{ language: 'en', title: 'S', publishedAt: '2026-01-01T00:00:00.000Z' }] });
    expect(renderSitemap([other], [single], SITE)).toBe(renderSitemap([other], [single], SITE));
  });
});
