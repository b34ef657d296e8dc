import { describe, expect, it } from 'vitest';
import { GFM_PARTS_FOUND, parseGfm, stockGfmParser } from './gfm-parser.ts';
import { ordinaryMarkdown } from '../../../test/support/ordinary-markdown.ts';

// Text where literal autolinks, and what looks like them, meet the rest of GFM.
const CASES = [
  'Mail me at someone@example.com, or www.example.com and https://example.com/a_(b).',
  'No at sign here: www.example.com. http://x.y/z?q=1, and HTTPS://EXAMPLE.ORG/ too.',
  'Words only, with *emphasis*, **strong**, `code`, ~~struck~~ and [a link](https://example.com).',
  '[www.example.com](https://example.com) and <https://example.com> and [ref]\n\n[ref]: https://example.com',
  'mailto:a@b.co and xmpp:a@b.co/res and a.b-c+d@e.f.g. and @handle and a@b',
  'www.example.com/path_(x)_ and (www.example.com) and *www.example.com*',
  '- item www.a.b\n- [ ] task a@b.c\n- [x] done\n\n1. one\n2. two',
  '| a | b@c.de |\n| - | - |\n| www.x.y | `www.z.w` |',
  'Text[^1] more.\n\n[^1]: A note at www.example.com.',
  '> quote https://a.b\n> more\n\n    code www.a.b\n\n```\nfenced a@b.c\n```',
  'Trailing spaces  \nhard break\\\nagain &amp; &#64; entities&#x40;x.y',
  '<div>raw a@b.c</div>\n\n<span>www.x.y</span> text',
  'http://a.b* and www.a.b). and www.a.b; and https://a.b&amp;c and a_b@c.d_',
  'ftp://not.linked and wwwx.y and www.com and http:// and https://. and a@.b',
  'Ünïcödé wörds and émails é@ü.de and www.ü.de, with 日本語 and עברית.',
  'WWW.EXAMPLE.COM and Www.x.y, HTTP://A.B and Http://a.b, with what, when, how, here and who.',
  'what[www.x.y](u) when *www.x.y* how_www.x.y_ h: http:/ https:/x htt://x wwww.x.y ww.x.y',
  '',
];

/** `text` without one kind of literal autolink or another: each parser of `parseGfm` gets its turn. */
function variants(text: string): string[] {
  return [
    text,
    text.replaceAll('@', ' '),
    text.replace(/www\./gi, 'ww.'),
    text.replace(/(https?):\/\//gi, '$1:/'),
    text.replaceAll('@', ' ').replace(/www\./gi, 'ww.').replace(/(https?):\/\//gi, '$1:/'),
  ];
}

/** A seeded random string of Markdown-significant snippets. */
function randomMarkdown(seed: number, length: number): string {
  const SNIPPETS = ['a', 'word', ' ', ' ', '\n', '\n\n', '@', 'www.', 'http://', 'https://', 'x.y', '.', '_', '*', '~', '`', '[', ']', '(', ')', '<', '>', '&amp;', '\\', '-', '+', '|', '#', '1.', ':', 'mailto:', '^', '!', '  \n', 'W', 'H', 'w', 'h', 'WWW.', 'HTTPS://', 'what', 'ww'];
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  let out = '';
  for (let i = 0; i < length; i++) out += SNIPPETS[Math.floor(next() * SNIPPETS.length)];
  return out;
}

describe('the GFM parser (gfm-parser.ts)', () => {
  it('still finds the parts of remark-gfm it changes', () => {
    expect(GFM_PARTS_FOUND).toBe(true);
  });

  it.each(CASES.map((text) => [text.slice(0, 40), text]))('gives the plugin\'s own tree: %s', (_, text) => {
    for (const variant of variants(text)) expect(parseGfm(variant), variant).toEqual(stockGfmParser.parse(variant));
  });

  it('gives the plugin\'s own tree for 500 random texts, each with and without each kind of autolink', () => {
    for (let seed = 1; seed <= 500; seed++) {
      for (const variant of variants(randomMarkdown(seed, 10 + (seed % 60)))) expect(parseGfm(variant), variant).toEqual(stockGfmParser.parse(variant));
    }
  });

  it('gives the plugin\'s own tree for ordinary Markdown', () => {
    const text = ordinaryMarkdown(60_000);
    expect(parseGfm(text)).toEqual(stockGfmParser.parse(text));
  });
});
