/**
 * What media rules need at run time: the media folder and the image
 * processor (both ports, `storage-port.ts` and `image-port.ts`) and the
 * limits. Built once from the configuration by `server/media/create-media-kit.ts`.
 * @module
 */
import type { ImageProcessor } from './image-port.ts';
import type { MediaStorage } from './storage-port.ts';

/** Most pixels an uploaded image may have before resizing (publishing-api.md, "Limits"). */
export const MAX_IMAGE_PIXELS = 24_000_000;

/** Longest side of a stored article image. */
export const ARTICLE_MAX_SIDE = 1600;

/** Size of a channel avatar. */
export const AVATAR_SIZE = { width: 512, height: 512 } as const;

/** Largest size of a channel cover (16:9); smaller sources keep their own size. */
export const COVER_SIZE = { width: 1600, height: 900 } as const;

/** Upload limits. */
export interface MediaLimits {
  /** Largest image file, in bytes; checked exactly on the file. */
  readonly maxImageBytes: number;
  /** Most pixels of an input image. */
  readonly maxPixels: number;
  /** Age after which unused drafts are deleted, in ms. */
  readonly draftMaxAgeMs: number;
}

/** The media folder, the processor and the limits. */
export interface MediaKit {
  readonly storage: MediaStorage;
  readonly processor: ImageProcessor;
  readonly limits: MediaLimits;
}
