/**
 * The channel as the publishing API returns it.
 * @module
 */
import type { ChannelRow, ChannelTranslationRow } from '../../store/channel.table.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';

/** A channel in publishing API responses. */
export interface ChannelView {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  default_language: string;
  status: ChannelRow['status'];
  homepage_enabled: boolean;
  watermark_enabled: boolean;
  translations: Array<{ language: string; title: string; description: string | null }>;
  url: string;
  avatar_url: string | null;
  cover_url: string | null;
  role: 'owner' | 'editor';
  can_write_articles: boolean;
  can_manage_channel: boolean;
  read_only: boolean;
  created_at: string;
  updated_at: string;
}

/** What the caller may do, shown on every channel response. */
export interface ChannelPermissions {
  role: 'owner' | 'editor';
  canWriteArticles: boolean;
  canManageChannel: boolean;
  readOnly: boolean;
}

/**
 * Builds the response of one channel.
 * @param media file names of the avatar and cover, when set.
 */
export function toChannelView(
  channel: ChannelRow,
  translations: readonly ChannelTranslationRow[],
  permissions: ChannelPermissions,
  urls: PublicUrls,
  media: { avatar?: string | null; cover?: string | null } = {},
): ChannelView {
  const own = translations.filter((t) => t.channel_id === channel.id);
  const primary = own.find((t) => t.language === channel.default_language) ?? own[0];
  return {
    id: channel.id,
    slug: channel.slug,
    title: primary?.title ?? channel.slug,
    description: primary?.description ?? null,
    default_language: channel.default_language,
    status: channel.status,
    homepage_enabled: channel.homepage_enabled === 1,
    watermark_enabled: channel.watermark_enabled === 1,
    translations: own.map((t) => ({ language: t.language, title: t.title, description: t.description })),
    url: urls.channelHtml(channel.slug),
    avatar_url: media.avatar ? urls.media(media.avatar) : null,
    cover_url: media.cover ? urls.media(media.cover) : null,
    role: permissions.role,
    can_write_articles: permissions.canWriteArticles && !permissions.readOnly,
    can_manage_channel: permissions.canManageChannel && !permissions.readOnly,
    read_only: permissions.readOnly,
    created_at: channel.created_at,
    updated_at: channel.updated_at,
  };
}
