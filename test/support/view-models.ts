/**
 * View-model fixtures (`server/read-model/view-models.ts`) for the renderer,
 * read-model and builder tests: one channel builder and one article builder,
 * with every URL made by `public-urls.ts` and every body by the real Markdown
 * renderer, so tests see the addresses and HTML the site really serves; and
 * the named fixtures built with them: the `journal` set covering the language
 * rules, and the `tech` channel with a bilingual article for the HTML pages.
 * @module
 */
import { renderMarkdown, renderMarkdownBody } from '../../server/domain/body/index.ts';
import { textDirection } from '../../server/domain/language.ts';
import { textStartOf } from '../../server/read-model/selection.ts';
import type { AnyPublicArticle, ArticlesByChannel, PublicArticle, PublicArticleSummary, PublicChannel, PublicImage, PublicTranslation, PublicTranslationSummary, SiteInfo } from '../../server/read-model/view-models.ts';
import { createPublicUrls } from '../../server/urls/public-urls.ts';

/** The site of every fixture. */
export const SITE: SiteInfo = Object.freeze({
  baseUrl: 'https://news.example',
  name: 'Pressroom News',
  contentSignal: 'search=yes, ai-input=yes, ai-train=no',
  socialCards: true,
});

const urls = createPublicUrls(SITE.baseUrl, `${SITE.baseUrl}/dashboard`);

/** A channel with the given translations, URLs filled in. */
export function buildChannel(input: {
  id: number;
  slug: string;
  defaultLanguage: string;
  translations: ReadonlyArray<{ language: string; title: string; description?: string | null }>;
  updatedAt?: string;
  avatarUrl?: string | null;
  feedImageUrl?: string | null;
}): PublicChannel {
  return {
    id: input.id,
    slug: input.slug,
    defaultLanguage: input.defaultLanguage,
    translations: input.translations.map((t) => ({
      language: t.language,
      dir: textDirection(t.language),
      title: t.title,
      description: t.description ?? null,
      htmlUrl: t.language === input.defaultLanguage ? urls.channelHtml(input.slug) : urls.channelHtml(input.slug, t.language),
      jsonUrl: urls.channelJson(input.slug, t.language),
      rssUrl: urls.channelRss(input.slug, t.language),
      jsonFeedUrl: urls.channelJsonFeed(input.slug, t.language),
    })),
    homepageEnabled: true,
    avatarUrl: input.avatarUrl ?? null,
    feedImageUrl: input.feedImageUrl ?? null,
    coverUrl: null,
    htmlUrl: urls.channelHtml(input.slug),
    rssUrl: urls.channelRss(input.slug),
    jsonFeedUrl: urls.channelJsonFeed(input.slug),
    jsonUrl: urls.channelJson(input.slug),
    articlesJsonUrl: urls.channelArticlesJson(input.slug),
    updatedAt: input.updatedAt ?? '2026-01-01T00:00:00.000Z',
  };
}

/** The fields of a translation a test chooses; the rest is derived. */
export interface TranslationInput {
  language: string;
  title: string;
  excerpt?: string | null;
  markdown?: string;
  publishedAt: string;
  updatedAt?: string;
}

/** A fixture article is both kinds at once (bodies and `textStart`), so every renderer takes it. */
export type FixtureArticle = PublicArticle & PublicArticleSummary;

/** A translation's image from a URL and alt text; the file's facts are fixed (a 1200 × 800 WebP of 12,345 bytes). */
export function fixtureImage(image: { url: string; alt: string }): PublicImage {
  return { ...image, type: 'image/webp', bytes: 12_345, width: 1200, height: 800 };
}

/** An article of `channel`; translations primary first as the model orders them. */
export function buildArticle(
  channel: PublicChannel,
  input: {
    id: number;
    slug: string;
    defaultLanguage: string;
    author?: { name: string } | null;
    image?: { url: string; alt: string } | null;
    onHomepage?: boolean;
    translations: readonly TranslationInput[];
  },
): FixtureArticle {
  const translations = input.translations.map((t): PublicTranslation & PublicTranslationSummary => {
    const markdown = t.markdown ?? `Body of ${t.title}.\n`;
    const { text, prose } = renderMarkdownBody(markdown);
    return {
      language: t.language,
      dir: textDirection(t.language),
      title: t.title,
      excerpt: t.excerpt === undefined ? `Excerpt of ${t.title}` : t.excerpt,
      seoTitle: null,
      seoDescription: null,
      markdown,
      html: renderMarkdown(markdown),
      text,
      prose,
      textStart: textStartOf(prose),
      publishedAt: t.publishedAt,
      updatedAt: t.updatedAt ?? t.publishedAt,
      htmlUrl: urls.articleHtml(channel.slug, input.slug, t.language),
      jsonUrl: urls.articleJson(channel.slug, input.slug, t.language),
      markdownUrl: urls.articleMarkdown(channel.slug, input.slug, t.language),
      image: input.image ? fixtureImage(input.image) : null,
    };
  });
  return {
    id: input.id,
    slug: input.slug,
    channel,
    defaultLanguage: input.defaultLanguage,
    author: input.author ?? null,
    publishedAt: translations.find((t) => t.language === input.defaultLanguage)!.publishedAt,
    updatedAt: translations.map((t) => t.updatedAt).sort().pop()!,
    onHomepage: input.onHomepage ?? true,
    translations,
  };
}

/**
 * The standard set: channel `journal` (en default, ar) with
 * - `bilingual` (id 10): English and Arabic (RTL), author and image;
 * - `english-only` (id 11): only English, no author, no excerpt, long body;
 * - `arabic-only` (id 12): default language Arabic, its primary its only
 *   public translation; published at the same instant as id 11 (tie on date).
 * Newest first: 12, 11, 10.
 */
export function standardFixtures() {
  const channel = buildChannel({
    id: 1,
    slug: 'journal',
    defaultLanguage: 'en',
    translations: [
      { language: 'en', title: 'Pressroom Journal', description: 'Notes on writing & publishing.' },
      { language: 'ar', title: 'مجلة بريسروم', description: 'ملاحظات عن الكتابة والنشر.' },
    ],
    updatedAt: '2026-01-05T00:00:00.000Z',
  });
  const bilingual = buildArticle(channel, {
    id: 10,
    slug: 'hello-world',
    defaultLanguage: 'en',
    author: { name: 'Jane Doe' },
    image: { url: urls.media('journal/cover.jpg'), alt: 'A printing press' },
    translations: [
      {
        language: 'en',
        title: 'Hello: "World" & <friends>',
        excerpt: 'A first look at the press.',
        markdown: '---\n\nStarts with a rule.\n\n## Section\n\nText.\n\n\n',
        publishedAt: '2026-02-01T09:00:00.000Z',
        updatedAt: '2026-02-03T10:00:00.000Z',
      },
      {
        language: 'ar',
        title: 'مرحبا: العالم',
        excerpt: 'نظرة أولى على المطبعة.',
        markdown: 'نص المقال.\n',
        publishedAt: '2026-02-02T09:00:00.000Z',
      },
    ],
  });
  const englishOnly = buildArticle(channel, {
    id: 11,
    slug: 'english-only',
    defaultLanguage: 'en',
    translations: [
      {
        language: 'en',
        title: 'Only in English',
        excerpt: null,
        markdown: `${'word '.repeat(120)}\n`,
        publishedAt: '2026-03-01T08:00:00.000Z',
      },
    ],
  });
  const arabicOnly = buildArticle(channel, {
    id: 12,
    slug: 'arabic-only',
    defaultLanguage: 'ar',
    translations: [{ language: 'ar', title: 'بالعربية فقط', publishedAt: '2026-03-01T08:00:00.000Z' }],
  });
  return { site: SITE, channel, bilingual, englishOnly, arabicOnly, articles: [bilingual, englishOnly, arabicOnly] as const };
}

/** The "Tech Desk" channel, in English (default) and Arabic, with an avatar. */
export function techChannel(): PublicChannel {
  return buildChannel({
    id: 1,
    slug: 'tech',
    defaultLanguage: 'en',
    translations: [
      { language: 'en', title: 'Tech Desk', description: 'News about software and the web.' },
      { language: 'ar', title: 'مكتب التقنية', description: 'أخبار البرمجيات والويب.' },
    ],
    updatedAt: '2024-04-01T08:00:00.000Z',
    avatarUrl: urls.media('tech/avatar.png'),
  });
}

// Bodies with what the page treats specially: a relative link, a bare URL, an author's H1, an address, inline and block code.
const EN_BODY = `Hello **world**. Read [the next story](./second-story) or visit https://example.com/docs?x=1.

# A heading the author wrote as H1

Write to news@example.com with \`npm run build\`.

\`\`\`js
const answer = 42;
\`\`\`
`;

const AR_BODY = `مرحبا بالعالم. اقرأ [القصة التالية](./second-story) أو زر https://example.com/ar/docs.

# عنوان كتبه المؤلف

راسلونا على news@example.com وشغّلوا \`npm run build\`.
`;

/** An article of `channel` in English (primary) and Arabic, with an author and an image, its English updated a week later. */
export function bilingualArticle(channel: PublicChannel = techChannel()): FixtureArticle {
  return buildArticle(channel, {
    id: 10,
    slug: 'hello-world',
    defaultLanguage: 'en',
    author: { name: 'Layla Haddad' },
    image: { url: urls.media('tech/hello.jpg'), alt: 'A sunrise over the city' },
    translations: [
      {
        language: 'en',
        title: 'Hello, world',
        markdown: EN_BODY,
        excerpt: 'The first story on the Tech Desk.',
        publishedAt: '2024-05-01T09:30:00.000Z',
        updatedAt: '2024-05-08T12:00:00.000Z',
      },
      {
        language: 'ar',
        title: 'مرحبا بالعالم',
        markdown: AR_BODY,
        excerpt: 'القصة الأولى في مكتب التقنية.',
        publishedAt: '2024-05-02T10:00:00.000Z',
      },
    ],
  });
}

/** `articles` grouped by channel id, in their order as the site-wide renderers take them (the builder keeps its own groups, `article-index.ts`). */
export function groupByChannel<A extends AnyPublicArticle>(articles: readonly A[]): ArticlesByChannel<A> {
  const groups = new Map<number, A[]>();
  for (const a of articles) {
    const group = groups.get(a.channel.id);
    if (group) group.push(a);
    else groups.set(a.channel.id, [a]);
  }
  return groups;
}
