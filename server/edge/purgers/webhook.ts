/**
 * A signed webhook: one JSON `POST` per delivery with the tags and paths,
 * for a CDN Pressroom has no adapter for (or a deploy hook). The body is
 * signed as Stripe and GitHub sign theirs: `X-Pressroom-Signature:
 * sha256={hex HMAC-SHA256 of "{timestamp}.{body}"}` with
 * `X-Pressroom-Timestamp` (seconds), so a receiver can refuse replays. Any
 * 2xx acknowledges it.
 * @module
 */
import { createHmac } from 'node:crypto';
import { purgeRequest, type Purger } from '../purger.ts';

/** Paths sent at most in one body (the tags name them all the same). */
const MAX_PATHS = 1_000;

/** The signature header's value for `body` sent at `timestamp` (seconds). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A webhook at `url`. */
export function webhookPurger(options: { url: string; secret: string; now?: () => Date }): Purger {
  return {
    name: 'webhook',
    async purge(request) {
      const body = JSON.stringify({
        schema_version: '1.0',
        event: 'purge',
        everything: request.everything,
        tags: request.tags,
        paths: request.paths.slice(0, MAX_PATHS).map((p) => `/${p}`),
        paths_truncated: request.paths.length > MAX_PATHS,
      });
      const timestamp = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
      await purgeRequest('webhook', options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-pressroom-timestamp': String(timestamp),
          'x-pressroom-signature': webhookSignature(options.secret, timestamp, body),
        },
        body,
      });
      return 1;
    },
  };
}
