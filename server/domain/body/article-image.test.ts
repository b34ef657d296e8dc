import { describe, expect, it } from 'vitest';
import { imageTags, ownBodyImages } from './article-image.ts';

const own = (name: string) => `/media/news/story/${name}.webp`;
const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';

describe('ownBodyImages (the article image rule reads only the <img> tags of the slice)', () => {
  it('finds the article’s own images in order, with their decoded alt texts', () => {
    const html = `<img src="${own(A)}" alt="Tom &#x26; Jerry &#x22;live&#x22;"><p>text &lt;img src="${own(B)}"> more</p><img src="http://cdn.example${own(B)}" alt="b">`;
    expect(ownBodyImages(html, 'news', 'story')).toEqual([
      { fileName: `news/story/${A}.webp`, alt: 'Tom & Jerry "live"' },
      { fileName: `news/story/${B}.webp`, alt: 'b' },
    ]);
  });

  it('skips other articles’ images, other hosts’ names and files that are not ours', () => {
    const html = `<img src="/media/news/other/${A}.webp"><img src="https://elsewhere.example/x.png"><img src="/media/news/story/not-a-hash.webp">`;
    expect(ownBodyImages(html, 'news', 'story')).toEqual([]);
  });

  it('never takes an <img inside another tag’s attribute value, quoted either way, or a `>` in an alt for the tag’s end', () => {
    const html = `<img src="${own(A)}" alt="a > b"><a title="<img src=${own(B)}>" href="/x">x</a><abbr title='<img src="${own(B)}">'>y</abbr>`;
    expect(ownBodyImages(html, 'news', 'story')).toEqual([{ fileName: `news/story/${A}.webp`, alt: 'a > b' }]);
  });

  it('loses at most the last image when the slice cuts a tag', () => {
    const html = `<img src="${own(A)}" alt="first"><p>x</p><img src="${own(B)}" alt="cut here`;
    expect(ownBodyImages(html, 'news', 'story')).toEqual([{ fileName: `news/story/${A}.webp`, alt: 'first' }]);
    expect(imageTags(`<a title="x <img src=${own(B)}>`)).toBe('');
  });

  it('answers nothing for no HTML or HTML without images', () => {
    expect(ownBodyImages(null, 'news', 'story')).toEqual([]);
    expect(ownBodyImages('<p>no images</p><imgx>', 'news', 'story')).toEqual([]);
  });
});
