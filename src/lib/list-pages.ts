/**
 * The channel page and the homepage as data, computed from the view models.
 * @module
 */
import type { PublicArticleSummary, PublicChannel, PublicChannelTranslation, SiteInfo } from '../../server/render/view-models.ts';
import { channelTranslation, type LanguageLink, type ShownDate } from './article-page.ts';
import type { HeadData, HeadLink, HeadMeta } from './head.ts';
import { absoluteUrl, localHref, newestFirst, truncateText } from './html-helpers.ts';
import { formatDate, languageName, ogLocale, uiFor, type Ui } from './i18n.ts';
import type { ChannelPageInput, HomePageInput } from './page-input.ts';

/** One article in a list. */
export interface ArticleListItem {
  readonly title: string;
  /** Root-relative link to the translation's page. */
  readonly href: string;
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  readonly excerpt: string | null;
  readonly date: ShownDate;
  readonly author: string | null;
  /** The publishing channel (homepage only). */
  readonly channel: { readonly name: string; readonly href: string; readonly lang: string; readonly dir: 'ltr' | 'rtl' } | null;
}

/** One channel in the homepage's list. */
export interface ChannelListItem {
  readonly name: string;
  readonly href: string;
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  readonly description: string | null;
}

/** Everything the channel page renders. */
export interface ChannelPage {
  readonly head: HeadData;
  readonly ui: Ui;
  readonly site: SiteInfo;
  readonly title: string;
  readonly description: string | null;
  /** Root-relative link to the feed of this language. */
  readonly rssHref: string;
  readonly articles: readonly ArticleListItem[];
  readonly otherLanguages: readonly LanguageLink[];
}

/** Everything the homepage renders. */
export interface HomePage {
  readonly head: HeadData;
  readonly ui: Ui;
  readonly site: SiteInfo;
  readonly articles: readonly ArticleListItem[];
  readonly channels: readonly ChannelListItem[];
}

// The homepage mixes languages and SiteInfo names none; its interface text is English.
const HOME_LANGUAGE = 'en';

function exactChannelTranslation(channel: PublicChannel, language: string): PublicChannelTranslation {
  const found = channel.translations.find((t) => t.language === language);
  if (!found) {
    const have = channel.translations.map((t) => t.language).join(', ') || 'none';
    throw new Error(
      `Channel "${channel.slug}" (id ${channel.id}) has no "${language}" translation (it has: ${have}); ` +
        "channel pages are rendered in the channel's own languages only.",
    );
  }
  return found;
}

function listItem(article: PublicArticleSummary, language: string, site: SiteInfo, withChannel: boolean): ArticleListItem | null {
  const t = article.translations.find((x) => x.language === language);
  if (!t) return null;
  const excerpt = t.excerpt?.trim() || t.seoDescription?.trim() || (t.textStart ? truncateText(t.textStart, 200) : '');
  const channelText = withChannel ? channelTranslation(article.channel, language) : null;
  return {
    title: t.title,
    href: localHref(t.htmlUrl, site),
    lang: t.language,
    dir: t.dir,
    excerpt: excerpt || null,
    date: { iso: t.publishedAt, text: formatDate(t.publishedAt, t.language) },
    author: article.author?.name ?? null,
    channel: channelText
      ? { name: channelText.title, href: localHref(channelText.htmlUrl, site), lang: channelText.language, dir: channelText.dir }
      : null,
  };
}

/** Builds the channel page: its articles in `language`, newest first. */
export function channelPage(input: ChannelPageInput): ChannelPage {
  const { channel, language, site } = input;
  const text = exactChannelTranslation(channel, language);
  const ui = uiFor(text.language, text.dir);
  const description = text.description?.trim() || null;
  const metaDescription = truncateText(description ?? `${text.title} · ${site.name}`, 200);
  const own = input.articles.filter((a) => a.channel.id === channel.id && a.translations.some((t) => t.language === language));
  const sorted = newestFirst(
    own,
    (a) => a.translations.find((t) => t.language === language)!.publishedAt,
    (a) => a.id,
  );
  const image = channel.coverUrl ?? channel.avatarUrl;
  const primary = channel.translations.find((t) => t.language === channel.defaultLanguage) ?? channel.translations[0]!;
  const links: HeadLink[] = [
    { rel: 'canonical', href: text.htmlUrl },
    { rel: 'alternate', type: 'application/rss+xml', href: text.rssUrl, title: `${text.title} (RSS)` },
    { rel: 'alternate', type: 'application/feed+json', href: text.jsonFeedUrl, title: `${text.title} (JSON Feed)` },
    { rel: 'alternate', type: 'application/json', href: text.jsonUrl, title: `${text.title} (JSON)` },
    ...channel.translations.map((t): HeadLink => ({ rel: 'alternate', hreflang: t.language, href: t.htmlUrl })),
    { rel: 'alternate', hreflang: 'x-default', href: primary.htmlUrl },
  ];
  const meta: HeadMeta[] = [
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: text.title },
    { property: 'og:description', content: metaDescription },
    { property: 'og:url', content: text.htmlUrl },
    { property: 'og:locale', content: ogLocale(text.language) },
    ...(image ? [{ property: 'og:image', content: absoluteUrl(image, site) }] : []),
    { name: 'twitter:card', content: 'summary' },
  ];
  return {
    head: {
      lang: text.language,
      dir: text.dir,
      title: `${text.title} · ${site.name}`,
      description: metaDescription,
      canonical: text.htmlUrl,
      links,
      meta,
      jsonLd: null,
      pagefindFilters: [],
    },
    ui,
    site,
    title: text.title,
    description,
    rssHref: localHref(text.rssUrl, site),
    articles: sorted.map((a) => listItem(a, language, site, false)!),
    otherLanguages: channel.translations
      .filter((t) => t.language !== text.language)
      .map((t) => ({ language: t.language, dir: t.dir, name: languageName(t.language), href: localHref(t.htmlUrl, site) })),
  };
}

/** Builds the homepage: the `onHomepage` articles, newest first, and the channels. */
export function homePage(input: HomePageInput): HomePage {
  const { site } = input;
  const ui = uiFor(HOME_LANGUAGE, 'ltr');
  const canonical = `${site.baseUrl}/`;
  const description = `${ui.strings.latest} · ${site.name}`;
  const listed = newestFirst(
    input.articles.filter((a) => a.onHomepage && a.translations.length > 0),
    (a) => a.publishedAt,
    (a) => a.id,
  );
  return {
    head: {
      lang: HOME_LANGUAGE,
      dir: 'ltr',
      title: site.name,
      description,
      canonical,
      links: [{ rel: 'canonical', href: canonical }],
      meta: [
        { property: 'og:type', content: 'website' },
        { property: 'og:site_name', content: site.name },
        { property: 'og:title', content: site.name },
        { property: 'og:description', content: description },
        { property: 'og:url', content: canonical },
        { name: 'twitter:card', content: 'summary' },
      ],
      jsonLd: null,
      pagefindFilters: [],
    },
    ui,
    site,
    // Each article in its primary (first) translation.
    articles: listed.map((a) => listItem(a, a.translations[0]!.language, site, true)!),
    channels: input.channels.map((channel) => {
      const text = channelTranslation(channel, channel.defaultLanguage);
      return {
        name: text.title,
        href: localHref(text.htmlUrl, site),
        lang: text.language,
        dir: text.dir,
        description: text.description?.trim() || null,
      };
    }),
  };
}
