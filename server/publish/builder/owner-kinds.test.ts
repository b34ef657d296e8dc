/**
 * The dependency map (`owner-kinds.ts`) against the code that follows it:
 * each owner key has its kind, each event names the owners the map says,
 * and every input the map names changes the kind's input hash (and nothing
 * it does not name: a channel owner ignores the cursor pages' anchors).
 */
import { describe, expect, it } from 'vitest';
import { bilingualArticle, SITE, techChannel } from '../../../test/support/view-models.ts';
import type { PublicationEvent } from '../../store/publication-event.repository.ts';
import { eventScope } from './event-scope.ts';
import { articleInputHash, listOwnerInputHash, type ListOwnerInputs } from './owner-inputs.ts';
import { OWNER_KINDS, orderedInputs, ownerKindOf, type OwnerKind } from './owner-kinds.ts';
import { articleOwner, channelOwner, pagesOwner, SITE_OWNER } from './site-plan.ts';

describe('owner keys', () => {
  it.each([
    [articleOwner(7), 'article'],
    [channelOwner(7), 'channel'],
    [pagesOwner(7), 'pages'],
    [SITE_OWNER, 'site'],
  ])('%s is of kind %s', (owner, kind) => {
    expect(ownerKindOf(owner)).toBe(kind);
  });

  it('refuses what is not an owner key', () => {
    expect(() => ownerKindOf('feed:1')).toThrow(/not an owner key/);
  });
});

describe('events', () => {
  const events: PublicationEvent['kind'][] = ['article_public_changed', 'article_homepage_changed', 'channel_changed'];
  it.each(events)('%s names the owners the map says', (kind) => {
    const scope = eventScope([{ id: 1, kind, channelId: 3, articleId: kind === 'channel_changed' ? null : 30, languages: [], createdAt: '' }]);
    expect(scope.articleIds.has(30)).toBe(OWNER_KINDS.article.staleWhen[kind] === 'its article');
    expect(scope.changedChannels.has(3)).toBe(OWNER_KINDS.article.staleWhen[kind] === 'articles of its channel');
    expect(scope.channelIds.has(3)).toBe(OWNER_KINDS.channel.staleWhen[kind] === 'its channel' && OWNER_KINDS.pages.staleWhen[kind] === 'its channel');
    expect(OWNER_KINDS.site.staleWhen[kind]).toBe('all');
  });
});

describe('input hashes hash what the map names', () => {
  const channel = techChannel();
  const article = bilingualArticle(channel);
  const head = { summary: article, contentHashes: { en: 'h-en', ar: 'h-ar' } };
  const article_ = (over: Partial<{ head: typeof head; site: typeof SITE; code: string }> = {}) => articleInputHash(over.head ?? head, over.site ?? SITE, over.code ?? 'code');

  it.each([
    ['code', () => article_({ code: 'other code' })],
    ['site', () => article_({ site: { ...SITE, name: 'Other' } })],
    ['head', () => article_({ head: { ...head, summary: { ...article, slug: 'other' } } })],
    ['bodies', () => article_({ head: { ...head, contentHashes: { en: 'h-en2', ar: 'h-ar' } } })],
  ])('an article owner\'s hash changes with its "%s"', (name, changed) => {
    expect(OWNER_KINDS.article.inputs).toContain(name);
    expect(changed()).not.toBe(article_());
  });

  it('names every input the article hash takes', () => {
    expect(OWNER_KINDS.article.inputs).toEqual(['code', 'site', 'head', 'bodies']);
  });

  const list = (kind: OwnerKind, over: Partial<ListOwnerInputs> = {}): string | null =>
    listOwnerInputHash({
      owner: kind === 'pages' ? pagesOwner(channel.id) : channelOwner(channel.id),
      channel,
      members: [article],
      articleHashes: new Map([[article.id, 'a1']]),
      anchors: [['scope', [1, 2]]],
      cursorKey: 'key',
      site: SITE,
      fingerprint: 'code',
      ...over,
    });
  const changes: Record<string, Partial<ListOwnerInputs>> = {
    owner: {},
    code: { fingerprint: 'other code' },
    site: { site: { ...SITE, name: 'Other' } },
    cursorKey: { cursorKey: 'other key' },
    channel: { channel: { ...channel, slug: 'other' } },
    members: { articleHashes: new Map([[article.id, 'a2']]) },
    anchors: { anchors: [['scope', [1, 3]]] },
  };

  it.each(['channel', 'pages'] as const)('a %s owner\'s hash changes with each input the map names, and only with those', (kind) => {
    for (const [name, over] of Object.entries(changes)) {
      if (name === 'owner') continue;
      const named = OWNER_KINDS[kind].inputs.includes(name);
      expect(list(kind, over) !== list(kind), `${kind}: ${name}`).toBe(named);
    }
    expect(OWNER_KINDS[kind].inputs.every((name) => name in changes)).toBe(true);
  });

  it('tells a channel owner from its cursor pages on the same inputs', () => {
    expect(list('channel', { anchors: undefined })).not.toBe(list('pages', { anchors: undefined }));
  });

  it('is null while a member\'s article hash is unknown (the owner is then rendered)', () => {
    expect(list('channel', { articleHashes: new Map() })).toBeNull();
  });

  it('orders the values as the map does, and refuses a missing one', () => {
    expect(orderedInputs('site', { groups: 4, channels: 3, site: 2, code: 1 })).toEqual([1, 2, 3, 4]);
    expect(() => orderedInputs('site', { code: 1 })).toThrow(/no "site"/);
  });
});
