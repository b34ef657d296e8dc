import { describe, expect, it } from 'vitest';
import { buildArticle, buildChannel } from '../../test/support/view-models.ts';
import { createArticleIndex, takeChangedIds } from './article-index.ts';

const news = buildChannel({ id: 1, slug: 'news', defaultLanguage: 'en', translations: [{ language: 'en', title: 'News' }] });
const sport = buildChannel({ id: 2, slug: 'sport', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Sport' }] });
const article = (channel: typeof news, id: number, day: number, title = `A ${id}`) =>
  buildArticle(channel, { id, slug: `a-${id}`, defaultLanguage: 'en', translations: [{ language: 'en', title, publishedAt: `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z` }] });

describe('the article index', () => {
  it('groups articles by channel, newest first, as frozen arrays', () => {
    const index = createArticleIndex([article(news, 1, 1), article(sport, 2, 2), article(news, 3, 3)]);
    const groups = index.groups();
    expect([...groups.keys()].sort()).toEqual([1, 2]);
    expect(groups.get(1)!.map((a) => a.id)).toEqual([3, 1]);
    expect(Object.isFrozen(groups.get(1))).toBe(true);
  });

  it('hands out the same array for a channel none of whose articles changed, and a new one for the others', () => {
    const index = createArticleIndex([article(news, 1, 1), article(sport, 2, 2)]);
    const before = new Map(index.groups());
    index.set(1, article(news, 1, 1, 'A 1, revised'));
    const after = index.groups();
    expect(after.get(2)).toBe(before.get(2));
    expect(after.get(1)).not.toBe(before.get(1));
    expect(after.get(1)![0]!.translations[0]!.title).toBe('A 1, revised');
    expect(index.groups()).toBe(after); // nothing changed since
  });

  it('moves an article between groups, and drops a group with no article left', () => {
    const index = createArticleIndex([article(news, 1, 1), article(sport, 2, 2)]);
    index.groups();
    index.set(2, article(news, 2, 2));
    expect(index.groups().get(1)!.map((a) => a.id)).toEqual([2, 1]);
    expect(index.groups().has(2)).toBe(false);
    index.set(1, null);
    index.set(2, null);
    expect(index.groups().size).toBe(0);
    expect(index.articles.size).toBe(0);
  });

  it('tells each reader that follows it which ids were set since that reader last asked, from its first asking on', () => {
    const index = createArticleIndex([article(news, 1, 1)]);
    const [mirror, feed] = [{}, {}];
    index.set(2, article(news, 2, 2));
    expect(takeChangedIds(index.articles, mirror)).toBeUndefined();
    index.set(3, article(sport, 3, 3));
    expect(takeChangedIds(index.articles, feed)).toBeUndefined();
    index.set(1, null);
    expect([...takeChangedIds(index.articles, mirror)!].sort()).toEqual([1, 3]);
    expect([...takeChangedIds(index.articles, mirror)!]).toEqual([]);
    // The other reader's journal is its own: what the first one took is still there for it.
    expect([...takeChangedIds(index.articles, feed)!]).toEqual([1]);
    expect(takeChangedIds(new Map(), mirror)).toBeUndefined();
  });
});
