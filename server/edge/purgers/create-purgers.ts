/**
 * The purgers the configuration names (`PRESSROOM_PURGE_*`), one per CDN.
 * @module
 */
import type { PurgeTarget } from '../../config.ts';
import type { Purger } from '../purger.ts';
import { cloudflarePurger } from './cloudflare.ts';
import { cloudfrontPurger } from './cloudfront.ts';
import { fastlyPurger } from './fastly.ts';
import { varnishPurger } from './varnish.ts';
import { webhookPurger } from './webhook.ts';

/** One purger per target. */
export function createPurgers(targets: readonly PurgeTarget[]): Purger[] {
  return targets.map((t) => {
    switch (t.kind) {
      case 'varnish':
        return varnishPurger(t.url);
      case 'cloudflare':
        return cloudflarePurger(t);
      case 'fastly':
        return fastlyPurger(t);
      case 'cloudfront':
        return cloudfrontPurger(t);
      case 'webhook':
        return webhookPurger(t);
    }
  });
}
