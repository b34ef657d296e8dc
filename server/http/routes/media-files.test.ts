import { describe, expect, it } from 'vitest';
import { mediaNameFromPath } from './media-files.ts';

describe('mediaNameFromPath', () => {
  it('returns the name under /media/', () => {
    expect(mediaNameFromPath('/media/news/_drafts/0123456789abcdef.webp')).toBe('news/_drafts/0123456789abcdef.webp');
    expect(mediaNameFromPath('/media/news/_channel/avatar-0123456789abcdef.webp')).toBe('news/_channel/avatar-0123456789abcdef.webp');
  });

  it.each([
    '/media/',
    '/media/../secret',
    '/media/news/../../secret',
    '/media/./news/a.webp',
    '/media/%2e%2e/secret',
    '/media/%2E%2e%2fsecret',
    '/media/news%2f..%2f..%2fsecret',
    '/media/news%5c..%5csecret',
    '/media/news\\..\\secret',
    '/media//etc/passwd',
    '/media/%2fetc/passwd',
    '/media/news/a.webp%00.png',
    '/media/news/%E0%A4%A',
    '/media/news/caf%C3%A9.webp',
    '/other/news/a.webp',
  ])('refuses %s', (raw) => {
    expect(mediaNameFromPath(raw)).toBeNull();
  });
});
