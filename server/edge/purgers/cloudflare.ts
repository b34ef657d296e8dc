/**
 * Cloudflare's purge API (`POST /zones/{zone}/purge_cache` with
 * `{"tags": […]}`): at most 100 tags a request; a 429 carries
 * `Retry-After`, which the delivery honours. Everything: `{"purge_everything": true}`.
 * @module
 */
import { batches, EdgeFailure, purgeRequest, type Purger } from '../purger.ts';

/** Tags in one purge request (Cloudflare's documented limit). */
export const CLOUDFLARE_TAGS_PER_REQUEST = 100;

/** A Cloudflare zone. */
export function cloudflarePurger(options: { zone: string; token: string; api: string }): Purger {
  const url = `${options.api}/zones/${options.zone}/purge_cache`;
  const send = async (body: unknown): Promise<void> => {
    const text = await purgeRequest('cloudflare', url, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // Cloudflare answers 200 with `success: false` and its errors for some refusals.
    let answer: { success?: boolean; errors?: Array<{ message?: string }> } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new EdgeFailure(`cloudflare: an answer that is not JSON: ${text.slice(0, 200)}`);
    }
    if (answer.success !== true) throw new EdgeFailure(`cloudflare: purge refused: ${(answer.errors ?? []).map((e) => e.message).join('; ') || text.slice(0, 200)}`);
  };
  return {
    name: 'cloudflare',
    async purge(request) {
      if (request.everything) {
        await send({ purge_everything: true });
        return 1;
      }
      const groups = batches(request.tags, CLOUDFLARE_TAGS_PER_REQUEST);
      for (const tags of groups) await send({ tags });
      return groups.length;
    },
  };
}
