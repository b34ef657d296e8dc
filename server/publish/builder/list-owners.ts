/**
 * Applying channel, cursor-page and site owners: each is planned from the
 * article index (`site-plan.ts`), its files rendered unless the memo says
 * their inputs did not change, and the result applied to the manifest.
 * @module
 */
import fs from 'node:fs';
import { hashContent, outputBytes, resolveOutputPath } from '../../output/output-writer.ts';
import { anchorsShowing, ARTICLE_LIST_ORDER, articleListScope, DEFAULT_LIST_LIMIT, firstNotBefore } from '../../read-model/list-pages.ts';
import { channelLanguages, cursorPosition, translationIn } from '../../read-model/selection.ts';
import type { PublicArticleSummary, PublicChannel } from '../../read-model/view-models.ts';
import { addListAnchors, readListAnchors } from '../../store/list-anchor.repository.ts';
import { readBuildOwners, type BuildOwnerState } from '../../store/build-owner.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import type { BuildContext } from './build-context.ts';
import type { BuildReport } from './build-report.ts';
import type { ChannelChanges } from './event-scope.ts';
import type { KnownOutput } from './known-output.ts';
import { listOwnerInputHash, type ListOwnerInputs } from './owner-inputs.ts';
import { OWNER_KINDS, ownerKindOf } from './owner-kinds.ts';
import type { ManifestBatch } from './manifest-batch.ts';
import { channelOwner, pagesOwner, planArticlePages, planChannel, planSite, SITE_OWNER, type PlannedFile } from './site-plan.ts';

/** Above this many changed articles in one channel, its cursor pages are planned whole rather than around each change. */
export const NARROW_PAGES_MAX = 64;

/** Bytes of rendered files that may wait for the output writer before rendering pauses. */
export const OUTPUT_BACKLOG_MAX = 64 * 2 ** 20;

/** How an owner's files are compared with what is there. */
export interface ApplyHow {
  /** `planned` is only part of what the owner produces: its other files stay. */
  readonly some?: boolean;
  /** A full build's view of the output (`known-output.ts`): which recorded files are in place, without asking each. */
  readonly known?: KnownOutput;
  /** The folder held no file of the site when the build began (`renderArticles`'s `fresh`): new files are written without a look for one. */
  readonly fresh?: boolean;
  /**
   * A full build's input hash of the owner (`listOwnerInputHash`; null when it could not be made) and the one
   * recorded with its files (`build_owners`). Equal, with every recorded file in place and planned, the owner
   * is not rendered: a new process's warm build at 100,000 articles rendered and hashed 300,000 cursor pages
   * to learn that none changed. Without `inputHash` (incremental builds), the recorded one is
   * forgotten, so it only ever vouches for files a full build rendered from those inputs.
   */
  readonly inputHash?: string | null;
  readonly recordedInputHash?: string;
}

/**
 * Renders an owner's planned files here and applies them; a file whose
 * inputs are as last rendered, or whose bytes are, is left as it is.
 */
export async function applyOwner(ctx: BuildContext, owner: string, planned: readonly PlannedFile[], report: BuildReport, batch: ManifestBatch, how: ApplyHow = {}): Promise<void> {
  const { db, outputDir } = ctx.deps;
  const { known, fresh = false } = how;
  const previous = how.some ? await manifest.filesAt(db, planned.map((f) => f.path)) : await manifest.filesOfOwners(db, [owner]);
  const inPlace = known ? known.inPlace : (p: string) => fs.existsSync(resolveOutputPath(outputDir, p));
  const produced: Array<{ path: string; hash: string; written: boolean }> = [];
  const { inputHash } = how;
  const skippedBy = OWNER_KINDS[ownerKindOf(owner)].skippedBy;
  if (skippedBy.inputHash && inputHash && inputHash === how.recordedInputHash && planned.length === previous.size && planned.every((f) => previous.has(f.path) && inPlace(f.path))) {
    for (const file of planned) {
      const hash = previous.get(file.path)!.hash;
      produced.push({ path: file.path, hash, written: false });
      // Rendered from equal inputs: later builds in this process may skip the file as if rendered here.
      ctx.state.memo.remember(file, hash);
    }
    batch.apply(owner, produced, previous, report);
    return;
  }
  for (const file of planned) {
    const recorded = previous.get(file.path)?.hash;
    const same = skippedBy.renderMemo ? ctx.state.memo.unchanged(file, recorded) : null;
    if (same !== null && inPlace(file.path)) {
      produced.push({ path: file.path, hash: same, written: false });
      continue;
    }
    await ctx.turns.between();
    const content = await file.render();
    // Hashed as rendered: bytes are made only for a file to write (a warm build at 100,000 articles renders
    // 300,000 cursor pages to learn that none changed).
    const hash = hashContent(content);
    const written = hash === recorded && inPlace(file.path) ? false : ctx.output.write(file.path, outputBytes(content), recorded, hash, fresh && recorded === undefined);
    produced.push({ path: file.path, hash, written });
    ctx.state.memo.remember(file, hash);
    // Rendering outruns a busy disk: unbounded, the writer's backlog of cursor pages grows with the site (300,000 at 100,000 articles).
    if (written && ctx.output.backlog > OUTPUT_BACKLOG_MAX) await ctx.output.drain(OUTPUT_BACKLOG_MAX / 2);
  }
  batch.apply(owner, produced, previous, report);
  // Recorded with the files, in the batch's transaction once they are in place.
  batch.setOwnerState(owner, inputHash ? { inputHash, textStarts: {} } : null);
}

/** Loads the recorded list anchors into the state, once. */
export async function ensureAnchors(ctx: BuildContext): Promise<void> {
  if (!ctx.state.anchors.loaded) ctx.state.anchors.load(await readListAnchors(ctx.deps.db));
}

/** Records the anchors found since the last call, before any file that names them is written. */
async function recordAnchors(ctx: BuildContext): Promise<void> {
  const added = ctx.state.anchors.takeAdded();
  if (added.length > 0) await addListAnchors(ctx.deps.db, added);
}

/** The list owners of one build, applied a channel at a time (`startListOwners`). */
export interface ListOwnerRun {
  /** Applies the channel's owner and its cursor pages, from the index as it is now: call once its articles are applied. */
  channel(channelId: number): Promise<void>;
  /** Applies the site owner (homepage, sitemap index, channel lists, llms.txt…): call after every channel. */
  site(): Promise<void>;
}

/** Options of `startListOwners` and `applyListOwners`. */
export interface ListOwnerOptions {
  /**
   * Names, by channel, the articles an incremental build changed (as they were and are now), so only the
   * cursor pages around them are planned; without it (or for a channel it does not name) every page is.
   */
  readonly changes?: ReadonlyMap<number, ChannelChanges>;
  /** A full build's view of the output. */
  readonly known?: KnownOutput;
  /** See `ApplyHow.fresh`. */
  readonly fresh?: boolean;
}

/**
 * Starts applying the list owners of `channelIds` (the channels a build may
 * call `channel` for). A full build calls `channel` for each channel as soon
 * as its articles are applied, so the lists of one channel render here while
 * the render threads still render the articles of the next (alone at the
 * end, they kept one of two cores idle through a cold build's last phase).
 */
export async function startListOwners(ctx: BuildContext, channelIds: Iterable<number>, report: BuildReport, batch: ManifestBatch, { changes, known, fresh = false }: ListOwnerOptions = {}): Promise<ListOwnerRun> {
  const { deps, state } = ctx;
  await ensureAnchors(ctx);
  const ids = [...channelIds];
  // A full build may skip a list owner whose inputs hash as recorded (`ApplyHow.inputHash`).
  const full = known !== undefined && changes === undefined;
  const recorded = full ? await readBuildOwners(deps.db, ids.flatMap((id) => [channelOwner(id), pagesOwner(id)])) : new Map<string, BuildOwnerState>();
  const cursorKey = full ? deps.cursors.token('pressroom:cursor-key', { p: '', id: 0 }) : '';
  const inputsOf = (owner: string, channel: PublicChannel, members: readonly PublicArticleSummary[], anchors?: ListOwnerInputs['anchors']): Pick<ApplyHow, 'inputHash' | 'recordedInputHash'> =>
    full
      ? {
          inputHash: listOwnerInputHash({ owner, channel, members, articleHashes: state.articleHashes, anchors, cursorKey, site: deps.site, fingerprint: ctx.fingerprint }),
          recordedInputHash: recorded.get(owner)?.inputHash,
        }
      : {};
  return {
    async channel(channelId) {
      const found = await deps.model.channel(channelId);
      const channel = found && state.memo.sameChannel(found);
      const own = channel ? (state.index!.groups().get(channelId) ?? []) : [];
      const owner = channelOwner(channelId);
      await applyOwner(ctx, owner, channel ? planChannel(channel, own, deps.renderers, deps.cursors, deps.site) : [], report, batch, { known, fresh, ...(channel ? inputsOf(owner, channel, own) : {}) });
      await applyPages(ctx, channelId, channel, own, changes?.get(channelId), report, batch, known, fresh, inputsOf);
    },
    async site() {
      const channels = (await deps.model.channels()).map(state.memo.sameChannel);
      const assets = deps.assets ? await deps.assets() : [];
      state.channels = channels;
      const planned = planSite(channels, state.index!.groups(), deps.renderers, deps.cursors, deps.site, deps.channelsUrl, assets, (scope, items) => state.anchors.of(scope, items, (p) => p));
      await recordAnchors(ctx);
      await applyOwner(ctx, SITE_OWNER, planned, report, batch, { known, fresh });
    },
  };
}

/** Channel and site owners, from the index: every channel of `channelIds` in turn, then the site (`startListOwners`). */
export async function applyListOwners(ctx: BuildContext, channelIds: Iterable<number>, report: BuildReport, batch: ManifestBatch, options: ListOwnerOptions = {}): Promise<void> {
  const ids = [...channelIds];
  const run = await startListOwners(ctx, ids, report, batch, options);
  for (const id of ids) await run.channel(id);
  await run.site();
}

/**
 * A channel's cursor pages (`read-model/list-pages.ts`), in each of its
 * lists. Around `changes` only the pages whose items include a changed
 * article's old or new position are planned, plus the pages of new anchors:
 * a bounded number per publish, whatever the channel's size.
 */
async function applyPages(
  ctx: BuildContext,
  channelId: number,
  channel: PublicChannel | null,
  own: readonly PublicArticleSummary[],
  changes: ChannelChanges | undefined,
  report: BuildReport,
  batch: ManifestBatch,
  known: KnownOutput | undefined,
  fresh: boolean,
  inputsOf: (owner: string, channel: PublicChannel, members: readonly PublicArticleSummary[], anchors: ListOwnerInputs['anchors']) => Pick<ApplyHow, 'inputHash' | 'recordedInputHash'>,
): Promise<void> {
  const { deps, state } = ctx;
  const owner = pagesOwner(channelId);
  if (!channel) {
    state.pagesPlannedWith.delete(channelId);
    await applyOwner(ctx, owner, [], report, batch, { known });
    return;
  }
  const languages = [null, ...channelLanguages(channel, own)];
  const lists = languages.map((language) => {
    const scope = articleListScope(channel.id, language);
    const listed = deps.renderers.listArticles(own, language);
    return { language, listed, anchors: state.anchors.of(scope, listed, cursorPosition) };
  });
  const narrow =
    changes !== undefined &&
    changes.articles.length <= NARROW_PAGES_MAX &&
    state.pagesPlannedWith.get(channelId) === channel &&
    sameLanguages(languages, [null, ...channelLanguages(channel, changes.group)]);
  if (!narrow) {
    const planned = lists.flatMap((l) => planArticlePages(channel, l.language, l.listed, l.anchors, deps.renderers, deps.cursors));
    await recordAnchors(ctx);
    const anchors = lists.map((l) => [articleListScope(channel.id, l.language), l.anchors] as const);
    await applyOwner(ctx, owner, planned, report, batch, { known, fresh, ...inputsOf(owner, channel, own, anchors) });
    state.pagesPlannedWith.set(channelId, channel);
    return;
  }
  const planned: PlannedFile[] = [];
  for (const l of lists) {
    const indexes = new Set<number>();
    const inList = (a: PublicArticleSummary | null): a is PublicArticleSummary => a !== null && (l.language === null || translationIn(a, l.language) !== undefined);
    // The list as it was is the old group's (sorted when it was last built, so remembered).
    const old = deps.renderers.listArticles(changes.group, l.language);
    for (const c of changes.articles) {
      for (const [version, items] of [[c.before, old], [c.after, l.listed]] as const) {
        if (!inList(version)) continue;
        const range = anchorsShowing(l.anchors, items, cursorPosition, cursorPosition(version), DEFAULT_LIST_LIMIT, ARTICLE_LIST_ORDER);
        for (let i = range.from; i < range.to; i++) indexes.add(i);
      }
      // A newly listed position is a new anchor with a page of its own.
      if (inList(c.after)) indexes.add(firstNotBefore(l.anchors, (p) => p, cursorPosition(c.after), ARTICLE_LIST_ORDER));
    }
    planned.push(...planArticlePages(channel, l.language, l.listed, l.anchors, deps.renderers, deps.cursors, [...indexes].sort((a, b) => a - b)));
  }
  await recordAnchors(ctx);
  await applyOwner(ctx, owner, planned, report, batch, { some: true });
}

function sameLanguages(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
