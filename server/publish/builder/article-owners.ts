/**
 * Applying article owners: the rendered files to the manifest, each
 * article's owner state (input hash and text starts), and its summary to the
 * index; and loading the index without rendering what did not change.
 * @module
 */
import { createArticleIndex } from '../../read-model/article-index.ts';
import { freezeModel } from '../../read-model/identity-memo.ts';
import type { ArticleHead } from '../../read-model/public-model.ts';
import type { PublicArticleSummary } from '../../read-model/view-models.ts';
import { readBuildOwners, type BuildOwnerState } from '../../store/build-owner.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { lastEventId } from '../../store/publication-event.repository.ts';
import { renderArticles, type RenderedArticle } from './article-render.ts';
import type { BuildContext } from './build-context.ts';
import type { BuildReport } from './build-report.ts';
import type { FilesByOwner } from './known-output.ts';
import type { ManifestBatch } from './manifest-batch.ts';
import type { RenderMemo } from './render-memo.ts';
import { articleInputHash } from './owner-inputs.ts';
import { articleOwner } from './site-plan.ts';

/** Applies rendered article owners: manifest, owner state, index, and what their files show. */
export function applyArticles(ctx: BuildContext, results: readonly RenderedArticle[], previous: FilesByOwner, report: BuildReport, batch: ManifestBatch): void {
  const { state } = ctx;
  for (const r of results) {
    const owner = articleOwner(r.id);
    batch.apply(owner, r.files, previous.get(owner) ?? new Map(), report);
    state.show(r.id, r.head?.contentHashes ?? {});
    if (r.head) {
      const inputHash = articleInputHash(r.head, ctx.deps.site, ctx.fingerprint);
      batch.setOwnerState(owner, { inputHash, textStarts: r.textStarts });
      state.articleHashes.set(r.id, inputHash);
      state.index!.set(r.id, withTextStarts(r.head, r.textStarts, state.memo.sameChannel));
    } else {
      batch.setOwnerState(owner, null);
      state.articleHashes.delete(r.id);
      state.index!.set(r.id, null);
    }
  }
}

/**
 * Loads the index without rendering: each article's `textStart` comes from
 * its owner state when the inputs are unchanged. @returns the ids whose
 * state is missing or stale (their owners must be rendered).
 */
export function loadIndex(ctx: BuildContext, heads: readonly ArticleHead[], states: ReadonlyMap<string, BuildOwnerState>): number[] {
  const current: PublicArticleSummary[] = [];
  const stale: number[] = [];
  const hashes = ctx.state.articleHashes;
  hashes.clear();
  for (const head of heads) {
    const state = states.get(articleOwner(head.summary.id));
    const inputHash = articleInputHash(head, ctx.deps.site, ctx.fingerprint);
    if (state?.inputHash === inputHash && head.summary.translations.every((t) => t.language in state.textStarts)) {
      current.push(withTextStarts(head, state.textStarts, ctx.state.memo.sameChannel));
      hashes.set(head.summary.id, inputHash);
    } else stale.push(head.summary.id);
  }
  ctx.state.index = createArticleIndex(current);
  return stale;
}

/** Reads the index when the state holds none; stale owners (a new renderer, a lost cache) are rendered once to learn their text starts. */
export async function ensureIndex(ctx: BuildContext, report: BuildReport, batch: ManifestBatch): Promise<void> {
  if (ctx.state.index) return;
  await ctx.ready;
  // Read before the heads: every change its events announce is committed, so the heads show it.
  const through = await lastEventId(ctx.deps.db);
  const stale = loadIndex(ctx, await ctx.deps.model.heads({}), await readBuildOwners(ctx.deps.db));
  ctx.state.through = through;
  // In slices: after an upgrade every owner is stale, and a site of 100,000 articles rendered in one call would
  // hold every rendered article at once.
  for (let i = 0; i < stale.length; i += STALE_SLICE) {
    const ids = stale.slice(i, i + STALE_SLICE);
    applyArticles(ctx, await renderArticles(ctx.articles, ids), await ownerFiles(ctx, ids), report, batch);
  }
}

/** Stale owners rendered at a time when the index is loaded. */
const STALE_SLICE = 500;

/** The recorded files of the given articles' owners. */
export function ownerFiles(ctx: BuildContext, ids: readonly number[]): Promise<Map<string, Map<string, manifest.RecordedFile>>> {
  return manifest.filesByOwner(ctx.deps.db, ids.map(articleOwner));
}

/**
 * The head as lists hold it, with each translation's text start (frozen under test: the identity rule).
 * Its channel is the one object the builder holds for that channel (`sameChannel`): a head rendered in a
 * worker arrives with a copy of its own, and 100,000 copies of twenty channels are memory held for nothing
 * (docs/PERFORMANCE.md, "What bounds them").
 */
function withTextStarts(head: ArticleHead, textStarts: Readonly<Record<string, string>>, sameChannel: RenderMemo['sameChannel']): PublicArticleSummary {
  return freezeModel({
    ...head.summary,
    channel: sameChannel(head.summary.channel),
    translations: head.summary.translations.map((t) => ({ ...t, textStart: textStarts[t.language] ?? '' })),
  });
}
