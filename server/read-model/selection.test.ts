import { describe, expect, it } from 'vitest';
import { channelLanguages, channelVersion, newestInLanguage } from './selection.ts';
import { buildArticle, buildChannel } from '../../test/support/view-models.ts';

const englishOnly = buildChannel({ id: 1, slug: 'desk', defaultLanguage: 'en', translations: [{ language: 'en', title: 'The Desk', description: 'News.' }] });
const bilingualChannel = buildChannel({
  id: 2,
  slug: 'wire',
  defaultLanguage: 'en',
  translations: [
    { language: 'en', title: 'Wire' },
    { language: 'ar', title: 'السلك' },
  ],
});
const article = (id: number, languages: string[]) =>
  buildArticle(englishOnly, { id, slug: `a-${id}`, defaultLanguage: languages[0]!, translations: languages.map((language) => ({ language, title: `${language} ${id}`, publishedAt: '2026-01-01T00:00:00.000Z' })) });

describe('channelLanguages', () => {
  it.each([
    ['no articles', englishOnly, [], ['en']],
    ['articles in its own language', englishOnly, [article(1, ['en'])], ['en']],
    ['articles in others: default first, then by code', englishOnly, [article(1, ['en']), article(2, ['de', 'en']), article(3, ['ar'])], ['en', 'ar', 'de']],
    ['its own translations without articles in them', bilingualChannel, [], ['en', 'ar']],
  ] as const)('%s', (_name, channel, articles, expected) => {
    expect(channelLanguages(channel, articles)).toEqual(expected);
  });

  it("ignores other channels' articles", () => {
    expect(channelLanguages(bilingualChannel, [article(1, ['de'])])).toEqual(['en', 'ar']);
  });
});

describe('channelVersion', () => {
  it.each([
    // [language, title language, page, channel document, list, feed]
    [null, 'en', 'https://news.example/desk/', 'https://news.example/api/public/v1/channels/desk', 'https://news.example/api/public/v1/channels/desk/articles', 'https://news.example/desk/rss.xml'],
    ['en', 'en', 'https://news.example/desk/', 'https://news.example/api/public/v1/channels/desk', 'https://news.example/api/public/v1/channels/desk/articles?lang=en', 'https://news.example/desk/en/rss.xml'],
    // A language the channel lacks: its own page, list and feed; the channel named (and documented) in its default language.
    ['de', 'en', 'https://news.example/desk/de/', 'https://news.example/api/public/v1/channels/desk', 'https://news.example/api/public/v1/channels/desk/articles?lang=de', 'https://news.example/desk/de/rss.xml'],
  ] as const)('%s', (language, textLanguage, htmlUrl, jsonUrl, articlesJsonUrl, rssUrl) => {
    expect(channelVersion(englishOnly, language)).toMatchObject({ language: textLanguage, title: 'The Desk', htmlUrl, jsonUrl, articlesJsonUrl, rssUrl });
  });

  it("uses the channel's own translation in its own languages", () => {
    expect(channelVersion(bilingualChannel, 'ar')).toMatchObject({
      language: 'ar',
      dir: 'rtl',
      title: 'السلك',
      htmlUrl: 'https://news.example/wire/ar/',
      jsonUrl: 'https://news.example/api/public/v1/channels/wire?lang=ar',
    });
  });
});

describe('newestInLanguage', () => {
  // A seeded generator, so a failure repeats: dates collide often, languages vary, ids are unique.
  const seeded = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const day = (n: number) => `2026-01-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00.000Z`;
  /** The definition: every article in the language, sorted by its translation's publication (newest first), then id. */
  const bySorting = (articles: ReturnType<typeof buildArticle>[], language: string, limit: number) =>
    articles
      .flatMap((a) => a.translations.filter((t) => t.language === language).map((t) => ({ a, at: t.publishedAt })))
      .sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : y.a.id - x.a.id))
      .slice(0, limit)
      .map((x) => x.a.id);

  it.each([0, 1, 2, 3, 4, 5])('picks what a full sort picks (seed %i)', (seed) => {
    const random = seeded(seed + 1);
    const articles = Array.from({ length: 300 }, (_, i) =>
      buildArticle(englishOnly, {
        id: i + 1,
        slug: `a-${i + 1}`,
        defaultLanguage: 'en',
        translations: [{ language: 'en', title: 'e', publishedAt: day(Math.floor(random() * 40)) }, ...(random() < 0.6 ? [{ language: 'ar', title: 'a', publishedAt: day(Math.floor(random() * 40)) }] : [])],
      }),
    ).sort(() => random() - 0.5);
    for (const [language, limit] of [['en', 50], ['ar', 50], ['ar', 1], ['ar', 500], ['de', 50], ['en', 0]] as const) {
      expect(newestInLanguage(articles, language, limit).map((a) => a.id)).toEqual(bySorting(articles, language, limit));
    }
  });
});
