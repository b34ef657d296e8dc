import { describe, expect, it } from 'vitest';
import { fileForRequest } from '../serving/static-files.ts';
import { normalizeRequestPath, rawPathOf } from './request-path.ts';

describe('normalizeRequestPath', () => {
  it.each([
    ['/api/public/v1/channels', '/api/public/v1/channels'],
    ['/%61pi/public/v1/channels', '/api/public/v1/channels'],
    ['/%61%70%69/%70ublic/v1/channels/tech', '/api/public/v1/channels/tech'],
    ['/api/public/v1/channels/tech/articles/hello%2Emd', '/api/public/v1/channels/tech/articles/hello.md'],
    ['/api/public/v1/searc%68', '/api/public/v1/search'],
    ['/tech/caf%c3%a9', '/tech/caf%C3%A9'],
    ['/tech/a%20b', '/tech/a%20b'],
    ['/tech/%7euser', '/tech/~user'],
    ['/tech/', '/tech/'],
    ['/', '/'],
    ['/media/tech/avatar-0123456789abcdef.webp', '/media/tech/avatar-0123456789abcdef.webp'],
  ])('%s is spelled %s', (raw, canonical) => {
    expect(normalizeRequestPath(raw)).toBe(canonical);
  });

  it.each([
    ['an encoded slash', '/api%2Fpublic/v1/channels'],
    ['an encoded slash, lower case', '/api/public/v1/channels%2ftech'],
    ['an encoded backslash', '/tech/%5c..%5cetc'],
    ['a raw backslash', '/tech\\hello'],
    ['an encoded NUL', '/tech/hello%00.html'],
    ['an encoded control character', '/tech/hel%0Alo'],
    ['DEL', '/tech/%7F'],
    ['a dot segment', '/api/public/v1/x/../channels'],
    ['a single dot segment', '/api/./public/v1/channels'],
    ['an encoded dot segment', '/api/public/v1/x/%2e%2e/channels'],
    ['a half-encoded dot segment', '/tech/.%2E/secret'],
    ['an empty segment', '/api//public/v1/channels'],
    ['a leading double slash', '//api/public/v1/channels'],
    ['a malformed escape', '/tech/%zz'],
    ['a lone percent sign', '/tech/100%'],
    ['invalid UTF-8', '/tech/%C3%28'],
    ['the API prefix in another case', '/API/public/v1/channels'],
    ['the API prefix, encoded in another case', '/%41pi/public/v1/channels.json'],
    ['the media prefix in another case', '/Media/tech/a.webp'],
    ['no leading slash', 'api/public/v1/channels'],
  ])('refuses %s: %s', (_what, raw) => {
    expect(normalizeRequestPath(raw)).toBeNull();
  });

  it('is idempotent', () => {
    for (const raw of ['/%61pi/public/v1/channels', '/tech/caf%c3%a9', '/tech/a%2520b']) {
      const once = normalizeRequestPath(raw)!;
      expect(normalizeRequestPath(once)).toBe(once);
    }
  });

  it('rawPathOf drops the query and fragment', () => {
    expect(rawPathOf('/a/b?limit=1#x')).toBe('/a/b');
    expect(rawPathOf('/a/b#x')).toBe('/a/b');
  });
});

describe('fileForRequest answers every spelling with the same file', () => {
  it.each([
    ['/api/public/v1/channels', '/%61pi/public/v1/%63hannels'],
    ['/tech/hello', '/t%65ch/hell%6F'],
    ['/api/public/v1/channels/tech/articles/hello.md', '/api/public/v1/channels/tech/articles/hello%2emd'],
  ])('%s = %s', (canonical, variant) => {
    expect(fileForRequest(variant, null)).toEqual(fileForRequest(canonical, null));
    expect('file' in fileForRequest(variant, null)).toBe(true);
  });

  it.each([
    '/%41PI/public/v1/channels/_lang/en.json',
    '/tech/hello.html.0123456789ab.tmp',
    '/media/tech/.avatar.webp.123.0123456789ab.tmp',
    '/api/public/v1/channels.0123456789ab.tmp',
  ])('refuses %s', (raw) => {
    expect(fileForRequest(raw, null)).toEqual({ reason: 'bad_path' });
  });
});

describe('the 404 page', () => {
  it('is never an address of its own (a 200 saying "not found" would be a soft 404)', () => {
    expect(fileForRequest('/404', null)).toEqual({ reason: 'bad_path' });
    expect(fileForRequest('/404.html', null)).toEqual({ reason: 'bad_path' });
    expect(fileForRequest('/harbour/404', null)).toEqual({ file: 'harbour/404.html' });
    for (const name of ['/_worker.js', '/_headers', '/_redirects']) expect(fileForRequest(name, null)).toEqual({ reason: 'bad_path' });
  });
});
