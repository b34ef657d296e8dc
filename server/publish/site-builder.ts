/**
 * Builds the static output. The full build and the incremental build run the
 * same plans (`site-plan.ts`) through the same writer; the incremental build
 * only narrows which owners it re-plans, from the publication events.
 *
 * Each owner's files are compared with the manifest: unchanged bytes are not
 * rewritten, files no longer produced are deleted. Events are marked
 * processed only after their files are in place, so a crash mid-build is
 * finished at the next start.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.ts';
import { isoNow } from '../clock.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/database.ts';
import * as manifest from '../store/output-file.repository.ts';
import { listUnprocessedEvents, markEventsProcessed, type PublicationEvent } from '../store/publication-event.repository.ts';
import type { PublicArticle, PublicChannel, SiteInfo } from '../render/view-models.ts';
import { UNMANAGED_OUTPUT_FOLDERS } from '../urls/static-files.ts';
import { hashContent, removeOutput, writeIfChanged } from './output-writer.ts';
import { newestFirst, type PublicModel } from './public-model.ts';
import { articleOwner, channelOwner, planArticle, planChannel, planSite, SITE_OWNER, type PlannedFile, type Renderers } from './site-plan.ts';

/** What one build did. */
export interface BuildReport {
  written: number;
  unchanged: number;
  removed: number;
  /** Paths written or removed, for tests and purge lists. */
  changedPaths: string[];
  /** Whether this was a full build (every article was considered). */
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
}

/** Public channels (oldest first) and public articles by id, as last built. */
export interface PublicState {
  readonly channels: readonly PublicChannel[];
  readonly articles: ReadonlyMap<number, PublicArticle>;
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
}

const emptyReport = (): BuildReport => ({ written: 0, unchanged: 0, removed: 0, changedPaths: [], full: false, articleIds: [], ms: 0 });

/** Creates the builder. Builds never overlap: each waits for the previous one. */
export function createSiteBuilder(deps: SiteBuilderDeps): SiteBuilder {
  // Every public article by id. The outbox names every change to what is public, so after the first
  // load only the articles an event names are read again: an incremental build costs what changed,
  // not the size of the site.
  let index: Map<number, PublicArticle> | null = null;
  const loadIndex = async (): Promise<Map<number, PublicArticle>> =>
    (index ??= new Map((await deps.model.articles({})).map((a) => [a.id, a])));
  let channelList: readonly PublicChannel[] | null = null;
  const indexed = (filter: (a: PublicArticle) => boolean = () => true) => [...index!.values()].filter(filter).sort(newestFirst);

  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  /** Writes an owner's planned files and deletes the ones it no longer produces. */
  async function applyOwner(owner: string, planned: readonly PlannedFile[], report: BuildReport): Promise<void> {
    const previous = await manifest.filesOfOwners(deps.db, [owner]);
    const records: Array<{ path: string; owner: string; hash: string }> = [];
    const seen = new Set<string>();
    for (const file of planned) {
      seen.add(file.path);
      const content = await file.render();
      const hash = hashContent(content);
      if (writeIfChanged(deps.outputDir, file.path, content, previous.get(file.path)?.hash)) {
        report.written++;
        report.changedPaths.push(file.path);
      } else report.unchanged++;
      if (previous.get(file.path)?.hash !== hash || previous.get(file.path)?.owner !== owner) records.push({ path: file.path, owner, hash });
    }
    const gone = [...previous.keys()].filter((p) => !seen.has(p));
    for (const p of gone) {
      if (removeOutput(deps.outputDir, p)) {
        report.removed++;
        report.changedPaths.push(p);
      }
    }
    await deps.db.transaction().execute(async (trx) => {
      await manifest.recordFiles(trx, records, isoNow(deps.clock));
      await manifest.forgetFiles(trx, gone);
    });
  }

  async function buildSite(channels: readonly PublicChannel[], articles: readonly PublicArticle[], report: BuildReport): Promise<void> {
    const assets = deps.assets ? await deps.assets() : [];
    channelList = channels;
    await applyOwner(SITE_OWNER, planSite(channels, articles, deps.renderers, deps.cursors, deps.site, deps.channelsUrl, assets), report);
  }

  async function fullBuild(): Promise<BuildReport> {
    const started = performance.now();
    const report = emptyReport();
    report.full = true;
    const channels = await deps.model.channels();
    const all: PublicArticle[] = [];
    const owners = new Set<string>([SITE_OWNER]);
    let done = 0;
    for (const channel of channels) {
      const articles = await deps.model.articles({ channelId: channel.id });
      for (const article of articles) {
        owners.add(articleOwner(article.id));
        await applyOwner(articleOwner(article.id), planArticle(article, deps.renderers, deps.site), report);
        if (++done % 500 === 0) deps.log.info('build progress', { articles: done, written: report.written });
      }
      owners.add(channelOwner(channel.id));
      await applyOwner(channelOwner(channel.id), planChannel(channel, articles, deps.renderers, deps.cursors, deps.site), report);
      all.push(...articles);
    }
    await buildSite(channels, all, report);
    index = new Map(all.map((a) => [a.id, a]));
    // Owners that produce nothing any more (unpublished articles, hidden channels) lose their files.
    const recorded = await manifest.allFiles(deps.db);
    for (const owner of new Set([...recorded.values()].map((r) => r.owner))) {
      if (!owners.has(owner)) await applyOwner(owner, [], report);
    }
    report.removed += removeStrays(deps.outputDir, new Set((await manifest.allFiles(deps.db)).keys()));
    await markEventsProcessed(deps.db, Number.MAX_SAFE_INTEGER, isoNow(deps.clock));
    report.ms = Math.round(performance.now() - started);
    return report;
  }

  async function applyEvents(): Promise<BuildReport> {
    const events = await listUnprocessedEvents(deps.db);
    if (events.length === 0) return emptyReport();
    const started = performance.now();
    const report = emptyReport();
    const { articleIds, channelIds } = affected(events);
    // A channel change shows in every page of its articles (publisher name, links).
    for (const channelId of channelIds) {
      if (!events.some((e) => e.kind === 'channel_changed' && e.channelId === channelId)) continue;
      const rows = await deps.db.selectFrom('articles').select('id').where('channel_id', '=', channelId).execute();
      for (const r of rows) articleIds.add(r.id);
    }
    const articles = await loadIndex();
    const publicArticles = new Map((await deps.model.articles({ ids: [...articleIds] })).map((a) => [a.id, a]));
    report.articleIds = [...articleIds];
    for (const id of articleIds) {
      const article = publicArticles.get(id);
      if (article) articles.set(id, article);
      else articles.delete(id);
      await applyOwner(articleOwner(id), article ? planArticle(article, deps.renderers, deps.site) : [], report);
    }
    for (const channelId of channelIds) {
      const channel = await deps.model.channel(channelId);
      const own = channel ? indexed((a) => a.channel.id === channelId) : [];
      await applyOwner(channelOwner(channelId), channel ? planChannel(channel, own, deps.renderers, deps.cursors, deps.site) : [], report);
    }
    await buildSite(await deps.model.channels(), indexed(), report);
    await markEventsProcessed(deps.db, events[events.length - 1]!.id, isoNow(deps.clock));
    report.ms = Math.round(performance.now() - started);
    deps.log.info('incremental build', { events: events.length, written: report.written, removed: report.removed, ms: report.ms });
    return report;
  }

  async function publicState(): Promise<PublicState> {
    if (!index || !channelList) {
      await serial(async () => {
        await loadIndex();
        channelList ??= await deps.model.channels();
      });
    }
    return { channels: channelList!, articles: index! };
  }

  return {
    fullBuild: () => serial(fullBuild),
    applyEvents: () => serial(applyEvents),
    publicState,
  };
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
 * Deletes files of the managed part of the output that no owner produces
 * (left by a crash, or by an older version). Folders listed in
 * UNMANAGED_OUTPUT_FOLDERS are left alone.
 */
function removeStrays(outputDir: string, known: ReadonlySet<string>): number {
  let removed = 0;
  const walk = (dir: string, relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && UNMANAGED_OUTPUT_FOLDERS.includes(entry.name)) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (!known.has(rel) && removeOutput(outputDir, rel)) removed++;
    }
  };
  walk(outputDir, '');
  return removed;
}
