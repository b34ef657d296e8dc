/**
 * The feed checker finds what feed readers and validators complain about
 * (issue 15): each row is a small output folder with one fault.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFeeds } from './check-feeds.ts';

const BASE = 'http://pressroom.test';
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function rss(items: string, channelExtra = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>C</title><link>${BASE}/c/</link><description>d</description>${channelExtra}${items}</channel></rss>\n`;
}
const item = (title: string, extra = '') => `<item><title>${title}</title><link>${BASE}/c/en/a</link><guid isPermaLink="true">${BASE}/c/en/a</guid>${extra}</item>`;
const jsonFeed = (items: unknown[], top: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'C', home_page_url: `${BASE}/c/`, ...top, items });
const jsonItem = (title: string, extra: Record<string, unknown> = {}) => ({ id: `${BASE}/c/en/a`, url: `${BASE}/c/en/a`, title, content_html: '<p>x</p>', ...extra });

async function problemsOf(files: Record<string, string>): Promise<readonly string[]> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-feeds-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return (await checkFeeds(dir, { baseUrl: BASE })).problems;
}

describe('checkFeeds', () => {
  it('passes a good pair of feeds', async () => {
    expect(await problemsOf({ 'c/rss.xml': rss(item('A &amp; B ]]&gt;')), 'c/feed.json': jsonFeed([jsonItem('A & B ]]>')]) })).toEqual([]);
  });

  it.each([
    ['a WebP channel image', { 'c/rss.xml': rss(item('A'), `<image><url>${BASE}/media/c/a.webp</url><title>C</title><link>${BASE}/c/</link></image>`), 'c/feed.json': jsonFeed([jsonItem('A')]) }, /<image> is webp/],
    ['a channel image missing from the output', { 'c/rss.xml': rss(item('A'), `<image><url>${BASE}/media/c/a.png</url><title>C</title><link>${BASE}/c/</link></image>`), 'c/feed.json': jsonFeed([jsonItem('A')]) }, /not in the output/],
    ['a title split out of CDATA ("]]>" read as "]]&gt;")', { 'c/rss.xml': rss(item('<![CDATA[a ]]]]><![CDATA[>]]&gt;]]>')), 'c/feed.json': jsonFeed([jsonItem('a ]]>')]) }, /items differ/],
    ['an enclosure without length', { 'c/rss.xml': rss(item('A', `<enclosure url="${BASE}/m.webp" type="image/webp"/>`)), 'c/feed.json': jsonFeed([jsonItem('A')]) }, /lacks url, length or type/],
    ['an enclosure of the wrong length', { 'c/rss.xml': rss(item('A', `<enclosure url="${BASE}/m.webp" length="9" type="image/webp"/>`)), 'c/feed.json': jsonFeed([jsonItem('A')]), 'm.webp': 'four' }, /has length 9, the file 4/],
    ['a JSON Feed 1.0', { 'c/feed.json': jsonFeed([jsonItem('A')], { version: 'https://jsonfeed.org/version/1' }) }, /version is/],
    ['an item without content', { 'c/feed.json': jsonFeed([{ id: 'x', title: 'A', summary: 's' }]) }, /neither content_html nor content_text/],
    ['a date that is not RFC 3339', { 'c/feed.json': jsonFeed([jsonItem('A', { date_published: 'Mon, 01 Jan 2026 00:00:00 GMT' })]) }, /not RFC 3339/],
    ['a relative image URL', { 'c/feed.json': jsonFeed([jsonItem('A', { image: '/media/a.webp' })]) }, /image is not an absolute URL/],
    ['an RSS feed without its JSON Feed', { 'c/rss.xml': rss(item('A')) }, /no c\/feed.json beside it/],
  ])('finds %s', async (_name, files, problem) => {
    const problems = await problemsOf(files);
    expect(problems.some((p) => problem.test(p)), problems.join('\n')).toBe(true);
  });

  it("compares each feed with the site's own JSON article list by default", async () => {
    const list = (title: string, hasMore: boolean) => JSON.stringify({ articles: [{ html_url: `${BASE}/c/en/a`, title }], pagination: { has_more: hasMore } });
    const feeds = { 'c/rss.xml': rss(item('A') + item('A')), 'c/feed.json': jsonFeed([jsonItem('A'), jsonItem('A')]) };
    expect(await problemsOf({ ...feeds, 'api/public/v1/channels/c/articles.json': list('A', true) })).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(await problemsOf({ ...feeds, 'api/public/v1/channels/c/articles.json': list('A', false) })).toHaveLength(2);
    fs.rmSync(dir, { recursive: true, force: true });
    expect((await problemsOf({ ...feeds, 'api/public/v1/channels/c/articles.json': list('B', true) })).join('\n')).toMatch(/the site \[\[.*"B"\]\]/);
  });

  it('compares each feed with what the site lists', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-feeds-'));
    fs.writeFileSync(path.join(dir, 'feed.json'), jsonFeed([jsonItem('A')]));
    const report = await checkFeeds(dir, { baseUrl: BASE, listed: () => ({ items: [{ url: `${BASE}/c/en/b`, title: 'B' }], complete: true }) });
    expect(report.problems).toEqual([`feed.json: lists [["${BASE}/c/en/a","A"]], the site [["${BASE}/c/en/b","B"]]`]);
  });
});
