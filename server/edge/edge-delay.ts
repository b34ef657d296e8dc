/**
 * What holds a change back at the edge, in words for the publisher (the
 * publishing API's `EDGE_DELIVERY_DELAYED` warning): read from the edge's
 * outbox in the database, so the server and every web instance say the same.
 * @module
 */
import type { Clock } from '../clock.ts';
import type { Executor } from '../store/database.ts';
import { readEdgeBacklog } from '../store/edge-delivery.repository.ts';

/** How long an edge may take before the articles it holds back say so (`EDGE_DELIVERY_DELAYED`). */
export const EDGE_SLOW_MS = 10_000;

/** Why the edge (`targets`: the bucket and CDNs by name) has not taken the pending changes yet; null when it keeps up. */
export async function edgeDelay(db: Executor, targets: readonly string[], clock: Clock): Promise<string | null> {
  const backlog = await readEdgeBacklog(db);
  if (backlog.pending === 0) return null;
  const waitingMs = backlog.oldestCreatedAt ? clock.now().getTime() - new Date(backlog.oldestCreatedAt).getTime() : 0;
  if (backlog.attempts === 0 && waitingMs < EDGE_SLOW_MS) return null;
  const cdn = targets.join(', ');
  return backlog.lastError
    ? `The CDN (${cdn}) has not taken this change yet: its purge failed ${backlog.attempts} time(s), last with "${backlog.lastError}". Readers there keep the previous version; the service retries by itself${backlog.nextAttemptAt ? ` (next at ${backlog.nextAttemptAt})` : ''}. Check the CDN settings (PRESSROOM_PURGE_*) and npm run admin -- edge.`
    : `The CDN (${cdn}) has not taken this change yet: its purge has been waiting ${Math.round(waitingMs / 1000)} s. Readers there keep the previous version until it is done.`;
}
