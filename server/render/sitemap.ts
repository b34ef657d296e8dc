/**
 * sitemap.xml: every public page a search engine should index, with its
 * last change and its language siblings (`xhtml:link rel="alternate"
 * hreflang`), so each translation is indexed as itself, never as a duplicate.
 *
 * - Homepage; each channel page (`/{channel}/` for the default language,
 *   `/{channel}/{lang}/` for the others); each published article translation
 *   at its canonical URL `/{channel}/{lang}/{article}`. The default-language
 *   copies (`/{channel}/{article}`, `/{channel}/{default}/`) are the same
 *   pages and are left out.
 * - Alternates list every version, itself included (as search engines ask),
 *   plus `x-default` (the primary version), sorted by hreflang; only for
 *   pages with two or more versions.
 * - lastmod: article translation `updatedAt`; channel page the newest of the
 *   channel's and its articles' `updatedAt`; homepage the newest of all.
 * - Entries are sorted by URL (code units), so the bytes never depend on input order.
 * - One file holds at most 50,000 URLs (sitemaps.org); a bigger site needs a
 *   sitemap index, which is not written yet.
 * @module
 */
import { compareText, primaryTranslation } from './public-select.ts';
import type { PublicArticle, PublicChannel, SiteInfo } from './view-models.ts';
import { escapeXml } from './xml-text.ts';

interface Alternate {
  readonly hreflang: string;
  readonly href: string;
}

interface Entry {
  readonly loc: string;
  readonly lastmod: string | null;
  readonly alternates: readonly Alternate[];
}

const newest = (dates: readonly string[]): string | null =>
  dates.reduce<string | null>((a, b) => (a === null || compareText(b, a) > 0 ? b : a), null);

/** The channel's pages, one per language, sharing one alternate set. */
function channelEntries(channel: PublicChannel, articles: readonly PublicArticle[]): Entry[] {
  const pageOf = (language: string, htmlUrl: string) => (language === channel.defaultLanguage ? channel.htmlUrl : htmlUrl);
  const alternates = channel.translations.map((t) => ({ hreflang: t.language, href: pageOf(t.language, t.htmlUrl) }));
  if (alternates.length > 1) alternates.push({ hreflang: 'x-default', href: channel.htmlUrl });
  const own = articles.filter((a) => a.channel.id === channel.id).map((a) => a.updatedAt);
  const lastmod = newest([channel.updatedAt, ...own]);
  return channel.translations.map((t) => ({
    loc: pageOf(t.language, t.htmlUrl),
    lastmod,
    alternates: alternates.length > 1 ? alternates : [],
  }));
}

/** The article's translations, one per language, sharing one alternate set. */
function articleEntries(article: PublicArticle): Entry[] {
  const alternates = article.translations.map((t) => ({ hreflang: t.language, href: t.htmlUrl }));
  if (alternates.length > 1) alternates.push({ hreflang: 'x-default', href: primaryTranslation(article).htmlUrl });
  return article.translations.map((t) => ({
    loc: t.htmlUrl,
    lastmod: t.updatedAt,
    alternates: alternates.length > 1 ? alternates : [],
  }));
}

function writeEntry(entry: Entry): string {
  const lines = [`  <url>`, `    <loc>${escapeXml(entry.loc)}</loc>`];
  if (entry.lastmod !== null) lines.push(`    <lastmod>${escapeXml(entry.lastmod)}</lastmod>`);
  const sorted = [...entry.alternates].sort((a, b) => compareText(a.hreflang, b.hreflang));
  for (const alt of sorted) {
    lines.push(`    <xhtml:link rel="alternate" hreflang="${escapeXml(alt.hreflang)}" href="${escapeXml(alt.href)}"/>`);
  }
  lines.push(`  </url>`);
  return lines.join('\n');
}

/**
 * Renders sitemap.xml for every public channel and article (see module doc).
 * Pure: the same models give the same bytes, whatever order they come in.
 */
export function renderSitemap(channels: readonly PublicChannel[], articles: readonly PublicArticle[], site: SiteInfo): string {
  const home: Entry = {
    loc: `${site.baseUrl}/`,
    lastmod: newest([...channels.map((c) => c.updatedAt), ...articles.map((a) => a.updatedAt)]),
    alternates: [],
  };
  const entries = [home, ...channels.flatMap((c) => channelEntries(c, articles)), ...articles.flatMap(articleEntries)];
  // A URL appears once even if a model lists it twice (e.g. the same article passed in two lists).
  const unique = [...new Map(entries.map((e) => [e.loc, e])).values()].sort((a, b) => compareText(a.loc, b.loc));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...unique.map(writeEntry),
    '</urlset>',
    '',
  ].join('\n');
}
