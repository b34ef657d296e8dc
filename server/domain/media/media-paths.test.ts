import { describe, expect, it } from 'vitest';
import { articleFileName, channelFileName, contentHash, draftFileName, draftReferences, rewriteDraftReferences } from './media-paths.ts';

const A = '0123456789abcdef';
const B = 'fedcba9876543210';

describe('media names', () => {
  it('are content-hashed and laid out per channel', () => {
    const hash = contentHash(new TextEncoder().encode('pixels'));
    expect(hash.hex).toMatch(/^[0-9a-f]{64}$/);
    expect(hash.short).toBe(hash.hex.slice(0, 16));
    expect(draftFileName('news', A)).toBe(`news/_drafts/${A}.webp`);
    expect(articleFileName('news', 'hello', A)).toBe(`news/hello/${A}.webp`);
    expect(channelFileName('news', 'avatar', A)).toBe(`news/_channel/avatar-${A}.webp`);
  });
});

describe('draft references', () => {
  const body = [
    `![One](http://pressroom.test/media/news/_drafts/${A}.webp)`,
    `<figure><img src="https://cdn.example/media/news/_drafts/${A}.webp" alt="One"></figure>`,
    `![Two](/media/news/_drafts/${B}.webp)`,
    `![Other channel](/media/sports/_drafts/${A}.webp)`,
    `![Final](/media/news/hello/${A}.webp)`,
  ].join('\n\n');

  it('finds each draft of the channel once, wherever the URL points', () => {
    expect(draftReferences(body, 'news')).toEqual([A, B]);
    expect(draftReferences(body, 'sports')).toEqual([A]);
    expect(draftReferences(body, 'new')).toEqual([]);
  });

  it('rewrites only the drafts it is given, keeping host and relative form', () => {
    const out = rewriteDraftReferences(body, 'news', 'hello', new Set([A]));
    expect(out).toContain(`(http://pressroom.test/media/news/hello/${A}.webp)`);
    expect(out).toContain(`src="https://cdn.example/media/news/hello/${A}.webp"`);
    expect(out).toContain(`(/media/news/_drafts/${B}.webp)`);
    expect(out).toContain(`(/media/sports/_drafts/${A}.webp)`);
  });
});
