/**
 * Builds the static output. The full build and the incremental build run the
 * same plans (`site-plan.ts`) through the same writer; the incremental build
 * only narrows which owners it re-plans, from the publication events.
 *
 * Cost follows the change, not the site (docs/ARCHITECTURE.md, "Static
 * build"):
 * - The builder keeps every public article without bodies
 *   (`PublicArticleSummary`, a few hundred bytes each); channel and site
 *   files are rendered from it, and only article owners read bodies.
 * - A full build hashes each article owner's inputs (`owner-inputs.ts`) and
 *   renders only those whose hash changed or whose files are missing; a warm
 *   build reads no body and renders no article.
 * - A cold build spreads article owners over worker threads
 *   (`render-pool.ts`), this thread reading the store and keeping the
 *   manifest.
 *
 * Each owner's files are compared with the manifest: unchanged bytes are not
 * rewritten, files no longer produced are deleted. Events are marked
 * processed only after their files are in place, so a crash mid-build is
 * finished at the next start.
 * @module
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock.ts';
import { isoNow } from '../../clock.ts';
import type { CursorCodec } from '../../domain/cursor.ts';
import type { Logger } from '../../logger.ts';
import { anchorsShowing, ARTICLE_LIST_ORDER, CHANNEL_LIST_ORDER, firstNotBefore, sortedPositions, withItemAnchors, type ListOrder, type ListPosition, articleListScope, DEFAULT_LIST_LIMIT } from '../../read-model/list-pages.ts';
import { channelLanguages, translationIn, cursorPosition } from '../../read-model/selection.ts';
import type { PublicArticleSummary, PublicChannel, SiteInfo } from '../../read-model/view-models.ts';
import type { PublicState } from '../../read-model/public-state.ts';
import { deepFreeze } from '../../read-model/identity-memo.ts';
import { addListAnchors, readListAnchors } from '../../store/list-anchor.repository.ts';
import { ensureBuildOwners, readBuildOwners, type BuildOwnerState } from '../../store/build-owner.repository.ts';
import { recordBuiltTranslations } from '../../store/built-translation.repository.ts';
import type { Db } from '../../store/database.ts';
import { readSetting, writeSetting } from '../../store/instance-setting.repository.ts';
import * as manifest from '../../store/output-file.repository.ts';
import { listUnprocessedEvents, markEventsProcessed, type PublicationEvent } from '../../store/publication-event.repository.ts';
import { UNMANAGED_OUTPUT_FILES, UNMANAGED_OUTPUT_FOLDERS } from '../../urls/static-files.ts';
import { renderArticles, type RenderedArticle } from './article-render.ts';
import { createArticleIndex, type ArticleIndex } from '../../read-model/article-index.ts';
import { createManifestBatch, type ManifestBatch } from './manifest-batch.ts';
import { createSyncOutputQueue, type OutputQueue } from '../../output/output-queue.ts';
import { hashContent, outputBytes, removeOutput, resolveOutputPath } from '../../output/output-writer.ts';
import { articleInputHash, renderCodeFingerprint } from './owner-inputs.ts';
import type { ArticleHead, PublicModel } from '../../read-model/public-model.ts';
import type { RenderPool } from '../workers/render-pool.ts';
import { createRenderMemo } from './render-memo.ts';
import { articleOwner, channelOwner, pagesOwner, planArticlePages, planChannel, planSite, SITE_OWNER, type PlannedFile } from './site-plan.ts';
import type { Renderers } from '../../render/renderers.ts';

/** What one build did. */
export interface BuildReport {
  written: number;
  unchanged: number;
  removed: number;
  /** Paths written or removed, for tests and purge lists. */
  changedPaths: string[];
  /**
   * Whether every article was considered: a full build, or an incremental one
   * that read the whole public state again after another process's full
   * build (listeners then re-sync everything).
   */
  full: boolean;
  /** Articles whose public state was re-read (incremental builds; empty for a full build). */
  articleIds: number[];
  ms: number;
}

/** The builder's operations. */
export interface SiteBuilder {
  /** Rebuilds everything from the store; removes every file nothing produces. */
  fullBuild(): Promise<BuildReport>;
  /** Applies the pending publication events; resolves with what changed (empty when none were pending). */
  applyEvents(): Promise<BuildReport>;
  /**
   * The public state the output was last built from (loaded from the store
   * the first time), for the read API's on-demand variants and search: the
   * same values the static files were rendered from.
   */
  publicState(): Promise<PublicState>;
  /**
   * Subscribes to the paths a build wrote or removed, told once all of that
   * build's files are in place and before the build is recorded as shown
   * (`built_translations`), so a cache of the output is fresh by the time
   * the publishing API reports the change.
   */
  onFilesPlaced(listener: (paths: readonly string[]) => void): void;
}

/** What the builder needs. */
export interface SiteBuilderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly model: PublicModel;
  readonly renderers: Renderers;
  readonly cursors: CursorCodec;
  readonly outputDir: string;
  readonly site: SiteInfo;
  readonly channelsUrl: string;
  readonly log: Logger;
  /** Files the site needs besides the rendered pages (the stylesheet under `_astro/`). */
  readonly assets?: () => Promise<readonly PlannedFile[]>;
  /**
   * Identifies the rendering code (`renderCodeFingerprint()` plus the Astro
   * build hash); part of every owner's input hash. Default: the sources' hash.
   */
  readonly renderFingerprint?: string;
  /**
   * Starts worker threads for a full build that must render at least
   * `POOL_MIN_ARTICLES` articles; without it, every article renders here.
   */
  readonly renderPool?: () => Promise<RenderPool>;
  /**
   * Where the files this thread renders go (`output-queue.ts`). Default: each
   * is written at once, in this thread.
   */
  readonly output?: OutputQueue;
}

/** Below this many articles to render, starting workers costs more than it saves. */
export const POOL_MIN_ARTICLES = 200;
/** Articles per message to a worker: large enough to amortise a store read, small enough to balance the workers. */
const POOL_BATCH = 16;
/** Manifest rows collected before a transaction writes them. */
const FLUSH_ROWS = 5000;
/**
 * Setting naming the last full build (a new value each time). A full build in
 * another process (`npm run build` while the server runs) processes the
 * events itself, so this builder would never read what they changed: when
 * the value is not the one it knows, it drops what it remembers and reads the
 * public state again.
 */
const FULL_BUILD_SETTING = 'last_full_build';

/** Above this many changed articles in one channel, its cursor pages are planned whole rather than around each change. */
const NARROW_PAGES_MAX = 64;

/** The order of the list a cursor scope names. */
const orderOf = (scope: string): ListOrder => (scope.startsWith('public-channels') ? CHANNEL_LIST_ORDER : ARTICLE_LIST_ORDER);

const emptyReport = (): BuildReport => ({ written: 0, unchanged: 0, removed: 0, changedPaths: [], full: false, articleIds: [], ms: 0 });

/** Creates the builder. Builds never overlap: each waits for the previous one. */
export function createSiteBuilder(deps: SiteBuilderDeps): SiteBuilder {
  const fingerprint = deps.renderFingerprint ?? renderCodeFingerprint();
  const output = deps.output ?? createSyncOutputQueue(deps.outputDir);
  const context = { model: deps.model, renderers: deps.renderers, site: deps.site, outputDir: deps.outputDir, files: output };
  // Every public article by id, without bodies, and each channel's group (`article-index.ts`). The outbox
  // names every change to what is public, so after the first load only the articles an event names are read again.
  let index: ArticleIndex | null = null;
  let channelList: readonly PublicChannel[] | null = null;
  const ready = ensureBuildOwners(deps.db);
  const memo = createRenderMemo();
  // The last full build this builder knows of (`FULL_BUILD_SETTING`).
  let knownFullBuild: string | undefined;
  // What the files of each rendered article show (content hash by language; empty when nothing), recorded in
  // `built_translations` with the events once the whole build (lists and feeds included) is in place.
  let rendered = new Map<number, Readonly<Record<string, string>>>();
  const placedListeners: Array<(paths: readonly string[]) => void> = [];
  // Each list's anchors by scope (loaded from `list_anchors` once), and the ones found since, not yet recorded.
  let anchors: Map<string, readonly ListPosition[]> | null = null;
  let newAnchors: Array<{ scope: string; position: ListPosition }> = [];
  // The channel object each channel's cursor pages were last planned whole with.
  const pagesPlannedWith = new Map<number, PublicChannel>();

  async function loadAnchors(): Promise<Map<string, readonly ListPosition[]>> {
    if (!anchors) {
      const loaded = new Map<string, readonly ListPosition[]>();
      for (const [scope, positions] of await readListAnchors(deps.db)) loaded.set(scope, Object.freeze(sortedPositions(positions, orderOf(scope))));
      anchors = loaded;
    }
    return anchors;
  }

  /** A list's anchors with every item listed now; new ones are recorded by `recordAnchors`. */
  function anchorsOf<T>(scope: string, items: readonly T[], positionOf: (item: T) => ListPosition): readonly ListPosition[] {
    const known = anchors!.get(scope) ?? [];
    const merged = withItemAnchors(known, items, positionOf, orderOf(scope));
    if (merged.added.length > 0) {
      anchors!.set(scope, Object.freeze(merged.anchors));
      for (const position of merged.added) newAnchors.push({ scope, position });
    }
    return merged.anchors;
  }

  /** Records the anchors found since the last call, before any file that names them is written. */
  async function recordAnchors(): Promise<void> {
    if (newAnchors.length === 0) return;
    const rows = newAnchors;
    newAnchors = [];
    await addListAnchors(deps.db, rows);
  }

  /**
   * The end of a build: tells the listeners which files changed, then records
   * what the output shows and marks the events processed, in one transaction.
   */
  async function settle(report: BuildReport, lastEventId: number, everything: boolean): Promise<void> {
    for (const listener of placedListeners) listener(report.changedPaths);
    const shown = rendered;
    rendered = new Map();
    await deps.db.transaction().execute(async (trx) => {
      await recordBuiltTranslations(trx, shown, { everything });
      await markEventsProcessed(trx, lastEventId, isoNow(deps.clock));
    });
  }

  /**
   * Forgets the index and the last renders when another process built the
   * whole site since. @returns true when it did (what was read from the
   * public state before is stale).
   */
  async function followOtherBuilds(): Promise<boolean> {
    const last = await readSetting(deps.db, FULL_BUILD_SETTING);
    if (last === knownFullBuild) return false;
    const stale = knownFullBuild !== undefined || index !== null;
    if (stale) {
      index = null;
      channelList = null;
      anchors = null;
      pagesPlannedWith.clear();
      memo.clear();
    }
    knownFullBuild = last;
    return stale;
  }

  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  /**
   * Renders an owner's planned files here and applies them; a file whose
   * inputs are as last rendered is left as it is. With `some`, `planned` is
   * only part of what the owner produces: its other files stay.
   */
  async function applyOwner(owner: string, planned: readonly PlannedFile[], report: BuildReport, batch: ManifestBatch, some = false): Promise<void> {
    const previous = some ? await manifest.filesAt(deps.db, planned.map((f) => f.path)) : await manifest.filesOfOwners(deps.db, [owner]);
    const produced: Array<{ path: string; hash: string; written: boolean }> = [];
    for (const file of planned) {
      const recorded = previous.get(file.path)?.hash;
      const same = memo.unchanged(file, recorded);
      if (same !== null && fs.existsSync(resolveOutputPath(deps.outputDir, file.path))) {
        produced.push({ path: file.path, hash: same, written: false });
        continue;
      }
      const content = outputBytes(await file.render());
      const hash = hashContent(content);
      produced.push({ path: file.path, hash, written: output.write(file.path, content, recorded, hash) });
      memo.remember(file, hash);
    }
    batch.apply(owner, produced, previous, report);
  }

  /** Applies rendered article owners: manifest, owner state, index. */
  function applyArticles(results: readonly RenderedArticle[], previous: ReadonlyMap<string, ReadonlyMap<string, { owner: string; hash: string }>>, report: BuildReport, batch: ManifestBatch): void {
    for (const r of results) {
      const owner = articleOwner(r.id);
      batch.apply(owner, r.files, previous.get(owner) ?? new Map(), report);
      rendered.set(r.id, r.head?.contentHashes ?? {});
      if (r.head) {
        batch.setOwnerState(owner, { inputHash: articleInputHash(r.head, deps.site, fingerprint), textStarts: r.textStarts });
        index!.set(r.id, withTextStarts(r.head, r.textStarts));
      } else {
        batch.setOwnerState(owner, null);
        index!.set(r.id, null);
      }
    }
  }

  /**
   * Channel and site owners, from the index. `changes` names, by channel,
   * the articles an incremental build changed (as they were and are now),
   * so only the cursor pages around them are planned; without it (or for a
   * channel it does not name) every page is.
   */
  async function applyListOwners(channelIds: Iterable<number>, report: BuildReport, batch: ManifestBatch, changes?: ReadonlyMap<number, ChannelChanges>): Promise<void> {
    await loadAnchors();
    for (const channelId of channelIds) {
      const found = await deps.model.channel(channelId);
      const channel = found && memo.sameChannel(found);
      const own = channel ? (index!.groups().get(channelId) ?? []) : [];
      await applyOwner(channelOwner(channelId), channel ? planChannel(channel, own, deps.renderers, deps.cursors, deps.site) : [], report, batch);
      await applyPages(channelId, channel, own, changes?.get(channelId), report, batch);
    }
    const channels = (await deps.model.channels()).map(memo.sameChannel);
    const assets = deps.assets ? await deps.assets() : [];
    channelList = channels;
    const planned = planSite(channels, index!.groups(), deps.renderers, deps.cursors, deps.site, deps.channelsUrl, assets, (scope, items) => anchorsOf(scope, items, (p) => p));
    await recordAnchors();
    await applyOwner(SITE_OWNER, planned, report, batch);
  }

  /**
   * A channel's cursor pages (`render/list-pages.ts`), in each of its lists.
   * Around `changes` only the pages whose items include a changed article's
   * old or new position are planned, plus the pages of new anchors: a
   * bounded number per publish, whatever the channel's size.
   */
  async function applyPages(channelId: number, channel: PublicChannel | null, own: readonly PublicArticleSummary[], changes: ChannelChanges | undefined, report: BuildReport, batch: ManifestBatch): Promise<void> {
    const owner = pagesOwner(channelId);
    if (!channel) {
      pagesPlannedWith.delete(channelId);
      await applyOwner(owner, [], report, batch);
      return;
    }
    const languages = [null, ...channelLanguages(channel, own)];
    const lists = languages.map((language) => {
      const scope = articleListScope(channel.id, language);
      const listed = deps.renderers.listArticles(own, language);
      return { language, listed, anchors: anchorsOf(scope, listed, cursorPosition) };
    });
    const narrow =
      changes !== undefined &&
      changes.articles.length <= NARROW_PAGES_MAX &&
      pagesPlannedWith.get(channelId) === channel &&
      sameLanguages(languages, [null, ...channelLanguages(channel, changes.group)]);
    if (!narrow) {
      const planned = lists.flatMap((l) => planArticlePages(channel, l.language, l.listed, l.anchors, deps.renderers, deps.cursors));
      await recordAnchors();
      await applyOwner(owner, planned, report, batch);
      pagesPlannedWith.set(channelId, channel);
      return;
    }
    const planned: PlannedFile[] = [];
    for (const l of lists) {
      const indexes = new Set<number>();
      const inList = (a: PublicArticleSummary | null): a is PublicArticleSummary => a !== null && (l.language === null || translationIn(a, l.language) !== undefined);
      // The list as it was is the old group's (sorted when it was last built, so remembered).
      const old = deps.renderers.listArticles(changes!.group, l.language);
      for (const c of changes!.articles) {
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
    await recordAnchors();
    await applyOwner(owner, planned, report, batch, true);
  }

  /**
   * Loads the index without rendering: each article's `textStart` comes from
   * its owner state when the inputs are unchanged. Returns the ids whose
   * state is missing or stale (their owners must be rendered).
   */
  async function loadIndex(heads: readonly ArticleHead[], states: ReadonlyMap<string, BuildOwnerState>): Promise<number[]> {
    const known: PublicArticleSummary[] = [];
    const stale: number[] = [];
    for (const head of heads) {
      const state = states.get(articleOwner(head.summary.id));
      const current = state?.inputHash === articleInputHash(head, deps.site, fingerprint);
      if (current && head.summary.translations.every((t) => t.language in state.textStarts)) known.push(withTextStarts(head, state.textStarts));
      else stale.push(head.summary.id);
    }
    index = createArticleIndex(known);
    return stale;
  }

  async function ensureIndex(report: BuildReport, batch: ManifestBatch): Promise<void> {
    if (index) return;
    await ready;
    const stale = await loadIndex(await deps.model.heads({}), await readBuildOwners(deps.db));
    // Stale states (a new renderer, a lost cache) are rendered once to learn their text starts.
    if (stale.length > 0) applyArticles(await renderArticles(context, stale), await ownerFiles(stale), report, batch);
  }

  async function ownerFiles(ids: readonly number[]) {
    const owners = ids.map(articleOwner);
    const byOwner = new Map<string, Map<string, { owner: string; hash: string }>>();
    for (let i = 0; i < owners.length; i += 500) {
      for (const [p, f] of await manifest.filesOfOwners(deps.db, owners.slice(i, i + 500))) {
        if (!byOwner.has(f.owner)) byOwner.set(f.owner, new Map());
        byOwner.get(f.owner)!.set(p, f);
      }
    }
    return byOwner;
  }

  async function fullBuild(): Promise<BuildReport> {
    const started = performance.now();
    const report = emptyReport();
    report.full = true;
    await ready;
    const highWater = await lastEventId(deps.db);
    const batch = createManifestBatch(deps.db, deps.clock, output);
    const onDisk = listOutput(deps.outputDir);
    const recorded = await manifest.allFiles(deps.db);
    const byOwner = new Map<string, Map<string, { owner: string; hash: string }>>();
    for (const [p, f] of recorded) {
      if (!byOwner.has(f.owner)) byOwner.set(f.owner, new Map());
      byOwner.get(f.owner)!.set(p, f);
    }
    const heads = await deps.model.heads({});
    // Unrendered owners show their heads; the rendered ones overwrite theirs in `applyArticles`.
    rendered = new Map(heads.map((h) => [h.summary.id, h.contentHashes]));
    const stale = new Set(await loadIndex(heads, await readBuildOwners(deps.db)));
    // An owner whose files are not all in place is rendered again, whatever its hash says.
    for (const head of heads) {
      const files = byOwner.get(articleOwner(head.summary.id));
      if (!files || files.size === 0 || [...files.keys()].some((p) => !onDisk.has(p))) stale.add(head.summary.id);
    }
    const toRender = heads.map((h) => h.summary.id).filter((id) => stale.has(id));
    deps.log.info('full build', { articles: heads.length, render: toRender.length });
    const known = (p: string) => recorded.get(p)?.hash;
    const flushIfFull = async () => {
      if (batch.pending >= FLUSH_ROWS) await batch.flush();
    };
    if (toRender.length >= POOL_MIN_ARTICLES && deps.renderPool) {
      const pool = await deps.renderPool();
      try {
        let applying = Promise.resolve();
        const batches: Array<Promise<void>> = [];
        for (let i = 0; i < toRender.length; i += POOL_BATCH) {
          const ids = toRender.slice(i, i + POOL_BATCH);
          const knownHashes: Record<string, string> = {};
          for (const id of ids) for (const [p, f] of byOwner.get(articleOwner(id)) ?? []) knownHashes[p] = f.hash;
          batches.push(
            pool.render(ids, knownHashes).then((results) => {
              applying = applying.then(async () => {
                applyArticles(results, byOwner, report, batch);
                await flushIfFull();
              });
              return applying;
            }),
          );
        }
        await Promise.all(batches);
        await applying;
      } finally {
        await pool.close();
      }
    } else {
      for (let i = 0; i < toRender.length; i += POOL_BATCH) {
        applyArticles(await renderArticles(context, toRender.slice(i, i + POOL_BATCH), known), byOwner, report, batch);
        await flushIfFull();
      }
    }
    await batch.flush();
    const channels = await deps.model.channels();
    await applyListOwners(channels.map((c) => c.id), report, batch);
    // Owners that produce nothing any more (unpublished articles, hidden channels) lose their files.
    const owners = new Set([SITE_OWNER, ...channels.flatMap((c) => [channelOwner(c.id), pagesOwner(c.id)]), ...heads.map((h) => articleOwner(h.summary.id))]);
    for (const [owner, files] of byOwner) {
      if (owners.has(owner)) continue;
      batch.apply(owner, [], files, report);
      if (owner.startsWith('article:')) batch.setOwnerState(owner, null);
    }
    await batch.flush();
    const known2 = new Set((await manifest.allFiles(deps.db)).keys());
    for (const p of onDisk) {
      if (known2.has(p) || !removeOutput(deps.outputDir, p)) continue;
      report.removed++;
      report.changedPaths.push(p);
    }
    await settle(report, highWater, true);
    knownFullBuild = randomUUID();
    await writeSetting(deps.db, FULL_BUILD_SETTING, knownFullBuild);
    report.ms = Math.round(performance.now() - started);
    return report;
  }

  async function applyEvents(): Promise<BuildReport> {
    // After another process's full build, the report says the whole public state was read again (`full`).
    const reread = await followOtherBuilds();
    const events = await listUnprocessedEvents(deps.db);
    if (events.length === 0) return { ...emptyReport(), full: reread };
    const started = performance.now();
    const report = emptyReport();
    report.full = reread;
    const batch = createManifestBatch(deps.db, deps.clock, output);
    // A builder that reads the public state afresh here has nothing to compare with: its pages are planned whole.
    const fresh = index === null;
    await ensureIndex(report, batch);
    const { articleIds, channelIds } = affected(events);
    // A channel change shows in every page of its articles (publisher name, links).
    for (const channelId of channelIds) {
      if (!events.some((e) => e.kind === 'channel_changed' && e.channelId === channelId)) continue;
      const rows = await deps.db.selectFrom('articles').select('id').where('channel_id', '=', channelId).execute();
      for (const r of rows) articleIds.add(r.id);
    }
    report.articleIds = [...articleIds];
    const ids = [...articleIds];
    const previous = await ownerFiles(ids);
    const hashes = new Map([...previous.values()].flatMap((files) => [...files].map(([p, f]) => [p, f.hash] as const)));
    const known = (p: string) => hashes.get(p);
    const groups = index!.groups();
    const oldGroups = new Map([...channelIds].map((id) => [id, groups.get(id) ?? []] as const));
    const oldArticles = new Map(ids.map((id) => [id, index!.articles.get(id) ?? null] as const));
    applyArticles(await renderArticles(context, ids, known), previous, report, batch);
    await applyListOwners(channelIds, report, batch, fresh ? undefined : channelChanges(oldGroups, oldArticles, index!.articles));
    await batch.flush();
    await settle(report, events[events.length - 1]!.id, false);
    report.ms = Math.round(performance.now() - started);
    deps.log.info('incremental build', { events: events.length, written: report.written, removed: report.removed, ms: report.ms });
    return report;
  }

  async function publicState(): Promise<PublicState> {
    if (!index || !channelList || !anchors) {
      await serial(async () => {
        const batch = createManifestBatch(deps.db, deps.clock, output);
        await ensureIndex(emptyReport(), batch);
        await batch.flush();
        channelList ??= await deps.model.channels();
        await loadAnchors();
      });
    }
    return { channels: channelList!, articles: index!.articles, anchors: anchors ?? (await loadAnchors()) };
  }

  return {
    fullBuild: () => serial(fullBuild),
    applyEvents: () => serial(applyEvents),
    publicState,
    onFilesPlaced(listener) {
      placedListeners.push(listener);
    },
  };
}

/** The head as lists hold it, with each translation's text start. */
function withTextStarts(head: ArticleHead, textStarts: Readonly<Record<string, string>>): PublicArticleSummary {
  return deepFreeze({ ...head.summary, translations: head.summary.translations.map((t) => ({ ...t, textStart: textStarts[t.language] ?? '' })) });
}

/** An article an incremental build changed: its public version before and after (null: not public). */
interface ArticleChange {
  readonly before: PublicArticleSummary | null;
  readonly after: PublicArticleSummary | null;
}

/** What an incremental build changed in one channel: its group of articles before, and the changed articles. */
interface ChannelChanges {
  readonly group: readonly PublicArticleSummary[];
  readonly articles: ArticleChange[];
}

function sameLanguages(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Id of the newest publication event (0 when none): a full build processes exactly the events before it started. */
async function lastEventId(db: Db): Promise<number> {
  const row = await db.selectFrom('publication_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The changed articles by channel (an article counts in the channel it was in and the one it is in). */
function channelChanges(
  oldGroups: ReadonlyMap<number, readonly PublicArticleSummary[]>,
  before: ReadonlyMap<number, PublicArticleSummary | null>,
  now: ReadonlyMap<number, PublicArticleSummary>,
): Map<number, ChannelChanges> {
  const out = new Map<number, ChannelChanges>();
  for (const [channelId, group] of oldGroups) out.set(channelId, { group, articles: [] });
  for (const [id, old] of before) {
    const after = now.get(id) ?? null;
    for (const channelId of new Set([old?.channel.id, after?.channel.id])) {
      if (channelId !== undefined) out.get(channelId)?.articles.push({ before: old, after });
    }
  }
  return out;
}

/** The articles and channels named by a batch of events. */
function affected(events: readonly PublicationEvent[]): { articleIds: Set<number>; channelIds: Set<number> } {
  const articleIds = new Set<number>();
  const channelIds = new Set<number>();
  for (const e of events) {
    channelIds.add(e.channelId);
    if (e.articleId !== null) articleIds.add(e.articleId);
  }
  return { articleIds, channelIds };
}

/**
 * Every file of the managed part of the output (folders listed in
 * UNMANAGED_OUTPUT_FOLDERS and files in UNMANAGED_OUTPUT_FILES are left out): a full build re-renders owners
 * whose files are missing and deletes files no owner produces (left by a
 * crash, or by an older version).
 */
function listOutput(outputDir: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && (UNMANAGED_OUTPUT_FOLDERS.includes(entry.name) || UNMANAGED_OUTPUT_FILES.includes(entry.name))) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else found.add(rel);
    }
  };
  walk(outputDir, '');
  return found;
}
