/**
 * Builds the media kit from the configuration: the filesystem and sharp
 * adapters behind the domain's ports (`domain/media/media-kit.ts`).
 * @module
 */
import path from 'node:path';
import type { Config } from '../config.ts';
import { MAX_IMAGE_PIXELS, type MediaKit } from '../domain/media/media-kit.ts';
import { createSharpProcessor } from './image-processor.ts';
import { createMediaStorage } from './media-storage.ts';

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
