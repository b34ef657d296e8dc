/**
 * The end of every build: the listeners learn which files changed (the
 * bundled server's file cache; on the build thread, the request thread's
 * copy of the public state comes with them), then one transaction records what the
 * output now shows of each translation (`built_translations`, what the
 * publishing API's read-your-writes answer waits for) and marks the events
 * processed. A crash before the transaction leaves the events to the next
 * build.
 *
 * With an edge (a CDN to purge, `deps.edge`), readers get the files only
 * once the edge has been told: the transaction marks the events built and
 * records the build's news in the edge's outbox (`edge_deliveries`); the
 * edge delivery records what readers get and marks the events processed
 * when the edge acknowledges it (`server/edge/edge-delivery.ts`).
 * @module
 */
import { isoNow } from '../../clock.ts';
import { recordBuiltTranslations } from '../../store/built-translation.repository.ts';
import { insertEdgeDelivery } from '../../store/edge-delivery.repository.ts';
import { markEventsBuilt, markEventsProcessed } from '../../store/publication-event.repository.ts';
import type { BuildContext } from './build-context.ts';
import type { BuildReport } from './build-report.ts';

/**
 * Settles a build whose files are all in place. `lastEventId`: the newest
 * event it processed; `everything`: a full build (every translation not
 * shown now is recorded as not shown).
 */
export async function settleBuild(ctx: BuildContext, report: BuildReport, lastEventId: number, everything: boolean): Promise<void> {
  report.through = lastEventId;
  ctx.state.through = Math.max(ctx.state.through, lastEventId);
  // A listener may take a while (the build thread's waits until the request thread has taken the build in).
  for (const listener of ctx.placedListeners) await listener(report.changedPaths);
  const shown = ctx.state.takeShown();
  const now = isoNow(ctx.deps.clock);
  const edge = ctx.deps.edge;
  await ctx.deps.db.transaction().execute(async (trx) => {
    if (!edge) {
      await recordBuiltTranslations(trx, shown, { everything });
      await markEventsProcessed(trx, lastEventId, now);
      return;
    }
    await markEventsBuilt(trx, lastEventId, now);
    await insertEdgeDelivery(trx, { through: lastEventId, paths: report.changedPaths, shown, everything, now });
  });
  edge?.kick();
}
