/**
 * Builds the media kit from the configuration: the filesystem and sharp
 * adapters behind the domain's ports (`domain/media/media-kit.ts`).
 * @module
 */
import path from 'node:path';
import type { Config } from '../config.ts';
import { MAX_IMAGE_PIXELS, type MediaKit } from '../domain/media/media-kit.ts';
import { createSharpProcessor } from './image-processor.ts';
import { createMediaStorage, type PublishedMediaStorage } from './media-storage.ts';
import { keptInBucket, type MediaBucket } from './bucket-kept-media.ts';
import type { Logger } from '../logger.ts';

/** The kit, with the storage's start-up work (`publishAll`). */
export type ServiceMediaKit = MediaKit & { readonly storage: PublishedMediaStorage };

/**
 * Builds the kit: files under `{dataDir}/media`, copied into `{outputDir}/media` for the hosts, and with
 * `keep` every upload stored in that bucket too (`bucket-kept-media.ts`); sharp for images.
 * @example const media = createMediaKit(config);
 */
export function createMediaKit(
  config: Pick<Config, 'dataDir' | 'outputDir' | 'maxImageBytes' | 'draftMediaMaxAgeMs'>,
  keep?: { bucket: MediaBucket; headersOf: (file: string) => { contentType: string; cacheControl: string; cacheTag: string }; log: Logger },
): ServiceMediaKit {
  const local = createMediaStorage(path.join(config.dataDir, 'media'), path.join(config.outputDir, 'media'));
  return {
    storage: keep ? keptInBucket(local, keep.bucket, keep.headersOf, keep.log) : local,
    processor: createSharpProcessor({ maxPixels: MAX_IMAGE_PIXELS }),
    limits: { maxImageBytes: config.maxImageBytes, maxPixels: MAX_IMAGE_PIXELS, draftMaxAgeMs: config.draftMediaMaxAgeMs },
  };
}
