/**
 * The incremental build: applies the pending publication events. It re-plans
 * exactly the owners they name — each named article, every article of a
 * channel whose own fields changed, the named channels (only the cursor
 * pages around each change) and the site — through the same plans and
 * writer as the full build. Many articles at once (a change of a large
 * channel's own fields shows in every page of its articles) are rendered as
 * a full build renders them: in batches on the render pool (the threads,
 * and on Postgres the build workers), from `POOL_MIN_ARTICLES`.
 * @module
 */
import { describeError } from '../../describe-error.ts';
import { listArticleIdsOfChannel } from '../../store/article.repository.ts';
import { readSetting } from '../../store/instance-setting.repository.ts';
import { listUnbuiltEvents } from '../../store/publication-event.repository.ts';
import { applyArticles, ensureIndex, ownerFiles } from './article-owners.ts';
import { renderArticles } from './article-render.ts';
import { runArticles } from './article-run.ts';
import type { BuildContext } from './build-context.ts';
import { emptyReport, type BuildReport } from './build-report.ts';
import { channelChanges, eventScope } from './event-scope.ts';
import { FULL_BUILD_SETTING } from './full-build.ts';
import { applyListOwners } from './list-owners.ts';
import { POOL_MIN_ARTICLES } from './early-render.ts';
import type { FilesByOwner } from './known-output.ts';
import { createManifestBatch, type ManifestBatch } from './manifest-batch.ts';
import { articleOwner } from './site-plan.ts';
import { settleBuild } from './settle.ts';

/** Applies the pending publication events; resolves with what changed (empty when none were pending). */
export async function runIncrementalBuild(ctx: BuildContext): Promise<BuildReport> {
  const { deps, state } = ctx;
  // After another process's full build, the report says the whole public state was read again (`full`).
  const reread = state.followFullBuild(await readSetting(deps.db, FULL_BUILD_SETTING));
  const events = await listUnbuiltEvents(deps.db);
  if (events.length === 0) return { ...emptyReport(), full: reread };
  const started = performance.now();
  const report = emptyReport();
  report.full = reread;
  const batch = createManifestBatch(deps.db, deps.clock, ctx.output, deps.outputDir);
  // A builder that reads the public state afresh here has nothing to compare with: its pages are planned whole.
  const fresh = state.index === null;
  await ensureIndex(ctx, report, batch);
  const index = state.index!;
  const { articleIds, channelIds, changedChannels } = eventScope(events);
  // A channel change shows in every page of its articles (publisher name, links).
  for (const channelId of changedChannels) for (const id of await listArticleIdsOfChannel(deps.db, channelId)) articleIds.add(id);
  const ids = [...articleIds];
  report.articleIds = ids;
  const previous = await ownerFiles(ctx, ids);
  const groups = index.groups();
  const oldGroups = new Map([...channelIds].map((id) => [id, groups.get(id) ?? []] as const));
  const oldArticles = new Map(ids.map((id) => [id, index.articles.get(id) ?? null] as const));
  await renderNamedArticles(ctx, ids, previous, report, batch);
  await applyListOwners(ctx, channelIds, report, batch, { changes: fresh ? undefined : channelChanges(oldGroups, oldArticles, index.articles) });
  await batch.flush();
  await settleBuild(ctx, report, events[events.length - 1]!.id, false);
  report.ms = Math.round(performance.now() - started);
  deps.log.info('incremental build', { events: events.length, written: report.written, removed: report.removed, ms: report.ms });
  return report;
}

/** Renders and applies the named articles: here for a few, on the render pool from `POOL_MIN_ARTICLES`. */
async function renderNamedArticles(ctx: BuildContext, ids: readonly number[], previous: FilesByOwner, report: BuildReport, batch: ManifestBatch): Promise<void> {
  const { deps } = ctx;
  if (ids.length < (deps.poolMinArticles ?? POOL_MIN_ARTICLES) || !deps.renderPool) {
    const hashes = new Map([...previous.values()].flatMap((files) => [...files].map(([p, f]) => [p, f.hash] as const)));
    applyArticles(ctx, await renderArticles(ctx.articles, ids, (p) => hashes.get(p)), previous, report, batch);
    return;
  }
  const warn = (what: string, error: unknown) => deps.log.warn(what, { error: describeError(error) });
  // Threads that cannot start cost time, not the build: the batches then render here.
  const pool = await deps.renderPool().catch((error: unknown) => void warn('render threads failed to start; rendering in this thread', error));
  try {
    const previousOf = (batchIds: readonly number[]): FilesByOwner =>
      new Map(batchIds.flatMap((id) => {
        const files = previous.get(articleOwner(id));
        return files ? [[articleOwner(id), files] as const] : [];
      }));
    await runArticles({ ctx, report, batch, ids, pool: pool ?? undefined, fresh: false, previousOf, ready: Promise.resolve(), applied: async () => undefined, warn });
  } finally {
    await pool?.close();
  }
}
