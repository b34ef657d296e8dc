/**
 * The channel page and the homepage as data, computed from the view models.
 * @module
 */
import { textDirection } from '../../server/domain/language.ts';
import { byPublication, channelDefaultTranslation, channelTranslationIn, channelVersion, newestInLanguage, PAGE_SUMMARY_MAX_CHARS, pageExcerptOf, truncateText } from '../../server/read-model/selection.ts';
import type { PublicArticleSummary, PublicChannel, SiteInfo } from '../../server/read-model/view-models.ts';
import type { LanguageLink, ShownDate } from './article-page.ts';
import { unindexedHead, type HeadData, type HeadLink, type HeadMeta } from './head.ts';
import { absoluteUrl, jsonForScript, localHref } from './html-helpers.ts';
import { folderCard, imageAt, imageObject, previewMeta, siteLogo, sitePreview } from './preview-image.ts';
import { formatDate, languageName, ogLocale, SITE_LANGUAGE, uiFor, type Ui } from './i18n.ts';
import type { ChannelPageInput, HomePageInput, NotFoundPageInput } from './page-input.ts';

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
  /** Language of `title` and `description` when it is not the page's (the channel lacks the page's language), else null. */
  readonly textLang: { readonly lang: string; readonly dir: 'ltr' | 'rtl' } | null;
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


function listItem(article: PublicArticleSummary, language: string, site: SiteInfo, withChannel: boolean): ArticleListItem | null {
  const t = article.translations.find((x) => x.language === language);
  if (!t) return null;
  const excerpt = pageExcerptOf(t);
  const channelText = withChannel ? channelVersion(article.channel, language) : null;
  return {
    title: t.title,
    href: localHref(t.htmlUrl, site),
    lang: t.language,
    dir: t.dir,
    excerpt,
    date: { iso: t.publishedAt, text: formatDate(t.publishedAt, t.language) },
    author: article.author?.name ?? null,
    channel: channelText
      ? { name: channelText.title, href: localHref(channelText.htmlUrl, site), lang: channelText.language, dir: channelText.dir }
      : null,
  };
}

/**
 * Builds the channel page: its articles in `language`, newest first.
 * `language` is one of the channel's languages (`input.languages`); when the
 * channel's own translations lack it, the page is in that language (its
 * articles are) and names the channel by its default-language title and
 * description, marked with their own `lang` (`channelVersion`; docs/URLS.md).
 */
export function channelPage(input: ChannelPageInput): ChannelPage {
  const { channel, language, site } = input;
  if (!input.languages.includes(language)) {
    throw new Error(
      `Channel "${channel.slug}" (id ${channel.id}) has no "${language}" page (its languages: ${input.languages.join(', ') || 'none'}); ` +
        'channel pages exist in the languages of the channel and of its public articles.',
    );
  }
  const text = channelVersion(channel, language);
  const dir = text.language === language ? text.dir : textDirection(language);
  const ui = uiFor(language, dir);
  const description = text.description?.trim() || null;
  const metaDescription = truncateText(description ?? `${text.title} · ${site.name}`, PAGE_SUMMARY_MAX_CHARS);
  const sorted = newestInLanguage(
    input.articles.filter((a) => a.channel.id === channel.id),
    language,
    Number.POSITIVE_INFINITY,
  );
  // One canonical address per page, the one the sitemap, the channel JSON and the feeds give (docs/URLS.md).
  const canonical = text.htmlUrl;
  // The link preview: the channel's cover, else its drawn card, else its avatar, else the site's logo.
  const logo = channel.avatarUrl ? imageAt(channel.avatarUrl, text.title, site) : siteLogo(site);
  const preview = channel.coverUrl
    ? imageAt(channel.coverUrl, text.title, site)
    : site.socialCards
      ? folderCard(canonical, text.title)
      : logo;
  const links: HeadLink[] = [
    { rel: 'canonical', href: canonical },
    { rel: 'alternate', type: 'application/rss+xml', href: text.rssUrl, title: `${text.title} (RSS)` },
    { rel: 'alternate', type: 'application/feed+json', href: text.jsonFeedUrl, title: `${text.title} (JSON Feed)` },
    { rel: 'alternate', type: 'application/json', href: text.jsonUrl, title: `${text.title} (JSON)` },
    ...input.languages.map((l): HeadLink => ({ rel: 'alternate', hreflang: l, href: channelVersion(channel, l).htmlUrl })),
    { rel: 'alternate', hreflang: 'x-default', href: channel.htmlUrl },
  ];
  const meta: HeadMeta[] = [
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: text.title },
    { property: 'og:description', content: metaDescription },
    { property: 'og:url', content: canonical },
    { property: 'og:locale', content: ogLocale(language) },
    ...previewMeta(preview),
  ];
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'CollectionPage',
    name: text.title,
    ...(description ? { description } : {}),
    inLanguage: language,
    url: canonical,
    image: [preview.url],
    publisher: { '@type': 'Organization', name: text.title, url: channel.htmlUrl, logo: imageObject(logo) },
  };
  return {
    head: {
      lang: language,
      dir,
      title: `${text.title} · ${site.name}`,
      description: metaDescription,
      canonical,
      links,
      meta,
      jsonLd: jsonForScript(jsonLd),
      pagefindFilters: [],
    },
    ui,
    site,
    title: text.title,
    description,
    textLang: text.language === language ? null : { lang: text.language, dir: text.dir },
    rssHref: localHref(text.rssUrl, site),
    articles: sorted.map((a) => listItem(a, language, site, false)!),
    otherLanguages: input.languages
      .filter((l) => l !== language)
      .map((l) => ({ language: l, dir: channelTranslationIn(channel, l)?.dir ?? textDirection(l), name: languageName(l), href: localHref(channelVersion(channel, l).htmlUrl, site) })),
  };
}

/** Builds the homepage: the `onHomepage` articles, newest first, and the channels. */
export function homePage(input: HomePageInput): HomePage {
  const { site } = input;
  const ui = uiFor(SITE_LANGUAGE, 'ltr');
  const canonical = `${site.baseUrl}/`;
  const description = `${ui.strings.latest} · ${site.name}`;
  const listed = input.articles.filter((a) => a.onHomepage && a.translations.length > 0).sort(byPublication);
  const preview = sitePreview(site);
  return {
    head: {
      lang: SITE_LANGUAGE,
      dir: 'ltr',
      title: site.name,
      description,
      canonical,
      // Feed autodiscovery: the site has no feed of its own, so each channel's (one version per article, every language).
      links: [
        { rel: 'canonical', href: canonical },
        ...input.channels.map((channel): HeadLink => ({ rel: 'alternate', type: 'application/rss+xml', href: channel.rssUrl, title: `${channelDefaultTranslation(channel).title} (RSS)` })),
      ],
      meta: [
        { property: 'og:type', content: 'website' },
        { property: 'og:locale', content: ogLocale(SITE_LANGUAGE) },
        { property: 'og:site_name', content: site.name },
        { property: 'og:title', content: site.name },
        { property: 'og:description', content: description },
        { property: 'og:url', content: canonical },
        ...previewMeta(preview),
      ],
      jsonLd: jsonForScript({
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: site.name,
        url: canonical,
        image: [preview.url],
        publisher: { '@type': 'Organization', name: site.name, url: canonical, logo: imageObject(siteLogo(site)) },
      }),
      pagefindFilters: [],
    },
    ui,
    site,
    // Each article in its primary (first) translation.
    articles: listed.map((a) => listItem(a, a.translations[0]!.language, site, true)!),
    channels: input.channels.map((channel) => {
      const text = channelDefaultTranslation(channel);
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

/** What `src/pages/not-found.astro` shows. */
export interface NotFoundPage {
  readonly head: HeadData;
  readonly ui: Ui;
  readonly site: SiteInfo;
  readonly homeHref: string;
  /** The channel's page in the 404 page's language (its default one when it lacks it), under a channel. */
  readonly channel: { readonly name: string; readonly href: string; readonly lang: string; readonly dir: 'ltr' | 'rtl' } | null;
  /** The language whose search page the header sends to; null: every language's (the site's page). */
  readonly searchLanguage: string | null;
}

/**
 * A 404 page: says that nothing is published at the address and links the
 * homepage and, under a channel, the channel's page, in the language of the
 * addresses it answers for. It has no canonical address and asks not to be
 * indexed. The search box is the layout's, as on every page.
 */
export function notFoundPage(input: NotFoundPageInput): NotFoundPage {
  const { site } = input;
  const lang = input.language ?? input.channel?.defaultLanguage ?? SITE_LANGUAGE;
  const dir = textDirection(lang);
  const ui = uiFor(lang, dir);
  const where = input.channel ? channelVersion(input.channel, lang) : null;
  return {
    head: unindexedHead(
      { lang, dir, title: `${ui.strings.notFound} · ${where ? `${where.title} · ` : ''}${site.name}`, description: ui.strings.notFoundText, canonical: `${site.baseUrl}/` },
      [{ property: 'og:locale', content: ogLocale(lang) }, ...previewMeta(sitePreview(site))],
    ),
    ui,
    site,
    homeHref: localHref(`${site.baseUrl}/`, site),
    channel: where && { name: where.title, href: localHref(where.htmlUrl, site), lang: where.language, dir: where.dir },
    searchLanguage: input.language ?? input.channel?.defaultLanguage ?? null,
  };
}
