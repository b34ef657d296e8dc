/** Row types of `channels`, `channel_translations` and `channel_members`. @module */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A channel: a publishing space with its own slug, languages and settings. */
export interface ChannelTable {
  id: Generated<number>;
  slug: string;
  owner_account_id: number;
  default_language: string;
  /** `active` is public; `hidden` is not shown to readers. */
  status: 'active' | 'hidden';
  homepage_enabled: number;
  /** Administrator's exclusion from the homepage; no publisher setting overrides it. */
  homepage_excluded: Generated<number>;
  watermark_enabled: Generated<number>;
  avatar_media_id: number | null;
  cover_media_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Title and description of a channel in one language. */
export interface ChannelTranslationTable {
  channel_id: number;
  language: string;
  title: string;
  description: string | null;
}

/** Who may work in a channel: its owner, or an invited editor with permissions. */
export interface ChannelMemberTable {
  channel_id: number;
  account_id: number;
  role: 'owner' | 'editor';
  can_write_articles: number;
  can_manage_channel: number;
  created_at: string;
}

export type ChannelRow = Selectable<ChannelTable>;
export type NewChannelRow = Insertable<ChannelTable>;
export type ChannelUpdate = Updateable<ChannelTable>;
export type ChannelTranslationRow = Selectable<ChannelTranslationTable>;
export type ChannelMemberRow = Selectable<ChannelMemberTable>;
