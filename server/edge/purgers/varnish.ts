/**
 * Varnish with the xkey module (`varnish-modules`), configured by the VCL
 * `npm run host-config -- varnish` writes: `PURGE /` with the tags in an
 * `xkey-purge` header, space-separated, removes every object carrying one
 * of them (all variants: encodings, `Accept`). Batches keep the header
 * under Varnish's default request header limit (8 KB).
 * @module
 */
import { batches, purgeRequest, type Purger } from '../purger.ts';

/** Characters of tags in one `xkey-purge` header. */
const MAX_HEADER_CHARS = 6_000;

/** A Varnish at `url` (its listening address). */
export function varnishPurger(url: string): Purger {
  const target = new URL('/', url).toString();
  return {
    name: 'varnish',
    async purge(request) {
      const groups = batches(request.tags, Number.POSITIVE_INFINITY, MAX_HEADER_CHARS);
      for (const tags of groups) await purgeRequest('varnish', target, { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') } });
      return groups.length;
    },
  };
}
