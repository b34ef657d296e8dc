/**
 * The article page as data: everything `src/pages/article.astro` shows or
 * puts in `<head>`, computed from the view model alone.
 * @module
 */
import { channelVersion, PAGE_SUMMARY_MAX_CHARS, truncateText } from '../../server/read-model/selection.ts';
import type { PublicArticle, PublicChannel, PublicChannelTranslation, PublicTranslation, SiteInfo } from '../../server/read-model/view-models.ts';
import type { HeadData, HeadLink, HeadMeta } from './head.ts';
import { absoluteUrl, jsonForScript, localHref } from './html-helpers.ts';
import { formatDate, languageName, ogLocale, uiFor, utcDay, type Ui } from './i18n.ts';
import type { ArticlePageInput } from './page-input.ts';
import { articleCard, imageAt, imageObject, previewMeta, siteLogo, type PreviewImage } from './preview-image.ts';

/** A link to another published translation. */
export interface LanguageLink {
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  /** The language's own name. */
  readonly name: string;
  /** Root-relative link. */
  readonly href: string;
}

/** A date shown in a `<time>` element. */
export interface ShownDate {
  readonly iso: string;
  readonly text: string;
}

/** Everything the article page renders. */
export interface ArticlePage {
  readonly head: HeadData;
  readonly ui: Ui;
  readonly site: SiteInfo;
  readonly translation: PublicTranslation;
  readonly publisher: { readonly name: string; readonly href: string; readonly lang: string; readonly dir: 'ltr' | 'rtl' };
  readonly author: string | null;
  readonly published: ShownDate;
  /** Shown only when the last change is on a later day than the publication. */
  readonly updated: ShownDate | null;
  /** The other published translations (never this one). */
  readonly otherLanguages: readonly LanguageLink[];
}

/** The translation of `article` in `language`; throws when it is not published. */
export function articleTranslation(article: PublicArticle, language: string): PublicTranslation {
  const found = article.translations.find((t) => t.language === language);
  if (!found) {
    const published = article.translations.map((t) => t.language).join(', ') || 'none';
    throw new Error(
      `Article "${article.channel.slug}/${article.slug}" (id ${article.id}) has no published "${language}" translation ` +
        `(published: ${published}); only published translations are rendered.`,
    );
  }
  return found;
}

/**
 * Description of a translation: its SEO description, else its excerpt, else
 * the start of its prose (its body's paragraphs), else its title (a body
 * without a paragraph; the publishing API warned when it was saved).
 */
export function describeTranslation(translation: PublicTranslation): string {
  const chosen = translation.seoDescription?.trim() || translation.excerpt?.trim() || translation.prose || translation.title;
  return truncateText(chosen, PAGE_SUMMARY_MAX_CHARS);
}

/** Builds the article page from its input. */
export function articlePage(input: ArticlePageInput): ArticlePage {
  const { article, language, site } = input;
  const translation = articleTranslation(article, language);
  // The channel's page, list and feed in this language exist (the article is published in it); its name is
  // the channel's own in this language, else its default one, marked with that language (`channelVersion`).
  const channelText = channelVersion(article.channel, language);
  const ui = uiFor(translation.language, translation.dir);
  const description = describeTranslation(translation);
  const canonical = translation.htmlUrl;
  const headline = translation.seoTitle?.trim() || translation.title;
  // The translation's image is the first of its body's own images (docs/OUTPUTS.md): previews and JSON-LD name it,
  // the page shows it where the body puts it, not a second time above.
  const image = translation.image ? { src: absoluteUrl(translation.image.url, site), alt: translation.image.alt } : null;
  // The link preview: that image, else the page's drawn card, else the channel's avatar, else the site's logo.
  const preview: PreviewImage = translation.image
    ? { url: image!.src, width: translation.image.width, height: translation.image.height, type: translation.image.type, alt: translation.image.alt }
    : site.socialCards
      ? articleCard(canonical, `${translation.title} · ${channelText.title}`)
      : article.channel.avatarUrl
        ? imageAt(article.channel.avatarUrl, channelText.title, site)
        : siteLogo(site);
  const logo = article.channel.avatarUrl ? imageAt(article.channel.avatarUrl, channelText.title, site) : siteLogo(site);
  const others = article.translations.filter((t) => t.language !== translation.language);
  const rssUrl = channelText.rssUrl;
  const primary = article.translations.find((t) => t.language === article.defaultLanguage) ?? article.translations[0]!;

  const links: HeadLink[] = [
    { rel: 'canonical', href: canonical },
    { rel: 'alternate', type: 'text/markdown', href: translation.markdownUrl, title: `${translation.title} (Markdown)` },
    { rel: 'alternate', type: 'application/json', href: translation.jsonUrl, title: `${translation.title} (JSON)` },
    { rel: 'alternate', type: 'application/rss+xml', href: rssUrl, title: `${channelText.title} (RSS)` },
    ...article.translations.map((t): HeadLink => ({ rel: 'alternate', hreflang: t.language, href: t.htmlUrl })),
    { rel: 'alternate', hreflang: 'x-default', href: primary.htmlUrl },
  ];

  const meta: HeadMeta[] = [
    { property: 'og:type', content: 'article' },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: headline },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    { property: 'og:locale', content: ogLocale(translation.language) },
    ...others.map((t): HeadMeta => ({ property: 'og:locale:alternate', content: ogLocale(t.language) })),
    { property: 'article:published_time', content: translation.publishedAt },
    { property: 'article:modified_time', content: translation.updatedAt },
    ...previewMeta(preview),
    { name: 'twitter:title', content: headline },
    { name: 'twitter:description', content: description },
    ...(article.author ? [{ name: 'author', content: article.author.name }] : []),
  ];

  const publisherLd = {
    '@type': 'Organization',
    name: channelText.title,
    url: channelText.htmlUrl,
    logo: imageObject(logo),
  };
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: translation.title,
    description,
    inLanguage: translation.language,
    datePublished: translation.publishedAt,
    dateModified: translation.updatedAt,
    author: article.author ? { '@type': 'Person', name: article.author.name } : publisherLd,
    publisher: publisherLd,
    mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
    url: canonical,
    image: [preview.url],
    ...(translation !== primary ? { translationOfWork: { '@type': 'Article', '@id': primary.htmlUrl, url: primary.htmlUrl } } : {}),
  };

  return {
    head: {
      lang: translation.language,
      dir: translation.dir,
      title: `${headline} · ${channelText.title}`,
      description,
      canonical,
      links,
      meta,
      jsonLd: jsonForScript(jsonLd),
      pagefindFilters: [
        { name: 'language', value: translation.language },
        { name: 'channel', value: channelText.title },
      ],
    },
    ui,
    site,
    translation,
    publisher: { name: channelText.title, href: localHref(channelText.htmlUrl, site), lang: channelText.language, dir: channelText.dir },
    author: article.author?.name ?? null,
    published: { iso: translation.publishedAt, text: formatDate(translation.publishedAt, translation.language) },
    updated:
      utcDay(translation.updatedAt) > utcDay(translation.publishedAt)
        ? { iso: translation.updatedAt, text: formatDate(translation.updatedAt, translation.language) }
        : null,
    otherLanguages: others.map((t) => ({ language: t.language, dir: t.dir, name: languageName(t.language), href: localHref(t.htmlUrl, site) })),
  };
}
