import { describe, expect, it } from 'vitest';
import { fileForRequest, staticFiles } from './static-files.ts';

describe('fileForRequest is the inverse of staticFiles', () => {
  it.each([
    ['/', null, staticFiles.home()],
    ['/tech/', null, staticFiles.channelHtml('tech')],
    ['/tech/', 'ar', staticFiles.channelHtml('tech', 'ar')],
    ['/tech/ar/', null, staticFiles.channelHtml('tech', 'ar')],
    ['/tech/hello', null, staticFiles.articleDefaultHtml('tech', 'hello')],
    ['/tech/hello', 'ar', staticFiles.articleHtml('tech', 'hello', 'ar')],
    ['/tech/ar/hello', null, staticFiles.articleHtml('tech', 'hello', 'ar')],
    ['/tech/rss.xml', null, staticFiles.rss('tech')],
    ['/tech/ar/feed.json', null, staticFiles.jsonFeed('tech', 'ar')],
    // A feed with ?lang= is that language's feed, never the unfiltered one (public API rule 7).
    ['/tech/rss.xml', 'de', staticFiles.rss('tech', 'de')],
    ['/tech/feed.json', 'ar', staticFiles.jsonFeed('tech', 'ar')],
    ['/api/public/v1/channels', null, staticFiles.channelsJson()],
    ['/api/public/v1/channels/tech', 'pt-BR', staticFiles.channelJson('tech', 'pt-BR')],
    ['/api/public/v1/channels/tech/articles', 'ar', staticFiles.channelArticlesJson('tech', 'ar')],
    ['/api/public/v1/channels/tech/articles/hello', null, staticFiles.articleJson('tech', 'hello')],
    ['/api/public/v1/channels/tech/articles/hello', 'ar', staticFiles.articleJson('tech', 'hello', 'ar')],
    ['/api/public/v1/channels/tech/articles/hello.md', 'ar', staticFiles.articleMarkdown('tech', 'hello', 'ar')],
    ['/sitemap.xml', null, staticFiles.sitemap()],
    ['/_astro/site.abc.css', null, '_astro/site.abc.css'],
    ['/pagefind/tech/en/pagefind.en_a653a53270.pf_meta', null, 'pagefind/tech/en/pagefind.en_a653a53270.pf_meta'],
    ['/pagefind/tech/en/wasm.en.pagefind', null, 'pagefind/tech/en/wasm.en.pagefind'],
  ])('%s ?lang=%s', (pathname, lang, file) => {
    expect(fileForRequest(pathname, lang)).toEqual({ file });
  });

  it.each([
    '/../package.json',
    '/tech/../../etc/passwd',
    '/%2e%2e/package.json',
    '/tech/%2E%2E/%2e%2e/etc/passwd',
    '/tech/..%2f..%2fpackage.json',
    '/tech/..%5c..%5cpackage.json',
    '/tech/%00hello',
    '/tech//hello',
    '/tech/%E0%A4%A',
  ])('refuses %s', (pathname) => {
    expect(fileForRequest(pathname, null)).toEqual({ reason: 'bad_path' });
  });

  it('refuses a malformed lang', () => {
    expect(fileForRequest('/tech/hello', '../x')).toEqual({ reason: 'bad_lang' });
    expect(fileForRequest('/tech/hello', '')).toEqual({ reason: 'bad_lang' });
    expect(fileForRequest('/tech/rss.xml', '')).toEqual({ reason: 'bad_lang' });
    expect(fileForRequest('/tech/feed.json', 'de/../..')).toEqual({ reason: 'bad_lang' });
  });
});
