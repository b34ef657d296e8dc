/**
 * sitemap.xml: every public page a search engine should index, with its
 * last change and its language siblings (`xhtml:link rel="alternate"
 * hreflang`), so each translation is indexed as itself, never as a duplicate.
 *
 * - Homepage; each channel page in every language of the channel
 *   (`channelLanguages`: its own and its articles'; `/{channel}/` for the
 *   default language, `/{channel}/{lang}/` for the others, the pages'
 *   canonical addresses); each published article translation
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
 *   `sitemap.xml` is a sitemap index naming `sitemap-home.xml` (the
 *   homepage), and per channel `/{channel}/sitemap.xml` (its pages) and
 *   `/{channel}/sitemap-{n}.xml`, one per part of its articles
 *   (`articleParts`: 100 articles each, in id order, so an article stays in
 *   its part as newer ones are added). A publish re-renders its article's
 *   part, the channel's small pages sitemap and the index. A sitemap may
 *   list only URLs under its own folder (sitemaps.org), which is why the
 *   homepage has a root file of its own. Each index entry's lastmod is the
 *   newest of its sitemap's entries.
 * - One file holds at most 50,000 URLs (sitemaps.org): a part holds 100
 *   articles, so up to 500 languages each.
 * @module
 */
import { articleParts, channelLanguages, channelVersion, compareText, ofChannel, primaryTranslation } from '../read-model/selection.ts';
import { memoByIdentity, memoForOneBuild } from '../read-model/identity-memo.ts';
import type { AnyPublicArticle, ArticlesByChannel, PublicChannel, SiteInfo } from '../read-model/view-models.ts';
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

/** One `<url>` entry, written. */
interface Written {
  readonly loc: string;
  readonly xml: string;
}

/** The channel's pages, one per language of the channel (`channelLanguages`), sharing one alternate set. */
function channelEntries(channel: PublicChannel, languages: readonly string[], lastmod: string | null): Entry[] {
  const alternates = languages.map((language) => ({ hreflang: language, href: channelVersion(channel, language).htmlUrl }));
  if (alternates.length > 1) alternates.push({ hreflang: 'x-default', href: channel.htmlUrl });
  return languages.map((language) => ({
    loc: channelVersion(channel, language).htmlUrl,
    lastmod,
    alternates: alternates.length > 1 ? alternates : [],
  }));
}

// An article's entries depend on the article alone (the identity rule, `read-model/identity-memo.ts`),
// so a channel's sitemap re-writes only the entries of the articles that changed (after a full build, those it needs again).
/** The article's translations, one per language, sharing one alternate set, written. */
const articleEntries = memoForOneBuild((article: AnyPublicArticle): readonly Written[] => {
  const alternates = article.translations.map((t) => ({ hreflang: t.language, href: t.htmlUrl }));
  if (alternates.length > 1) alternates.push({ hreflang: 'x-default', href: primaryTranslation(article).htmlUrl });
  return article.translations.map((t) => {
    const entry = { loc: t.htmlUrl, lastmod: t.updatedAt, alternates: alternates.length > 1 ? alternates : [] };
    return { loc: entry.loc, xml: writeEntry(entry) };
  });
});

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

const newerOf = (a: string | null, b: string | null): string | null => (a === null || (b !== null && compareText(b, a) > 0) ? b : a);

/** Newest `updatedAt` among `articles` (null when empty); per array, as a builder passes an unchanged channel's group again. */
const newestUpdate = memoByIdentity((articles: readonly AnyPublicArticle[]): string | null => {
  let latest: string | null = null;
  for (const a of articles) latest = newerOf(latest, a.updatedAt);
  return latest;
});

function urlset(entries: readonly Written[]): string {
  // A URL appears once even if a model lists it twice (e.g. the same article passed in two lists).
  const unique = [...new Map(entries.map((e) => [e.loc, e])).values()].sort((a, b) => compareText(a.loc, b.loc));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...unique.map((e) => e.xml),
    '</urlset>',
    '',
  ].join('\n');
}

/** Address of the homepage's sitemap (`sitemap-home.xml`). */
export const homeSitemapUrl = (site: SiteInfo) => `${site.baseUrl}/sitemap-home.xml`;
/** Address of a channel's sitemap of its own pages (`/{channel}/sitemap.xml`), under the channel's own folder. */
export const channelSitemapUrl = (channel: PublicChannel) => `${channel.htmlUrl}sitemap.xml`;
/** Address of part `n` (from 1) of a channel's article sitemaps (`/{channel}/sitemap-{n}.xml`). */
export const channelSitemapPartUrl = (channel: PublicChannel, n: number) => `${channel.htmlUrl}sitemap-${n}.xml`;

/**
 * Renders `/{channel}/sitemap.xml`: the channel's pages, last changed with
 * the newest of the channel and its articles (those of `articles` in it).
 */
export function renderChannelSitemap(channel: PublicChannel, articles: readonly AnyPublicArticle[]): string {
  const own = ofChannel(channel.id, articles);
  const entries = channelEntries(channel, channelLanguages(channel, own), newerOf(channel.updatedAt, newestUpdate(own)));
  return urlset(entries.map((e) => ({ loc: e.loc, xml: writeEntry(e) })));
}

/**
 * Renders `/{channel}/sitemap-{n}.xml`: every published translation of one
 * part of the channel's articles (`articleParts`; those of `part` in the
 * channel). Pure: the same models give the same bytes, whatever order they
 * come in.
 */
export function renderChannelSitemapPart(channel: PublicChannel, part: readonly AnyPublicArticle[]): string {
  return urlset(ofChannel(channel.id, part).flatMap(articleEntries));
}

/** Renders `sitemap-home.xml`: the homepage, last changed with the newest channel or article. */
export function renderHomeSitemap(channels: readonly PublicChannel[], articles: ArticlesByChannel<AnyPublicArticle>, site: SiteInfo): string {
  const entry = { loc: `${site.baseUrl}/`, lastmod: siteLastmod(channels, articles), alternates: [] };
  return urlset([{ loc: entry.loc, xml: writeEntry(entry) }]);
}

/** Newest `updatedAt` of every channel and article. */
function siteLastmod(channels: readonly PublicChannel[], articles: ArticlesByChannel<AnyPublicArticle>): string | null {
  let latest: string | null = null;
  for (const c of channels) latest = newerOf(latest, c.updatedAt);
  for (const group of articles.values()) latest = newerOf(latest, newestUpdate(group));
  return latest;
}

/**
 * Renders `sitemap.xml`, the sitemap index: the homepage's sitemap, and per
 * channel its pages' sitemap and one sitemap per part of its articles,
 * sorted by URL, each with the newest lastmod of its entries.
 */
export function renderSitemapIndex(channels: readonly PublicChannel[], articles: ArticlesByChannel<AnyPublicArticle>, site: SiteInfo): string {
  const sitemaps: Array<{ loc: string; lastmod: string | null }> = [{ loc: homeSitemapUrl(site), lastmod: siteLastmod(channels, articles) }];
  for (const c of channels) {
    const own = articles.get(c.id) ?? [];
    sitemaps.push({ loc: channelSitemapUrl(c), lastmod: newerOf(c.updatedAt, newestUpdate(own)) });
    articleParts(own).forEach((part, i) => sitemaps.push({ loc: channelSitemapPartUrl(c, i + 1), lastmod: newestUpdate(part) }));
  }
  sitemaps.sort((a, b) => compareText(a.loc, b.loc));
  const lines = sitemaps.map((m) =>
    [`  <sitemap>`, `    <loc>${escapeXml(m.loc)}</loc>`, ...(m.lastmod ? [`    <lastmod>${escapeXml(m.lastmod)}</lastmod>`] : []), `  </sitemap>`].join('\n'),
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...lines, '</sitemapindex>', ''].join('\n');
}
