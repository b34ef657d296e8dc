/**
 * Names of stored images, decided once (layout in docs/URLS.md, "Media").
 * Every name is relative to the media folder and content-hashed, so a file
 * never changes once written and can be cached forever:
 *
 * - draft: `{channel}/_drafts/{hash16}.webp`
 * - article image: `{channel}/{article}/{hash16}.webp`
 * - channel image: `{channel}/_channel/{avatar|cover}-{hash16}.webp`
 *
 * `_drafts` and `_channel` start with an underscore, which no slug can, so
 * they never collide with an article folder.
 * @module
 */
import { createHash } from 'node:crypto';

/** Folder of draft images inside a channel's folder. */
export const DRAFTS_FOLDER = '_drafts';

/** Folder of a channel's own images (avatar, cover). */
export const CHANNEL_FOLDER = '_channel';

/** The hash of a stored file: full SHA-256 hex and the 16-character prefix used in names. */
export interface ContentHash {
  readonly hex: string;
  readonly short: string;
}

/** Hashes the bytes of a processed image; 16 hex characters (64 bits) keep names short and collisions negligible. */
export function contentHash(bytes: Uint8Array): ContentHash {
  const hex = createHash('sha256').update(bytes).digest('hex');
  return { hex, short: hex.slice(0, 16) };
}

/** Name of a draft image. */
export function draftFileName(channel: string, short: string): string {
  return `${channel}/${DRAFTS_FOLDER}/${short}.webp`;
}

/** Name of an image in an article's media folder. */
export function articleFileName(channel: string, article: string, short: string): string {
  return `${channel}/${article}/${short}.webp`;
}

/** Name of a channel avatar or cover. */
export function channelFileName(channel: string, kind: 'avatar' | 'cover', short: string): string {
  return `${channel}/${CHANNEL_FOLDER}/${kind}-${short}.webp`;
}

/** Name of the PNG rendition of a stored channel avatar (RSS `<image>`): beside it, same hash. */
export function feedImageFileName(avatarFileName: string): string {
  return avatarFileName.replace(/\.webp$/, '.png');
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches the path of a draft image of `channel` inside any URL (absolute or relative). */
function draftPattern(channel: string): RegExp {
  return new RegExp(`/media/${escapeRegExp(channel)}/${DRAFTS_FOLDER}/([0-9a-f]{16})\\.webp`, 'g');
}

/** The short hashes of every draft image of `channel` that `text` refers to, without repeats. */
export function draftReferences(text: string, channel: string): string[] {
  return [...new Set([...text.matchAll(draftPattern(channel))].map((m) => m[1]!))];
}

/**
 * Points every reference to a draft in `shorts` at the article's folder
 * instead. Only the path changes, so the host (or a relative URL) is kept.
 */
export function rewriteDraftReferences(text: string, channel: string, article: string, shorts: ReadonlySet<string>): string {
  return text.replace(draftPattern(channel), (whole, short: string) =>
    shorts.has(short) ? `/media/${articleFileName(channel, article, short)}` : whole,
  );
}
