/**
 * What the render entry points (`src/pages/*.astro`) receive in
 * `Astro.locals.pressroom`. The write service renders each page in-process
 * with Astro's Container API (`server/render/astro-renderer.ts`), passing one
 * of these; the pages are a function of it and nothing else.
 *
 * Only types are imported from `server/`: `src/` is compiled by Astro on its
 * own, and its build hash covers `src/**` only.
 * @module
 */
import type { PublicArticle, PublicArticleSummary, PublicChannel, SiteInfo } from '../../server/read-model/view-models.ts';

/** Input of `src/pages/article.astro`: one article in one published language. */
export interface ArticlePageInput {
  readonly page: 'article';
  readonly article: PublicArticle;
  /** Language of the translation to render; it must be published. */
  readonly language: string;
  readonly site: SiteInfo;
}

/** Input of `src/pages/channel.astro`: a channel page in one language. */
export interface ChannelPageInput {
  readonly page: 'channel';
  readonly channel: PublicChannel;
  readonly language: string;
  /** Every language of the channel (`channelLanguages`), default first: the page's alternates and language links. */
  readonly languages: readonly string[];
  /** Candidate articles (no bodies); only this channel's with a translation in `language` are listed. */
  readonly articles: readonly PublicArticleSummary[];
  readonly site: SiteInfo;
}

/** Input of `src/pages/home.astro`: the service homepage. */
export interface HomePageInput {
  readonly page: 'home';
  readonly channels: readonly PublicChannel[];
  /** Candidate articles (no bodies); only those with `onHomepage` are listed. */
  readonly articles: readonly PublicArticleSummary[];
  readonly site: SiteInfo;
}

/**
 * Input of `src/pages/not-found.astro`: the 404 page of the addresses under a
 * channel, in a language, or of the whole site (`server/serving/not-found-page.ts`).
 */
export interface NotFoundPageInput {
  readonly page: 'not-found';
  /** The page's language; null: the site's own (English, as the homepage). */
  readonly language: string | null;
  /** The channel the addresses are under; null for the site's pages. */
  readonly channel: PublicChannel | null;
  readonly site: SiteInfo;
}

/** Input of `src/pages/search.astro`: the search page of one language, or of every language (`language` null). */
export interface SearchPageInput {
  readonly page: 'search';
  readonly language: string | null;
  /** Every public channel: a result says which one it comes from, by the channel's name in the page's language. */
  readonly channels: readonly PublicChannel[];
  /** Every language of the site (`channelLanguages` of each channel): a result says which one it is in. */
  readonly languages: readonly string[];
  readonly site: SiteInfo;
}

export type PageInput = ArticlePageInput | ChannelPageInput | HomePageInput | NotFoundPageInput | SearchPageInput;

/**
 * Returns the page input when it is of the expected kind; throws a clear
 * error otherwise (a page rendered without, or with the wrong, locals).
 */
export function expectPageInput<K extends PageInput['page']>(value: unknown, kind: K): Extract<PageInput, { page: K }> {
  if (!value || typeof value !== 'object' || (value as { page?: unknown }).page !== kind) {
    const got = value && typeof value === 'object' ? String((value as { page?: unknown }).page) : typeof value;
    throw new Error(
      `The ${kind} page was rendered without its input (Astro.locals.pressroom.page is "${got}", expected "${kind}"). ` +
        'Render it through server/render/astro-renderer.ts, which passes the view model as locals.',
    );
  }
  return value as Extract<PageInput, { page: K }>;
}
