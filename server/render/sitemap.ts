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
 * - Split so that a change costs what it touches, not the site's size:
 *   `sitemap.xml` is a sitemap index naming `sitemap-home.xml` (the homepage)
 *   and one `/{channel}/sitemap.xml` per channel (its pages and articles),
 *   which its channel owns and which is rendered again only when the channel
 *   changes. A sitemap may list only URLs under its own folder
 *   (sitemaps.org), which is why the homepage has a root file of its own.
 *   Each index entry's lastmod is the newest of its sitemap's entries.
 * - One file holds at most 50,000 URLs (sitemaps.org): per channel, that is
 *   25,000 articles in two languages.
 * @module
 */
import { compareText, primaryTranslation } from './public-select.ts';
import type { AnyPublicArticle, PublicChannel, SiteInfo } from './view-models.ts';
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
function channelEntries(channel: PublicChannel, articles: readonly AnyPublicArticle[]): Entry[] {
  const pageOf = (language: string, htmlUrl: string) => (language === channel.defaultLanguage ? channel.htmlUrl : htmlUrl);
  const alternates = channel.translations.map((t) => ({ hreflang: t.language, href: pageOf(t.language, t.htmlUrl) }));
  if (alternates.length > 1) alternates.push({ hreflang: 'x-default', href: channel.htmlUrl });
  const lastmod = channelLastmod(channel, articles);
  return channel.translations.map((t) => ({
    loc: pageOf(t.language, t.htmlUrl),
    lastmod,
    alternates: alternates.length > 1 ? alternates : [],
  }));
}

/** The article's translations, one per language, sharing one alternate set. */
function articleEntries(article: AnyPublicArticle): Entry[] {
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

/** Newest `updatedAt` of the channel and its articles among `articles`. */
function channelLastmod(channel: PublicChannel, articles: readonly AnyPublicArticle[]): string | null {
  let latest: string | null = channel.updatedAt;
  for (const a of articles) if (a.channel.id === channel.id && (latest === null || compareText(a.updatedAt, latest) > 0)) latest = a.updatedAt;
  return latest;
}

function urlset(entries: readonly Entry[]): string {
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

/** Address of the homepage's sitemap (`sitemap-home.xml`). */
export const homeSitemapUrl = (site: SiteInfo) => `${site.baseUrl}/sitemap-home.xml`;
/** Address of a channel's sitemap (`/{channel}/sitemap.xml`), under the channel's own folder. */
export const channelSitemapUrl = (channel: PublicChannel) => `${channel.htmlUrl}sitemap.xml`;

/**
 * Renders `/{channel}/sitemap.xml`: the channel's pages and every published
 * translation of its articles (those of `articles` in this channel).
 * Pure: the same models give the same bytes, whatever order they come in.
 */
export function renderChannelSitemap(channel: PublicChannel, articles: readonly AnyPublicArticle[]): string {
  const own = articles.filter((a) => a.channel.id === channel.id);
  return urlset([...channelEntries(channel, own), ...own.flatMap(articleEntries)]);
}

/** Renders `sitemap-home.xml`: the homepage, last changed with the newest channel or article. */
export function renderHomeSitemap(channels: readonly PublicChannel[], articles: readonly AnyPublicArticle[], site: SiteInfo): string {
  return urlset([{ loc: `${site.baseUrl}/`, lastmod: siteLastmod(channels, articles), alternates: [] }]);
}

/** Newest `updatedAt` of every channel and article (no spread: a big site has tens of thousands). */
function siteLastmod(channels: readonly PublicChannel[], articles: readonly AnyPublicArticle[]): string | null {
  let latest = newest(channels.map((c) => c.updatedAt));
  for (const a of articles) if (latest === null || compareText(a.updatedAt, latest) > 0) latest = a.updatedAt;
  return latest;
}

/**
 * Renders `sitemap.xml`, the sitemap index: the homepage's sitemap and each
 * channel's, sorted by URL, each with the newest lastmod of its entries.
 */
export function renderSitemapIndex(channels: readonly PublicChannel[], articles: readonly AnyPublicArticle[], site: SiteInfo): string {
  const latest = new Map<number, string>(channels.map((c) => [c.id, c.updatedAt]));
  for (const a of articles) {
    const known = latest.get(a.channel.id);
    if (known !== undefined && compareText(a.updatedAt, known) > 0) latest.set(a.channel.id, a.updatedAt);
  }
  const sitemaps = [
    { loc: homeSitemapUrl(site), lastmod: siteLastmod(channels, articles) },
    ...channels.map((c) => ({ loc: channelSitemapUrl(c), lastmod: latest.get(c.id) ?? null })),
  ].sort((a, b) => compareText(a.loc, b.loc));
  const lines = sitemaps.map((m) =>
    [`  <sitemap>`, `    <loc>${escapeXml(m.loc)}</loc>`, ...(m.lastmod ? [`    <lastmod>${escapeXml(m.lastmod)}</lastmod>`] : []), `  </sitemap>`].join('\n'),
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...lines, '</sitemapindex>', ''].join('\n');
}
