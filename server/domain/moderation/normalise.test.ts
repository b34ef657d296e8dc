import { describe, expect, it } from 'vitest';
import { hostMatches, linkHost, normaliseHost, normaliseText, withoutMarkers } from './normalise.ts';
import { markdownPublicText, urlsInText } from './public-text.ts';

describe('normaliseText', () => {
  it.each([
    ['Casino Bonus', 'casino bonus'],
    ['ＣＡＳＩＮＯ　ｂｏｎｕｓ', 'casino bonus'],
    ['casi\u00adno', 'casino'],
    ['ca\u200bsi\u200cno\u200d', 'casino'],
    ['\u202ecasino\u202c\u2066x\u2069', 'casinox'],
    ['casino\ufe0f\ufe0e', 'casino'],
    ['\ufeffcasino\u2060', 'casino'],
    ['ca\u0000si\u001bno\u007f', 'casino'],
    ['casino\u00a0\t\n\r\u2028\u2029\u3000\u0085bonus', 'casino bonus'],
    ['  spaced   out  ', 'spaced out'],
    ['STRAẞE straße', 'strasse strasse'],
    ['ﬁne ①', 'fine 1'],
    ['e\u0301', 'é'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });

  it('removes Markdown markers for the second look', () => {
    expect(withoutMarkers('zz**block**marker zz_block_marker zz~~block~~marker `zz`blockmarker')).toBe('zzblockmarker zzblockmarker zzblockmarker zzblockmarker');
  });
});

describe('linkHost', () => {
  it.each([
    ['https://spam.example/', 'spam.example'],
    ['https://user@spam.example/', 'spam.example'],
    ['https://user:pw@spam.example:8080/', 'spam.example'],
    ['https://spam.example./', 'spam.example'],
    ['https://spam.example../', 'spam.example'],
    ['//spam.example/', 'spam.example'],
    ['\\\\spam.example/', 'spam.example'],
    ['https:\\\\spam.example/', 'spam.example'],
    ['https:/spam.example/', 'spam.example'],
    ['https:spam.example', 'spam.example'],
    ['https://spam%2Eexample/', 'spam.example'],
    ['https://SPAM.Example/', 'spam.example'],
    ['https://ｓｐａｍ．ｅｘａｍｐｌｅ/', 'spam.example'],
    ['https://spam。example/', 'spam.example'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['  https://spam.exa\nmple/  ', 'spam.example'],
    ['https://spam\u200b.example/', 'spam.example'],
    ['www.spam.example/x', 'www.spam.example'],
    ['mailto:a@Spam.Example?subject=x', 'spam.example'],
    ['ftp://spam.example/', 'spam.example'],
    ['foo://Spam%2Eexample/', 'spam.example'],
    ['https://spam.example@good.example/', 'good.example'],
    ['/relative/path', null],
    ['page.html', null],
    ['#top', null],
    ['javascript:alert(1)', null],
    ['mailto:nobody', null],
    ['https://', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(linkHost(input)).toBe(expected);
  });

  it('normalises rule domains the same way', () => {
    expect(normaliseHost('SPAM.Example.')).toBe('spam.example');
    expect(normaliseHost('.spam.example')).toBe('spam.example');
    expect(hostMatches('a.spam.example', 'spam.example')).toBe(true);
    expect(hostMatches('notspam.example', 'spam.example')).toBe(false);
  });
});

describe('markdownPublicText', () => {
  it.each([
    ['zz**block**marker', 'zzblockmarker'],
    ['zzblock&#109;arker', 'zzblockmarker'],
    ['zz<b>block</b>marker', 'zzblockmarker'],
    ['![alt text](/x.png "a title")', 'alt text a title'],
    ['<img alt="raw alt" src="/x.png">', 'raw alt'],
    ['one\n\ntwo', 'one two'],
    ['- a\n- b', 'a b'],
  ])('%j reads %j', (markdown, text) => {
    expect(normaliseText(markdownPublicText(markdown).text)).toBe(text);
  });

  it('collects link targets once per link', () => {
    expect(markdownPublicText('[a](/x) <https://b.example> https://c.example [d][r]\n\n[r]: //d.example').links).toEqual([
      '/x',
      'https://b.example',
      'https://c.example',
      '//d.example',
    ]);
  });

  it('finds URL-like text but not words with colons', () => {
    expect(urlsInText('see https://a.example/x. and //b.example, www.c.example; note: this, time:12')).toEqual([
      'https://a.example/x',
      '//b.example',
      'www.c.example',
    ]);
  });
});
