/**
 * Fastly's purge API: `POST /service/{id}/purge` with the surrogate keys in
 * a `Surrogate-Key` header, at most 256 a request; everything:
 * `POST /service/{id}/purge_all`. Purges are hard (no `Fastly-Soft-Purge`):
 * a withdrawn article must not be served stale.
 * @module
 */
import { batches, purgeRequest, type Purger } from '../purger.ts';

/** Keys in one purge request (Fastly's documented limit). */
export const FASTLY_KEYS_PER_REQUEST = 256;

/** A Fastly service. */
export function fastlyPurger(options: { service: string; token: string; api: string }): Purger {
  const base = `${options.api}/service/${encodeURIComponent(options.service)}`;
  const headers = { 'fastly-key': options.token, accept: 'application/json' };
  return {
    name: 'fastly',
    async purge(request) {
      if (request.everything) {
        await purgeRequest('fastly', `${base}/purge_all`, { method: 'POST', headers });
        return 1;
      }
      const groups = batches(request.tags, FASTLY_KEYS_PER_REQUEST);
      for (const keys of groups) await purgeRequest('fastly', `${base}/purge`, { method: 'POST', headers: { ...headers, 'surrogate-key': keys.join(' ') } });
      return groups.length;
    },
  };
}
