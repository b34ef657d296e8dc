/**
 * What the renderers see: the public part of channels and articles, already
 * filtered (only published, public translations appear here) and with every
 * URL resolved. Built from the store by `server/read-model/public-model.ts`;
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
  /** The channel's page in this language (canonical): `/{channel}/` for the default language, else `/{channel}/{lang}/`. */
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
  /**
   * The avatar as PNG, for RSS `<image>` (GIF, JPEG or PNG only); null when the
   * channel has no avatar or it was uploaded before renditions were made.
   */
  readonly feedImageUrl: string | null;
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

/**
 * The image of a published translation (`server/publish/article-image.ts`):
 * one of the article's uploaded files, with the alt text its body gives it.
 */
export interface PublicImage {
  /** Absolute URL of the stored file. */
  readonly url: string;
  readonly alt: string;
  /** Media type of the file (`image/webp`). */
  readonly type: string;
  /** Size of the file in bytes (RSS `enclosure` length). */
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
}

/** What every output shows of a published translation, the body aside. */
export interface PublicTranslationHead {
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly title: string;
  readonly excerpt: string | null;
  readonly seoTitle: string | null;
  readonly seoDescription: string | null;
  readonly publishedAt: string;
  /** When the public version last changed. */
  readonly updatedAt: string;
  /** Canonical URL: `/{channel}/{lang}/{article}`. */
  readonly htmlUrl: string;
  readonly jsonUrl: string;
  readonly markdownUrl: string;
  /** The first of the article's own images in this translation's published body, or null. */
  readonly image: PublicImage | null;
}

/** One published translation of an article, with its body (article pages, JSON, Markdown, search). */
export interface PublicTranslation extends PublicTranslationHead {
  /** The published body as Markdown. */
  readonly markdown: string;
  /** The published body rendered to safe HTML (`renderMarkdown`). */
  readonly html: string;
  /** Plain text of the body, for search. */
  readonly text: string;
  /** The body's paragraphs as plain text (`domain/body/prose.ts`): what automatic summaries are cut from. */
  readonly prose: string;
  /** Where the Markdown's relative link targets are, as stored with the body (`domain/body/link-targets.ts`); absent or null: found when rendered. */
  readonly linkTargets?: string | null;
}

/**
 * A published translation as lists show it (channel pages, homepage, feeds,
 * llms.txt): no body, only the start of its text. Keeping every article of
 * a 10k-article site in memory this way costs megabytes, not a gigabyte.
 */
export interface PublicTranslationSummary extends PublicTranslationHead {
  /**
   * The first `TEXT_START_CHARS` code points of `prose` (all of it when
   * shorter): every summary a list shows is cut from the start of the
   * prose, so it is the same whether cut from this or from the whole prose.
   */
  readonly textStart: string;
}

/** A public article (at least its primary translation is published), with translations of type `T`. */
export interface PublicArticleOf<T extends PublicTranslationHead> {
  readonly id: number;
  readonly slug: string;
  readonly channel: PublicChannel;
  readonly defaultLanguage: string;
  readonly author: { readonly name: string } | null;
  /** First publication of the article. */
  readonly publishedAt: string;
  /** Latest change to any public translation. */
  readonly updatedAt: string;
  /** Whether the article is listed on the service homepage (`isOnHomepage`). */
  readonly onHomepage: boolean;
  /** Published translations only: primary first, then by language code. */
  readonly translations: readonly T[];
}

/** A public article with its bodies: what its own page, JSON and Markdown are rendered from. */
export interface PublicArticle extends PublicArticleOf<PublicTranslation> {}

/** A public article without bodies: what lists, feeds, sitemaps, llms.txt and the read API's state hold. */
export interface PublicArticleSummary extends PublicArticleOf<PublicTranslationSummary> {}

/** Either kind of article: renderers that show only heads (JSON lists, sitemaps) take both. */
export type AnyPublicArticle = PublicArticleOf<PublicTranslationHead>;

/**
 * Public articles grouped by channel id, for the site-wide files. The builder
 * passes a channel's group as the same array for as long as none of its
 * articles changes, so per-array memos (`listArticlesFor`, a sitemap's
 * newest date) carry over from one build to the next.
 */
export type ArticlesByChannel<A extends AnyPublicArticle = PublicArticleSummary> = ReadonlyMap<number, readonly A[]>;

/** Site-wide settings the renderers need. */
export interface SiteInfo {
  /** Base of every absolute URL, no trailing slash. */
  readonly baseUrl: string;
  readonly name: string;
  /** Value of the `Content-Signal` line in robots.txt. */
  readonly contentSignal: string;
  /**
   * Whether pages without an image of their own have a drawn preview card
   * (`PRESSROOM_SOCIAL_CARDS`); without, the channel's avatar or the site's logo.
   */
  readonly socialCards: boolean;
}
