/** Row type of `media`. @module */
import type { Generated, Selectable } from 'kysely';

/** A stored image. `file_name` is relative to the media folder of the output. */
export interface MediaTable {
  id: Generated<number>;
  channel_id: number;
  article_id: number | null;
  purpose: 'article' | 'channel_cover' | 'channel_avatar';
  file_name: string;
  alt: Generated<string>;
  width: number;
  height: number;
  bytes: number;
  watermark_applied: Generated<number>;
  watermark_type: Generated<string>;
  created_at: string;
}

export type MediaRow = Selectable<MediaTable>;
