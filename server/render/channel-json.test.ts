import { describe, expect, it } from 'vitest';
import { listChannelsFor, renderChannelJson, renderChannelList } from './channel-json.ts';
import { buildChannel, standardFixtures } from '../../test/support/view-models.ts';

const { channel } = standardFixtures();
const parse = (text: string) => JSON.parse(text) as Record<string, any>;
const CHANNEL_FIELDS = [
  'schema_version',
  'id',
  'slug',
  'title',
  'description',
  'language',
  'default_language',
  'available_languages',
  'canonical_url',
  '_links',
];

describe('renderChannelJson', () => {
  it('renders the default language with the channel default addresses', () => {
    const body = parse(renderChannelJson(channel, 'en'));
    expect(Object.keys(body)).toEqual(CHANNEL_FIELDS);
    expect(body).toEqual({
      schema_version: '1.0',
      id: 1,
      slug: 'journal',
      title: 'Pressroom Journal',
      description: 'Notes on writing & publishing.',
      language: 'en',
      default_language: 'en',
      available_languages: ['en', 'ar'],
      canonical_url: 'https://news.example/journal/',
      _links: {
        self: 'https://news.example/api/public/v1/channels/journal',
        html: 'https://news.example/journal/',
        articles: 'https://news.example/api/public/v1/channels/journal/articles',
        rss: 'https://news.example/journal/rss.xml',
      },
    });
  });

  it('renders another language with its own addresses', () => {
    const body = parse(renderChannelJson(channel, 'ar'));
    expect(body).toMatchObject({
      title: 'مجلة بريسروم',
      description: 'ملاحظات عن الكتابة والنشر.',
      language: 'ar',
      default_language: 'en',
      canonical_url: 'https://news.example/journal/ar/',
      _links: {
        self: 'https://news.example/api/public/v1/channels/journal?lang=ar',
        html: 'https://news.example/journal/ar/',
        articles: 'https://news.example/api/public/v1/channels/journal/articles?lang=ar',
        rss: 'https://news.example/journal/ar/rss.xml',
      },
    });
  });

  it('refuses a language the channel does not have (404, rule 1)', () => {
    expect(() => renderChannelJson(channel, 'fr')).toThrow(RangeError);
  });

  it('is deterministic', () => {
    expect(renderChannelJson(channel, 'ar')).toBe(renderChannelJson(channel, 'ar'));
  });
});

describe('renderChannelList', () => {
  const second = buildChannel({ id: 2, slug: 'second', defaultLanguage: 'ar', translations: [{ language: 'ar', title: 'الثانية' }] });
  const third = buildChannel({ id: 3, slug: 'third', defaultLanguage: 'fr', translations: [{ language: 'fr', title: 'Troisième' }] });

  it('is a ChannelCollection of default-language channels, oldest first, cut at the limit', () => {
    const page = { limit: 2, nextCursor: 'CURSOR', selfUrl: 'https://news.example/api/public/v1/channels', nextUrl: 'https://news.example/api/public/v1/channels?cursor=CURSOR' };
    const body = parse(renderChannelList([third, channel, second], page));
    expect(Object.keys(body)).toEqual(['schema_version', 'channels', 'pagination', '_links']);
    expect(body.channels.map((c: any) => [c.id, c.language])).toEqual([
      [1, 'en'],
      [2, 'ar'],
    ]);
    for (const c of body.channels) expect(Object.keys(c)).toEqual(CHANNEL_FIELDS);
    expect(body.pagination).toEqual({ limit: 2, next_cursor: 'CURSOR', has_more: true });
    expect(body._links).toEqual({ self: page.selfUrl, next: page.nextUrl });
  });

  it('says there is no more on the last page', () => {
    const body = parse(renderChannelList([channel], { limit: 20, nextCursor: null, selfUrl: 'https://x/c', nextUrl: null }));
    expect(body.pagination).toEqual({ limit: 20, next_cursor: null, has_more: false });
    expect(body._links).toEqual({ self: 'https://x/c', next: null });
  });

  it('orders by id whatever the input order', () => {
    expect(listChannelsFor([third, second, channel]).map((c) => c.id)).toEqual([1, 2, 3]);
  });
});
