import { describe, expect, it } from 'vitest';
import { cacheTagHeaders, channelOfFile, MAX_TAG_LENGTH, tagsOfFile, tagsOfQueryAnswer, tagsToPurge } from './cache-tags.ts';
import { staticFiles } from './static-files.ts';

describe('channelOfFile', () => {
  it.each([
    [staticFiles.home(), null],
    [staticFiles.channelHtml('news'), 'news'],
    [staticFiles.channelHtml('news', 'de'), 'news'],
    [staticFiles.articleDefaultHtml('news', 'hello'), 'news'],
    [staticFiles.articleCard('news', 'hello', 'en'), 'news'],
    [staticFiles.rss('news', 'fr'), 'news'],
    [staticFiles.channelJson('news'), 'news'],
    [staticFiles.channelJson('news', 'de'), 'news'],
    [staticFiles.channelArticlesJson('news'), 'news'],
    [staticFiles.channelArticlesPage('news', 'A'.repeat(22), 'de'), 'news'],
    [staticFiles.articleMarkdown('news', 'hello', 'de'), 'news'],
    [staticFiles.channelsJson(), null],
    [staticFiles.channelsJson('de'), null],
    [staticFiles.channelsPage('A'.repeat(22)), null],
    [staticFiles.searchPage('de'), null],
    [staticFiles.languageNotFound('de'), null],
    [staticFiles.publicOpenApi(), null],
    [staticFiles.publishingOpenApi(), null],
    ['_astro/site.abc123.css', null],
    ['media/2026/ab/cd.webp', null],
    [staticFiles.sitemap(), null],
  ])('%s belongs to %s', (file, channel) => {
    expect(channelOfFile(file)).toBe(channel);
  });
});

describe('tags', () => {
  it('a file answer names the site and its file', () => {
    expect(tagsOfFile('pr', 'news/de/hello.html')).toEqual(['pr', 'pr:f:/news/de/hello.html']);
  });

  it('a file of the search index also names the index', () => {
    expect(tagsOfFile('pr', 'pagefind/pagefind-entry.json')).toEqual(['pr', 'pr:s', 'pr:f:/pagefind/pagefind-entry.json']);
    // A rebuild's hundreds of files are purged by that one tag, not one tag each.
    expect(tagsToPurge('pr', ['pagefind/news/en/fragment/a.pf_fragment', 'pagefind/news/en/fragment/b.pf_fragment', 'pagefind/shards.json'])).toEqual(['pr:q', 'pr:s']);
  });

  it('an answer rendered on demand names its channel, or the site', () => {
    expect(tagsOfQueryAnswer('pr', '/api/public/v1/channels/news/articles')).toEqual(['pr', 'pr:q:news']);
    expect(tagsOfQueryAnswer('pr', '/api/public/v1/channels/news/articles/hello')).toEqual(['pr', 'pr:q:news']);
    expect(tagsOfQueryAnswer('pr', '/api/public/v1/channels/news')).toEqual(['pr', 'pr:q:news']);
    expect(tagsOfQueryAnswer('pr', '/api/public/v1/channels')).toEqual(['pr', 'pr:q']);
    expect(tagsOfQueryAnswer('pr', '/api/public/v1/search')).toEqual(['pr', 'pr:q']);
  });

  it('a build purges the files it changed and the query forms of their channels and of the site', () => {
    expect(tagsToPurge('pr', ['news/hello.html', 'api/public/v1/channels/news/articles.json', 'index.html'])).toEqual([
      'pr:f:/api/public/v1/channels/news/articles.json',
      'pr:f:/index.html',
      'pr:f:/news/hello.html',
      'pr:q',
      'pr:q:news',
    ]);
    expect(tagsToPurge('pr', [])).toEqual([]);
  });

  it('every tag is one token in both header syntaxes and within the CDNs’ length limit', () => {
    const longest = staticFiles.channelArticlesPage('c'.repeat(100), 'A'.repeat(22), 'zh-Hant-TW');
    const odd = 'news/a b,c%é.html';
    for (const tag of [...tagsOfFile('pressroom', longest), ...tagsOfFile('pressroom', odd)]) {
      expect(tag).toMatch(/^[\x21-\x7e]+$/);
      expect(tag).not.toMatch(/,/);
      expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
    }
    expect(cacheTagHeaders(['a', 'b'])).toEqual({ 'Cache-Tag': 'a,b', 'Surrogate-Key': 'a b' });
  });
});
