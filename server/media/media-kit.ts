/**
 * What media handling needs at run time, built once from the configuration:
 * the media folder, the image processor and the limits.
 * @module
 */
import path from 'node:path';
import type { Config } from '../config.ts';
import { createSharpProcessor, type ImageProcessor } from './image-processor.ts';
import { createMediaStorage, type MediaStorage } from './media-storage.ts';

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

/**
 * Builds the kit: files under `{outputDir}/media`, sharp for images.
 * @example const media = createMediaKit(config);
 */
export function createMediaKit(config: Pick<Config, 'outputDir' | 'maxImageBytes' | 'draftMediaMaxAgeMs'>): MediaKit {
  return {
    storage: createMediaStorage(path.join(config.outputDir, 'media')),
    processor: createSharpProcessor({ maxPixels: MAX_IMAGE_PIXELS }),
    limits: { maxImageBytes: config.maxImageBytes, maxPixels: MAX_IMAGE_PIXELS, draftMaxAgeMs: config.draftMediaMaxAgeMs },
  };
}
