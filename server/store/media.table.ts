/** Row type of `media`. @module */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A stored image. `file_name` is relative to the media folder of the output. */
export interface MediaTable {
  id: Generated<number>;
  channel_id: number;
  article_id: number | null;
  purpose: 'article' | 'channel_cover' | 'channel_avatar';
  /** Unique: names are content-hashed, so one file is one row (see docs/MEDIA.md). */
  file_name: string;
  alt: Generated<string>;
  width: number;
  height: number;
  bytes: number;
  watermark_applied: Generated<number>;
  watermark_type: Generated<string>;
  created_at: string;
  /** SHA-256 (hex) of the stored file; its first 16 characters are in the name. */
  content_hash: Generated<string>;
  /** Focus point the image was cropped around, 0–100 (50/50 is the centre). */
  focus_x: Generated<number>;
  focus_y: Generated<number>;
  /** 1 for a draft image (uploaded without page_slug, under `_drafts/`). */
  draft: Generated<number>;
  /** A channel avatar's PNG rendition for RSS `<image>` (migration 0009); null for other images and older avatars. */
  feed_file_name: Generated<string | null>;
}

export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;
export type MediaUpdate = Updateable<MediaTable>;
