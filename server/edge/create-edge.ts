/**
 * The edge the configuration names: the bucket deploy (`PRESSROOM_DEPLOY_S3_*`)
 * and the CDNs to purge (`PRESSROOM_PURGE_*`), or null when there is none
 * (the embedded default: readers get the output folder as it is placed).
 * Used by `main.ts`, `npm run build` and `npm run deploy`.
 * @module
 */
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/database.ts';
import { bucketDeployer } from './bucket/bucket-sync.ts';
import { s3Bucket } from './bucket/s3-bucket.ts';
import { createEdgeDelivery, type EdgeDelivery } from './edge-delivery.ts';
import { createPurgers } from './purgers/create-purgers.ts';

/** The edge delivery of `config`, or null. */
export function createConfiguredEdge(config: Config, deps: { db: Db; clock: Clock; log: Logger }): EdgeDelivery | null {
  if (config.purgeTargets.length === 0 && !config.deployBucket) return null;
  const bucket = config.deployBucket ? s3Bucket(config.deployBucket) : null;
  return createEdgeDelivery({
    ...deps,
    purgers: createPurgers(config.purgeTargets),
    tagPrefix: config.cacheTagPrefix,
    ...(bucket
      ? {
          deploy: bucketDeployer({ db: deps.db, clock: deps.clock, outputDir: config.outputDir, bucket, tagPrefix: config.cacheTagPrefix, maxAgeSeconds: config.cacheMaxAgeSeconds }, deps.log),
          deployName: bucket.name,
        }
      : {}),
  });
}
