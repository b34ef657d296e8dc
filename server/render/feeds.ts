/**
 * RSS 2.0 and JSON Feed 1.1 of a channel, unfiltered or in one language.
 * Feeds are for discovery (spec): each item carries a summary and points at
 * the full text in Markdown and JSON; it never carries the body.
 *
 * - Items: `listArticlesFor` (public API rule 7: without a language one
 *   published version per article, the primary; with one only articles with
 *   that exact translation), newest first, at most `FEED_MAX_ITEMS`.
 * - Dates come from the models, never the clock: RSS `lastBuildDate` is the
 *   newest `updatedAt` of the items (the channel's `updatedAt` when empty).
 * - RSS items: title, link and `guid isPermaLink="true"` (the translation's
 *   canonical URL), description (the excerpt, else the start of the text, as
 *   escaped HTML), pubDate (the translation's `publishedAt`), `dc:creator`
 *   (the author; RSS `<author>` must be an e-mail address), `enclosure` (the
 *   translation's image: URL, byte length, type), and two
 *   `<atom:link rel="alternate">` (type `text/markdown` and
 *   `application/json`, with `hreflang`) to the full text. RSS 2.0 allows
 *   namespaced elements in items and the feed already declares the Atom
 *   namespace for its self link; this mirrors the `<link rel="alternate">` of
 *   the HTML page, where `<enclosure>` (media), `<source>` (origin feed) or
 *   `<comments>` would each misstate what the URL is.
 * - Languages: a feed in one language states it at channel level; the
 *   unfiltered feed mixes each article's primary language and states none
 *   (JSON Feed items carry their own `language`; RSS 2.0 has no item-level
 *   language). The channel's `<link>` is its canonical page in the feed's
 *   language (`channelVersion`), the same address the page and sitemap give.
 * - Titles are element text, not CDATA: the package writes CDATA and
 *   xml-js splits only the first `]]>` of it, so a reader would see
 *   `]]&gt;`; as text every character reads back exactly.
 * - The channel `<image>` is the avatar's PNG rendition (`feedImageUrl`):
 *   RSS 2.0 allows GIF, JPEG or PNG there, and the avatar is WebP. Without
 *   a rendition there is no `<image>`.
 * - JSON Feed is written by hand rather than with `feed`: the package emits
 *   version 1.0 (no `language`), puts plain text in `content_html` and
 *   indents with four spaces; 1.1 has `language`, which a per-language feed
 *   should state. Full-text addresses go in the `_pressroom` extension.
 *   An item has `summary` (the same summary as RSS) and, because 1.1
 *   requires content, a `content_html` that says what the item is: the
 *   summary and a link to the article, never the body (discovery only).
 * @module
 */
import { Feed, type Extension } from 'feed';
import { channelVersion, compareText, summaryOf, listArticlesFor, listedTranslation } from '../read-model/selection.ts';
import type { PublicArticleSummary, PublicChannel, PublicTranslationSummary, SiteInfo } from '../read-model/view-models.ts';
import { escapeXml, xmlChars } from './xml-text.ts';
import { InternalError } from '../internal-error.ts';

/** Most items in one feed: enough for a reader polling daily, small enough to fetch often. */
export const FEED_MAX_ITEMS = 50;

interface FeedEntry {
  readonly article: PublicArticleSummary;
  readonly translation: PublicTranslationSummary;
}

/** The items of a feed, in order, capped (see module doc). */
export function feedEntries(articles: readonly PublicArticleSummary[], language: string | null): FeedEntry[] {
  return listArticlesFor(articles, language)
    .slice(0, FEED_MAX_ITEMS)
    .map((article) => ({ article, translation: listedTranslation(article, language) }));
}

/** Newest change among the items; the channel's when there are none. */
function lastChange(channel: PublicChannel, entries: readonly FeedEntry[]): string {
  return entries.map((e) => e.translation.updatedAt).reduce((a, b) => (compareText(a, b) >= 0 ? a : b), channel.updatedAt);
}

// The `feed` package writes element text through xml-js, which first turns `&amp;` back into `&`;
// escaping `&` beforehand makes a literal "&amp;" in a title survive.
const elementText = (text: string) => xmlChars(text).replace(/&/g, '&amp;');
// RSS descriptions are HTML: plain text is escaped so "<b>" in an excerpt shows as written.
const htmlText = (text: string) => xmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The per-item links to the full text (see module doc). xml-js writes attributes unescaped but for `"`. */
function fullTextLinks(t: PublicTranslationSummary): Extension {
  const link = (type: string, href: string) => ({ _attributes: { rel: 'alternate', type, hreflang: escapeXml(t.language), href: escapeXml(href) } });
  const links = [link('text/markdown', t.markdownUrl), link('application/json', t.jsonUrl)];
  // `Extension.objects` is typed as a record, but an array is what makes xml-js repeat the element.
  return { name: 'atom:link', objects: links as unknown as Record<string, unknown> };
}

/** Namespace of `dc:creator`, declared on the root (the package declares it only for `content:encoded`). */
const DC_NAMESPACE = 'http://purl.org/dc/elements/1.1/';

/** An element with text content, as a `feed` extension (escaped like the package's own text). */
const textElement = (name: string, text: string): Extension => ({ name, objects: { _text: elementText(text) } });

/**
 * Renders the RSS 2.0 feed of `channel`, unfiltered (`language` null) or in
 * exactly `language`. `articles` are the channel's public articles.
 */
export function renderRss(channel: PublicChannel, articles: readonly PublicArticleSummary[], language: string | null, site: SiteInfo): string {
  const version = channelVersion(channel, language);
  const entries = feedEntries(articles, language);
  const self = version.rssUrl;
  const feed = new Feed({
    id: self,
    title: elementText(version.title),
    description: elementText(version.description ?? version.title),
    link: version.htmlUrl,
    // The unfiltered feed mixes languages (each article's primary): it declares none rather than a wrong one.
    ...(language !== null ? { language } : {}),
    updated: new Date(lastChange(channel, entries)),
    generator: 'Pressroom',
    feedLinks: { rss: self },
    ...(channel.feedImageUrl ? { image: channel.feedImageUrl } : {}),
  });
  for (const { article, translation: t } of entries) {
    // No `id`/`guid`: the package then writes the link as `<guid isPermaLink="true">`. The title is an extension so it
    // is written as text, not CDATA (module doc); `title` itself is required by the type and left empty (not written).
    feed.addItem({
      title: '',
      link: t.htmlUrl,
      date: new Date(t.publishedAt),
      description: htmlText(summaryOf(t)),
      ...(t.image ? { enclosure: { url: escapeXml(t.image.url), length: t.image.bytes, type: t.image.type } } : {}),
      extensions: [
        textElement('title', t.title),
        ...(article.author ? [textElement('dc:creator', article.author.name)] : []),
        fullTextLinks(t),
      ],
    });
  }
  const xml = feed.rss2();
  const root = '<rss version="2.0"';
  if (!xml.includes(root)) throw new InternalError('RENDER_FAILED', 'feed: unexpected RSS root element');
  return `${xml.replace(root, `${root} xmlns:dc="${DC_NAMESPACE}"`)}\n`;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A JSON Feed item's content: its summary and a link to the article (module doc). */
function teaserHtml(t: PublicTranslationSummary): string {
  return `<p>${escapeHtml(summaryOf(t))}</p><p><a href="${escapeHtml(t.htmlUrl)}">${escapeHtml(t.title)}</a></p>`;
}

/**
 * Renders the JSON Feed 1.1 of `channel`, unfiltered or in exactly
 * `language`: same items and order as the RSS feed.
 */
export function renderJsonFeed(
  channel: PublicChannel,
  articles: readonly PublicArticleSummary[],
  language: string | null,
  site: SiteInfo,
): string {
  const version = channelVersion(channel, language);
  const body = {
    version: 'https://jsonfeed.org/version/1.1',
    title: version.title,
    home_page_url: version.htmlUrl,
    feed_url: version.jsonFeedUrl,
    ...(version.description !== null ? { description: version.description } : {}),
    ...(channel.avatarUrl ? { icon: channel.avatarUrl } : {}),
    // Each item states its language; the unfiltered feed mixes them, so only a language's feed states one.
    ...(language !== null ? { language } : {}),
    items: feedEntries(articles, language).map(({ article, translation: t }) => ({
      id: t.htmlUrl,
      url: t.htmlUrl,
      title: t.title,
      summary: summaryOf(t),
      content_html: teaserHtml(t),
      ...(t.image ? { image: t.image.url } : {}),
      date_published: t.publishedAt,
      date_modified: t.updatedAt,
      ...(article.author ? { authors: [{ name: article.author.name }] } : {}),
      language: t.language,
      _pressroom: { markdown_url: t.markdownUrl, json_url: t.jsonUrl },
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
