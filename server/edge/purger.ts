/**
 * What every CDN adapter is to the edge delivery: one method that makes a
 * CDN forget what a set of deliveries changed, in as few requests as its API
 * allows, and throws a `EdgeFailure` saying what went wrong when it could
 * not. Each adapter is one module under `purgers/`, the only code that
 * knows its CDN's API.
 * @module
 */

/** What to purge: the tags of `serving/cache-tags.ts` and, for CDNs without tags, the output files they name. */
export interface PurgeRequest {
  /** Sorted, without duplicates; `[prefix]` alone when everything must go. */
  readonly tags: readonly string[];
  /** Output paths (relative) that were written or removed; empty when everything must go. */
  readonly paths: readonly string[];
  /** Whether everything is purged (a delivery too large to name: `PURGE_ALL_ABOVE_TAGS`). */
  readonly everything: boolean;
}

/** A CDN to purge. */
export interface Purger {
  /** Its name in logs, warnings and `admin edge` (`varnish`, `cloudflare`…). */
  readonly name: string;
  /** Purges; resolves with the number of requests it sent. */
  purge(request: PurgeRequest): Promise<number>;
}

/** A purge or an upload the CDN or the bucket refused or did not answer. `retryAfterMs`: what the CDN asked for (429), if anything. */
export class EdgeFailure extends Error {
  readonly code = 'EDGE_FAILED';
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'EdgeFailure';
  }
}

/** How long one purge request may take before it counts as failed. */
export const PURGE_TIMEOUT_MS = 15_000;

/** Splits `items` into batches of at most `size` items and `maxChars` characters joined by one separator. */
export function batches(items: readonly string[], size: number, maxChars = Number.POSITIVE_INFINITY): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= size || chars + 1 + item.length > maxChars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += (current.length > 1 ? 1 : 0) + item.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Sends one HTTP request for a purger, with a time limit; a network error,
 * a time-out or a status other than 2xx is a `EdgeFailure` naming the CDN,
 * the status and the start of the answer.
 */
export async function purgeRequest(name: string, url: string, init: RequestInit): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(PURGE_TIMEOUT_MS) });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new EdgeFailure(`${name}: no answer from ${new URL(url).origin} (${reason})`);
  }
  const text = await res.text();
  if (res.ok) return text;
  const retryAfter = Number(res.headers.get('retry-after'));
  throw new EdgeFailure(
    `${name}: ${res.status} ${res.statusText} from ${new URL(url).origin}${text ? `: ${text.slice(0, 200).replace(/\s+/g, ' ')}` : ''}`,
    res.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
  );
}
