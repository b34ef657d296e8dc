/**
 * `edge`: how the CDNs are keeping up (issue 35): the deliveries builds have
 * queued and not yet purged, how long the oldest has waited, and the last
 * failure. Read from the database, so it works beside a running server.
 * @module
 */
import { readEdgeBacklog } from '../store/edge-delivery.repository.ts';
import { output, type AdminDeps, type CommandOutput } from './admin-common.ts';

/** The edge's backlog in a few lines. */
export async function edgeCommand(deps: AdminDeps): Promise<CommandOutput> {
  const backlog = await readEdgeBacklog(deps.db);
  if (backlog.pending === 0) return output(['Edge: nothing pending. Every build is purged from the configured CDNs (or none is configured).']);
  const waited = backlog.oldestCreatedAt ? Math.round((deps.clock.now().getTime() - new Date(backlog.oldestCreatedAt).getTime()) / 1000) : 0;
  const lines = [`Edge: ${backlog.pending} build(s) waiting for their purge; the oldest since ${backlog.oldestCreatedAt} (${waited} s).`];
  if (backlog.attempts > 0) {
    lines.push(`Failed ${backlog.attempts} time(s); last: ${backlog.lastError}`);
    if (backlog.nextAttemptAt) lines.push(`Next attempt: ${backlog.nextAttemptAt} (a running server retries by itself; a restart retries at once).`);
  } else {
    lines.push('No failure so far: a running server delivers them within a second.');
  }
  lines.push('Until then the publishing API reports these changes as not yet done (EDGE_DELIVERY_DELAYED when failing or slow).');
  return output(lines);
}
