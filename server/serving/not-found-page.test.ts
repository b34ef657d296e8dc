import { describe, expect, it } from 'vitest';
import { acceptsHtml, notFoundPageFiles, wantsNotFoundPage } from './not-found-page.ts';
import { fileForRequest } from './static-files.ts';

describe('acceptsHtml', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['text/html', true],
    ['application/json, text/html;q=0.5', false],
    ['text/html;q=0, */*', false],
    ['*/*', false],
    ['application/json', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => expect(acceptsHtml(accept)).toBe(expected));
});

describe('wantsNotFoundPage', () => {
  it('never under /api/', () => {
    expect(wantsNotFoundPage('/api/public/v1/channels/x', 'text/html')).toBe(false);
    expect(wantsNotFoundPage('/api', 'text/html')).toBe(false);
    expect(wantsNotFoundPage('/apiary/', 'text/html')).toBe(true);
  });
});

describe('notFoundPageFiles', () => {
  it.each([
    ['/tech/ar/gone', ['tech/ar/_404.html', 'tech/_404.html', '_404/ar.html', '404.html']],
    ['/tech/ar/', ['tech/ar/_404.html', 'tech/_404.html', '_404/ar.html', '404.html']],
    ['/tech/ar', ['tech/_404.html', '404.html']],
    ['/tech/', ['tech/_404.html', '404.html']],
    ['/tech', ['404.html']],
    ['/', ['404.html']],
    ['/Tech/ar/x', ['_404/ar.html', '404.html']],
    ['/tech/not_a_language/x', ['tech/_404.html', '404.html']],
    ['/tech/%61r/x', ['tech/ar/_404.html', 'tech/_404.html', '_404/ar.html', '404.html']],
    ['/tech/%2e%2e/x', ['404.html']],
  ])('%s → %j', (address, files) => expect(notFoundPageFiles(address)).toEqual(files));

  it('no 404 page is an address of its own', () => {
    for (const address of ['/tech/_404', '/tech/_404.html', '/tech/ar/_404', '/_404/ar', '/_404/ar.html', '/404', '/404.html']) {
      expect(fileForRequest(address, null), address).toEqual({ reason: 'bad_path' });
    }
  });
});
