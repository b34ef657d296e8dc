/**
 * What `src/layouts/Page.astro` puts in `<head>`, computed by the page models.
 * @module
 */

/** A `<link>` element. */
export interface HeadLink {
  readonly rel: string;
  readonly href: string;
  readonly type?: string;
  readonly hreflang?: string;
  readonly title?: string;
}

/** A `<meta>` element: OpenGraph uses `property`, the others `name`. */
export type HeadMeta = { readonly property: string; readonly content: string } | { readonly name: string; readonly content: string };

/** The `<head>` and `<html>` attributes of one page. */
export interface HeadData {
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  /** Text of `<title>`. */
  readonly title: string;
  readonly description: string;
  /** Absolute canonical URL. */
  readonly canonical: string;
  readonly links: readonly HeadLink[];
  readonly meta: readonly HeadMeta[];
  /** Escaped JSON-LD (see `jsonForScript`), or null. */
  readonly jsonLd: string | null;
  /** Pagefind filters set on the page (`<meta name="pagefind-{name}" data-pagefind-filter="{name}[content]">`). */
  readonly pagefindFilters: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

/**
 * The head of a page that is no one's preview or search result (a 404 page,
 * a search page): `noindex`, its locale, the site's preview image, no
 * alternates and no JSON-LD.
 */
export function unindexedHead(page: { lang: string; dir: 'ltr' | 'rtl'; title: string; description: string; canonical: string }, meta: readonly HeadMeta[]): HeadData {
  return {
    ...page,
    links: [],
    meta: [{ name: 'robots', content: 'noindex' }, ...meta],
    jsonLd: null,
    pagefindFilters: [],
  };
}
