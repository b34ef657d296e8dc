import { describe, expect, it } from 'vitest';
import { createArticleIndex } from '../../read-model/article-index.ts';
import { ARTICLE_LIST_ORDER, articleListScope, channelListScope, type ListPosition } from '../../read-model/list-pages.ts';
import { buildArticle, buildChannel } from '../../../test/support/view-models.ts';
import type { PublicationEvent } from '../../store/publication-event.repository.ts';
import { BuilderState } from './builder-state.ts';
import { channelChanges, eventScope } from './event-scope.ts';
import { ListAnchorBook } from './list-anchor-book.ts';

describe('BuilderState.followFullBuild', () => {
  it.each([
    { name: 'first look, nothing read yet', known: undefined, read: false, last: 'a', dropped: false },
    { name: 'first look after reading the store', known: undefined, read: true, last: 'a', dropped: true },
    { name: 'the build it knows', known: 'a', read: true, last: 'a', dropped: false },
    { name: 'another process built since', known: 'a', read: true, last: 'b', dropped: true },
    { name: 'another process built, nothing read', known: 'a', read: false, last: 'b', dropped: true },
    { name: 'no full build recorded yet', known: undefined, read: false, last: undefined, dropped: false },
  ])('$name → dropped: $dropped', ({ known, read, last, dropped }) => {
    const state = new BuilderState();
    if (known) state.madeFullBuild(known);
    if (read) {
      state.index = createArticleIndex();
      state.channels = [];
      state.anchors.load([]);
    }
    expect(state.followFullBuild(last)).toBe(dropped);
    expect(state.index === null).toBe(dropped || !read);
    expect(state.complete).toBe(read && !dropped);
    // Once followed, the same value changes nothing.
    expect(state.followFullBuild(last)).toBe(false);
  });

  it('publicState() refuses until the whole state is held', () => {
    const state = new BuilderState();
    expect(() => state.publicState()).toThrow(/no public state/);
    state.index = createArticleIndex();
    state.channels = [];
    state.anchors.load([]);
    expect(state.publicState()).toMatchObject({ channels: [], articles: new Map(), anchors: new Map() });
  });

  it('hands what the files show over once, then starts again', () => {
    const state = new BuilderState();
    state.showOnly([[1, { en: 'h1' }], [2, { en: 'h2' }]]);
    state.show(2, {});
    expect(state.takeShown()).toEqual(new Map([[1, { en: 'h1' }], [2, {}]]));
    expect(state.takeShown()).toEqual(new Map());
  });
});

describe('ListAnchorBook', () => {
  const scope = articleListScope(1, null);
  const at = (p: string, id: number): ListPosition => ({ p, id });

  it('sorts what it loads in each list\'s order, and keeps the same array while nothing is added', () => {
    const book = new ListAnchorBook();
    expect(book.loaded).toBe(false);
    expect(() => book.all()).toThrow(/not loaded/);
    book.load([[scope, [at('2026-01-01', 1), at('2026-03-01', 3)]], [channelListScope(null), [at('', 5), at('', 2)]]]);
    expect(book.all().get(scope)).toEqual([at('2026-03-01', 3), at('2026-01-01', 1)]);
    expect(book.all().get(channelListScope(null))).toEqual([at('', 2), at('', 5)]);
    const same = book.of(scope, [at('2026-03-01', 3)], (p) => p);
    expect(book.of(scope, [at('2026-01-01', 1)], (p) => p)).toBe(same);
    expect(book.takeAdded()).toEqual([]);
  });

  it('adds every item as an anchor, records each once, and keeps them through forget()', () => {
    const book = new ListAnchorBook();
    book.load([]);
    const anchors = book.of(scope, [at('2026-02-01', 2), at('2026-04-01', 4)], (p) => p);
    expect(anchors).toEqual([at('2026-04-01', 4), at('2026-02-01', 2)].sort(ARTICLE_LIST_ORDER));
    expect(Object.isFrozen(anchors)).toBe(true);
    book.forget();
    expect(book.loaded).toBe(false);
    expect(book.takeAdded().sort((a, b) => a.position.id - b.position.id)).toEqual([
      { scope, position: at('2026-02-01', 2) },
      { scope, position: at('2026-04-01', 4) },
    ]);
    expect(book.takeAdded()).toEqual([]);
  });
});

describe('eventScope', () => {
  const event = (kind: PublicationEvent['kind'], channelId: number, articleId: number | null): PublicationEvent => ({ id: 1, kind, channelId, articleId, languages: [], createdAt: '' });

  it.each([
    { events: [event('article_public_changed', 1, 10)], articles: [10], channels: [1], changed: [] },
    { events: [event('article_homepage_changed', 1, 10), event('article_public_changed', 2, 11)], articles: [10, 11], channels: [1, 2], changed: [] },
    { events: [event('channel_changed', 3, null)], articles: [], channels: [3], changed: [3] },
    { events: [], articles: [], channels: [], changed: [] },
  ])('names articles $articles, channels $channels, changed channels $changed', ({ events, articles, channels, changed }) => {
    const scope = eventScope(events);
    expect([...scope.articleIds]).toEqual(articles);
    expect([...scope.channelIds]).toEqual(channels);
    expect([...scope.changedChannels]).toEqual(changed);
  });
});

describe('channelChanges', () => {
  it('counts an article in the channel it left and in the one it joined', () => {
    const news = buildChannel({ id: 1, slug: 'news', defaultLanguage: 'en', translations: [{ language: 'en', title: 'News' }] });
    const sport = buildChannel({ id: 2, slug: 'sport', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Sport' }] });
    const before = buildArticle(news, { id: 10, slug: 'moved', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Moved', publishedAt: '2026-01-01T00:00:00Z' }] });
    const after = buildArticle(sport, { id: 10, slug: 'moved', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Moved', publishedAt: '2026-01-01T00:00:00Z' }] });
    const changes = channelChanges(new Map([[1, [before]], [2, []]]), new Map([[10, before]]), new Map([[10, after]]));
    expect(changes.get(1)!.articles).toEqual([{ before, after }]);
    expect(changes.get(2)!.articles).toEqual([{ before, after }]);
    expect(changes.get(1)!.group).toEqual([before]);
  });

  it('an article that stopped being public has no version after', () => {
    const news = buildChannel({ id: 1, slug: 'news', defaultLanguage: 'en', translations: [{ language: 'en', title: 'News' }] });
    const gone = buildArticle(news, { id: 10, slug: 'gone', defaultLanguage: 'en', translations: [{ language: 'en', title: 'Gone', publishedAt: '2026-01-01T00:00:00Z' }] });
    const changes = channelChanges(new Map([[1, [gone]]]), new Map([[10, gone]]), new Map());
    expect(changes.get(1)!.articles).toEqual([{ before: gone, after: null }]);
  });
});
