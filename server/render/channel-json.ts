/**
 * The Channel resource (`getPublicChannel`) and the ChannelCollection
 * (`listPublicChannels`) of the public API. Field order follows the spec's
 * Channel table; `_links` holds self, html, articles and rss
 * (docs/OUTPUTS.md).
 * @module
 */
import { SCHEMA_VERSION } from '../read-model/wire.ts';
import { channelTranslationIn, channelVersion } from '../read-model/selection.ts';
import type { PublicChannel } from '../read-model/view-models.ts';
import type { PageInfo } from '../read-model/list-pages.ts';

/** The Channel object, without serialising, so the collection can embed it. */
export function channelResource(channel: PublicChannel, language: string): Record<string, unknown> {
  if (!channelTranslationIn(channel, language)) {
    throw new RangeError(`Channel ${channel.id} has no "${language}" translation.`);
  }
  const isDefault = language === channel.defaultLanguage;
  const version = channelVersion(channel, language);
  return {
    schema_version: SCHEMA_VERSION,
    id: channel.id,
    slug: channel.slug,
    title: version.title,
    description: version.description,
    language: version.language,
    default_language: channel.defaultLanguage,
    // Model order: primary first, then by code.
    available_languages: channel.translations.map((t) => t.language),
    canonical_url: version.htmlUrl,
    _links: {
      self: version.jsonUrl,
      html: version.htmlUrl,
      // The default-language document is also the channel's no-language answer,
      // so it points at the unfiltered list and feed (one version per article, rule 7).
      articles: isDefault ? channel.articlesJsonUrl : version.articlesJsonUrl,
      rss: isDefault ? channel.rssUrl : version.rssUrl,
    },
  };
}

/**
 * Renders the Channel JSON in exactly `language`, one of the channel's own
 * languages. The default language gives the channel's default addresses.
 * @throws RangeError when the channel has no translation in `language` (404, rule 1).
 */
export function renderChannelJson(channel: PublicChannel, language: string): string {
  return `${JSON.stringify(channelResource(channel, language), null, 2)}\n`;
}

/**
 * The order of the channel list, oldest channel first (by id), which is the
 * keyset the channel-list cursor (`{id}`) walks. Exported so the paginator
 * and this renderer cannot disagree.
 */
export function listChannelsFor(channels: readonly PublicChannel[]): PublicChannel[] {
  return [...channels].sort((a, b) => a.id - b.id);
}

/**
 * Renders one page of the ChannelCollection: `schema_version`, `channels` (each in
 * `language`, or in its default language when null), `pagination` and
 * `_links` {self, next}. `channels` may be the page or the whole list: the
 * first `page.limit` in list order are shown; with a language, every one
 * must have a translation in it.
 */
export function renderChannelList(channels: readonly PublicChannel[], page: PageInfo, language: string | null = null): string {
  const body = {
    // Not in the spec's Collections table, but "every JSON payload carries schema_version" (Versioning).
    schema_version: SCHEMA_VERSION,
    channels: listChannelsFor(channels)
      .slice(0, page.limit)
      .map((c) => channelResource(c, language ?? c.defaultLanguage)),
    pagination: { limit: page.limit, next_cursor: page.nextCursor, has_more: page.nextCursor !== null },
    _links: { self: page.selfUrl, next: page.nextUrl },
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
