/**
 * The feed part of the output validation suite (docs/OUTPUTS.md,
 * "Validation"): every RSS file (`rss.xml`) and JSON Feed (`feed.json`) of a
 * built output folder, read the way feed readers read them.
 *
 * - RSS: parsed by two independent parsers (feedsmith and
 *   @rowanmanning/feed-parser). Both must see the same items (count, links,
 *   guids, titles) in the same order, and every title exactly as the
 *   publisher wrote it (the JSON Feed's, which is plain JSON). One known
 *   difference is allowed: @rowanmanning/feed-parser decodes HTML entities
 *   in text once more after XML parsing (RSS titles may carry escaped HTML)
 *   and trims it, so a literal "&amp;" in a title reads as "&" there; its
 *   titles are compared with feedsmith's after that same decoding. The channel
 *   `<image>`, when present, must be GIF, JPEG or PNG (RSS 2.0) and exist in
 *   the folder; each `<enclosure>` needs `url`, `length` and `type`, and a
 *   local one must exist with exactly that length.
 * - JSON Feed: parsed by feedsmith and checked against JSON Feed 1.1 by
 *   hand: the version URL, `title`, `items[].id`, `content_html` or
 *   `content_text`, RFC 3339 dates, absolute URLs.
 * - Each RSS feed and the JSON Feed beside it list the same items in the
 *   same order, and the same as the site lists them: by default the static
 *   JSON article list of the same channel and language (its first page,
 *   `staticFiles.channelArticlesJson`), whose items must be the feed's
 *   first, in order, and all of them when the list has no more pages and
 *   fits in a feed; `listed(path)` replaces that list.
 *
 * Returns problems as text ("file: what"), empty when everything passes.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseFeed as parseRowanmanning } from '@rowanmanning/feed-parser';
import { parseJsonFeed, parseRssFeed } from 'feedsmith';
import { FEED_MAX_ITEMS } from '../../server/render/feeds.ts';
import { staticFiles } from '../../server/serving/static-files.ts';

/** An item as the site lists it. */
export interface ListedItem {
  readonly url: string;
  readonly title: string;
}

/** What the site lists for a feed: its items, and whether that is all of them. */
export interface SiteList {
  readonly items: readonly ListedItem[];
  readonly complete: boolean;
}

/** The first page of the static JSON article list for a feed at `feed` (`{channel}/[{lang}/]rss.xml`), if built. */
function staticList(dir: string, feed: string): SiteList | undefined {
  const parts = feed.split('/');
  const [channel, lang] = parts.length === 3 ? [parts[0]!, parts[1]!] : [parts[0]!, undefined];
  const file = path.join(dir, staticFiles.channelArticlesJson(channel, lang));
  if (!fs.existsSync(file)) return undefined;
  const list = JSON.parse(fs.readFileSync(file, 'utf8')) as { articles: Array<{ html_url: string; title: string }>; pagination?: { has_more?: boolean } };
  return { items: list.articles.map((a) => ({ url: a.html_url, title: a.title })), complete: list.pagination?.has_more === false };
}

/** What `checkFeeds` reports. */
export interface FeedCheckReport {
  /** The feed files checked, relative to the folder. */
  readonly feeds: readonly string[];
  /** One line per problem; empty when all pass. */
  readonly problems: readonly string[];
}

/** Options of `checkFeeds`. */
export interface FeedCheckOptions {
  /** Base of the site's URLs: local URLs (media) are looked up in the folder. */
  readonly baseUrl: string;
  /**
   * The items the site lists for a feed (by its path relative to the folder), or undefined to skip that
   * check; by default the first page of the channel's static JSON article list in the feed's language.
   */
  readonly listed?: (feedPath: string) => SiteList | undefined;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** What @rowanmanning/feed-parser makes of XML text: HTML entities decoded once more, trimmed (module doc). */
const asRowanmanningReads = (text: string) =>
  text
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (whole, dec: string, hex: string, name: string) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (NAMED[name.toLowerCase()] ?? whole),
    )
    .trim();

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const FEED_IMAGE_TYPES = ['gif', 'jpg', 'jpeg', 'png'];

function filesNamed(dir: string, names: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(abs, entry.name), r);
      else if (names.includes(entry.name)) found.push(r);
    }
  };
  walk(dir, '');
  return found.sort();
}

const isAbsoluteUrl = (value: unknown) => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The file in `dir` a local URL names, or null for another site's URL. */
function localFile(dir: string, baseUrl: string, url: string): string | null {
  if (!url.startsWith(`${baseUrl}/`)) return null;
  return path.join(dir, decodeURIComponent(new URL(url).pathname));
}

interface JsonFeedItem {
  id?: unknown;
  url?: unknown;
  title?: unknown;
  summary?: unknown;
  content_html?: unknown;
  content_text?: unknown;
  image?: unknown;
  date_published?: unknown;
  date_modified?: unknown;
}

/** Checks one JSON Feed; returns its items' URLs and titles. */
function checkJsonFeed(text: string, problem: (message: string) => void): ListedItem[] {
  let feed: Record<string, unknown>;
  try {
    feed = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    problem(`not JSON (${(error as Error).message})`);
    return [];
  }
  try {
    parseJsonFeed(feed);
  } catch (error) {
    problem(`feedsmith cannot parse it (${(error as Error).message})`);
  }
  if (feed.version !== 'https://jsonfeed.org/version/1.1') problem(`version is ${JSON.stringify(feed.version)}, not https://jsonfeed.org/version/1.1`);
  if (typeof feed.title !== 'string' || feed.title === '') problem('no title');
  for (const key of ['home_page_url', 'feed_url', 'icon', 'favicon'] as const) {
    if (key in feed && !isAbsoluteUrl(feed[key])) problem(`${key} is not an absolute URL: ${JSON.stringify(feed[key])}`);
  }
  if (!Array.isArray(feed.items)) {
    problem('no items array');
    return [];
  }
  return (feed.items as JsonFeedItem[]).map((item, i) => {
    const where = `items[${i}]`;
    if (typeof item.id !== 'string' || item.id === '') problem(`${where}: no id`);
    if (typeof item.content_html !== 'string' && typeof item.content_text !== 'string') problem(`${where}: neither content_html nor content_text`);
    if ('summary' in item && typeof item.summary !== 'string') problem(`${where}: summary is not a string`);
    for (const key of ['url', 'image'] as const) {
      if (key in item && !isAbsoluteUrl(item[key])) problem(`${where}: ${key} is not an absolute URL: ${JSON.stringify(item[key])}`);
    }
    for (const key of ['date_published', 'date_modified'] as const) {
      if (key in item && (typeof item[key] !== 'string' || !RFC3339.test(item[key] as string))) problem(`${where}: ${key} is not RFC 3339: ${JSON.stringify(item[key])}`);
    }
    return { url: String(item.url ?? item.id), title: String(item.title ?? '') };
  });
}

/** Checks one RSS feed with both parsers; returns its items' links and titles (feedsmith's reading). */
function checkRss(dir: string, baseUrl: string, xml: string, problem: (message: string) => void): ListedItem[] {
  let first;
  try {
    first = parseRssFeed(xml);
  } catch (error) {
    problem(`feedsmith cannot parse it (${(error as Error).message})`);
    return [];
  }
  let second;
  try {
    second = parseRowanmanning(xml);
  } catch (error) {
    problem(`@rowanmanning/feed-parser cannot parse it (${(error as Error).message})`);
    return [];
  }
  const firstItems = first.items ?? [];
  const a = firstItems.map((item) => ({ link: item.link ?? '', guid: item.guid?.value ?? '', title: item.title ?? '' }));
  const b = second.items.map((item) => ({ link: item.url ?? '', guid: item.id ?? '', title: item.title ?? '' }));
  if (a.length !== b.length) problem(`the parsers see ${a.length} and ${b.length} items`);
  a.forEach((x, i) => {
    const y = b[i];
    if (!y) return;
    if (x.link !== y.link || x.guid !== y.guid) problem(`item ${i}: the parsers disagree on its link or guid (${x.link} ${x.guid} / ${y.link} ${y.guid})`);
    if (asRowanmanningReads(x.title) !== y.title) problem(`item ${i}: the parsers read the title differently: ${JSON.stringify(x.title)} / ${JSON.stringify(y.title)}`);
    if (!isAbsoluteUrl(x.link)) problem(`item ${i}: link is not an absolute URL: ${x.link}`);
  });
  const image = first.image?.url;
  if (image !== undefined) {
    const extension = image.slice(image.lastIndexOf('.') + 1).toLowerCase();
    if (!FEED_IMAGE_TYPES.includes(extension)) problem(`the channel <image> is ${extension}; RSS 2.0 allows GIF, JPEG or PNG`);
    const file = localFile(dir, baseUrl, image);
    if (!isAbsoluteUrl(image)) problem(`the channel <image> URL is not absolute: ${image}`);
    else if (file && !fs.existsSync(file)) problem(`the channel <image> ${image} is not in the output`);
  }
  firstItems.forEach((item, i) => {
    for (const enclosure of item.enclosures ?? []) {
      if (!enclosure.url || enclosure.length === undefined || !enclosure.type) {
        problem(`item ${i}: an <enclosure> lacks url, length or type: ${JSON.stringify(enclosure)}`);
        continue;
      }
      if (!isAbsoluteUrl(enclosure.url)) problem(`item ${i}: enclosure URL is not absolute: ${enclosure.url}`);
      const file = localFile(dir, baseUrl, enclosure.url);
      if (file) {
        const size = fs.existsSync(file) ? fs.statSync(file).size : null;
        if (size !== enclosure.length) problem(`item ${i}: enclosure ${enclosure.url} has length ${enclosure.length}, the file ${size ?? 'does not exist'}`);
      }
    }
  });
  return a.map((x) => ({ url: x.link, title: x.title }));
}

const same = (a: readonly ListedItem[], b: readonly ListedItem[]) => a.length === b.length && a.every((x, i) => x.url === b[i]!.url && x.title === b[i]!.title);
const describe = (items: readonly ListedItem[]) => JSON.stringify(items.map((i) => [i.url, i.title]));

/**
 * Checks every `rss.xml` and `feed.json` under `dir` (see module doc).
 * @example const { problems } = await checkFeeds(config.outputDir, { baseUrl: 'http://pressroom.test' });
 */
export async function checkFeeds(dir: string, options: FeedCheckOptions): Promise<FeedCheckReport> {
  const feeds = filesNamed(dir, ['rss.xml', 'feed.json']);
  const problems: string[] = [];
  const read = new Map<string, ListedItem[]>();
  for (const feed of feeds) {
    const problem = (message: string) => problems.push(`${feed}: ${message}`);
    const text = fs.readFileSync(path.join(dir, feed), 'utf8');
    const items = feed.endsWith('.json') ? checkJsonFeed(text, problem) : checkRss(dir, options.baseUrl, text, problem);
    read.set(feed, items);
    const listed = options.listed ? options.listed(feed) : staticList(dir, feed);
    if (listed) {
      const n = Math.min(listed.items.length, FEED_MAX_ITEMS);
      const whole = listed.complete && listed.items.length <= FEED_MAX_ITEMS;
      if (!same(whole ? items : items.slice(0, n), listed.items.slice(0, n))) problem(`lists ${describe(items)}, the site ${describe(listed.items)}`);
    }
  }
  // The titles of the JSON Feed are JSON strings: exactly what the publisher wrote, so the RSS must read the same.
  for (const feed of feeds.filter((f) => f.endsWith('rss.xml'))) {
    const twin = feed.replace(/rss\.xml$/, 'feed.json');
    const rss = read.get(feed)!;
    const json = read.get(twin);
    if (!json) problems.push(`${feed}: no ${twin} beside it`);
    else if (!same(rss, json)) problems.push(`${feed}: items differ from ${twin}: ${describe(rss)} / ${describe(json)}`);
  }
  return { feeds, problems };
}
