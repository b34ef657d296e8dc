/**
 * The search page as data: its address holds the query (`/search/{lang}/?q=…`),
 * so a search can be shared, bookmarked and restored with Back. The search
 * runs in the browser (`src/scripts/search.js`, Pagefind over the shards of
 * the page's language, or of every language); without JavaScript the page
 * offers the same search from the public API.
 * @module
 */
import { textDirection } from '../../server/domain/language.ts';
import { channelVersion } from '../../server/read-model/selection.ts';
import type { SiteInfo } from '../../server/read-model/view-models.ts';
import { unindexedHead, type HeadData } from './head.ts';
import { absoluteUrl, jsonForScript, sitePath } from './html-helpers.ts';
import { languageName, ogLocale, SITE_LANGUAGE, uiFor, type Ui } from './i18n.ts';
import type { SearchPageInput } from './page-input.ts';
import { previewMeta, sitePreview } from './preview-image.ts';

/** What the search script needs, embedded in the page as JSON. */
export interface SearchData {
  /** The page's language: only its shards are searched; null: every shard. */
  readonly language: string | null;
  /** Folder of the index (`/pagefind/`). */
  readonly bundles: string;
  /** Channel slug → its name as the page shows it. */
  readonly channels: Readonly<Record<string, string>>;
  /** Language code → its own name. */
  readonly languages: Readonly<Record<string, string>>;
  /** The page's interface text the script writes. */
  readonly text: { readonly results: string; readonly none: string; readonly short: string; readonly failed: string };
}

/** What `src/pages/search.astro` shows. */
export interface SearchPage {
  readonly head: HeadData;
  readonly ui: Ui;
  readonly site: SiteInfo;
  /** The page's own address (the form's action). */
  readonly action: string;
  /** The public API's search, for readers without JavaScript. */
  readonly apiAction: string;
  readonly language: string | null;
  /** `SearchData` as escaped JSON. */
  readonly dataJson: string;
}

/** The search page of `input.language` (null: every language). */
export function searchPage(input: SearchPageInput): SearchPage {
  const { site, language } = input;
  const lang = language ?? SITE_LANGUAGE;
  const dir = textDirection(lang);
  const ui = uiFor(lang, dir);
  const action = sitePath(site, language ? `/search/${encodeURIComponent(language)}/` : '/search/');
  const channels: Record<string, string> = {};
  const languages: Record<string, string> = {};
  for (const channel of input.channels) channels[channel.slug] = channelVersion(channel, language).title;
  for (const code of input.languages) languages[code] = languageName(code);
  const data: SearchData = {
    language,
    bundles: sitePath(site, '/pagefind/'),
    channels,
    languages,
    text: { results: ui.strings.searchResults, none: ui.strings.searchNone, short: ui.strings.searchShort, failed: ui.strings.searchFailed },
  };
  return {
    // A page of results is no page to index.
    head: unindexedHead(
      { lang, dir, title: `${ui.strings.search} · ${site.name}`, description: ui.strings.searchLabel, canonical: absoluteUrl(action, site) },
      [{ property: 'og:locale', content: ogLocale(lang) }, ...previewMeta(sitePreview(site))],
    ),
    ui,
    site,
    action,
    apiAction: sitePath(site, '/api/public/v1/search'),
    language,
    dataJson: jsonForScript(data),
  };
}
