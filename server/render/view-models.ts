/**
 * What the renderers see: the public part of channels and articles, already
 * filtered (only published, public translations appear here) and with every
 * URL resolved. Built from the store by `server/publish/public-model.ts`;
 * every renderer (HTML via Astro, JSON, Markdown, feeds, sitemap, llms.txt)
 * is a function of these values and nothing else, so the full and the
 * incremental build produce the same bytes.
 * @module
 */

/** One language of a channel. */
export interface PublicChannelTranslation {
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly title: string;
  readonly description: string | null;
  /** The channel's page in this language. */
  readonly htmlUrl: string;
  /** The channel's JSON document in this language. */
  readonly jsonUrl: string;
  /** RSS feed of this language's articles. */
  readonly rssUrl: string;
  /** JSON Feed of this language's articles. */
  readonly jsonFeedUrl: string;
}

/** A public channel (status `active`). */
export interface PublicChannel {
  readonly id: number;
  readonly slug: string;
  readonly defaultLanguage: string;
  /** Primary first, then by language code. */
  readonly translations: readonly PublicChannelTranslation[];
  readonly homepageEnabled: boolean;
  readonly avatarUrl: string | null;
  readonly coverUrl: string | null;
  /** The channel's page in its default language. */
  readonly htmlUrl: string;
  /** Channel RSS feed without language filter (one version per article). */
  readonly rssUrl: string;
  readonly jsonFeedUrl: string;
  readonly jsonUrl: string;
  readonly articlesJsonUrl: string;
  readonly updatedAt: string;
}

/** One published translation of an article. */
export interface PublicTranslation {
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly title: string;
  readonly excerpt: string | null;
  readonly seoTitle: string | null;
  readonly seoDescription: string | null;
  /** The published body as Markdown. */
  readonly markdown: string;
  /** The published body rendered to safe HTML (`renderMarkdown`). */
  readonly html: string;
  /** Plain text of the body, for search and descriptions. */
  readonly text: string;
  readonly publishedAt: string;
  /** When the public version last changed. */
  readonly updatedAt: string;
  /** Canonical URL: `/{channel}/{lang}/{article}`. */
  readonly htmlUrl: string;
  readonly jsonUrl: string;
  readonly markdownUrl: string;
}

/** A public article: at least its primary translation is published. */
export interface PublicArticle {
  readonly id: number;
  readonly slug: string;
  readonly channel: PublicChannel;
  readonly defaultLanguage: string;
  readonly author: { readonly name: string } | null;
  readonly image: { readonly url: string; readonly alt: string } | null;
  /** First publication of the article. */
  readonly publishedAt: string;
  /** Latest change to any public translation. */
  readonly updatedAt: string;
  /** Whether the article is listed on the service homepage (`isOnHomepage`). */
  readonly onHomepage: boolean;
  /** Published translations only: primary first, then by language code. */
  readonly translations: readonly PublicTranslation[];
}

/** Site-wide settings the renderers need. */
export interface SiteInfo {
  /** Base of every absolute URL, no trailing slash. */
  readonly baseUrl: string;
  readonly name: string;
  /** Value of the `Content-Signal` line in robots.txt. */
  readonly contentSignal: string;
}
