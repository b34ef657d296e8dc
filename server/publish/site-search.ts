/**
 * Keeps the Pagefind shards in step with the output (`docs/SEARCH.md`).
 * Rebuilds run in the background, one at a time, with a rest between two
 * in proportion to the last one (`restFactor`); requests made meanwhile are
 * coalesced. A failed rebuild is logged and its work is retried with the
 * next request.
 *
 * A change re-indexes only the parts (`search-parts.ts`) that hold a changed
 * article, or have no shard yet, in the channels and languages whose pages
 * changed, and removes the parts that no longer exist: a bounded piece,
 * whatever the size of the channel. Records are read for the part's
 * articles only (`PublicModel.texts` by ids), so a rebuild holds one part's
 * texts at a time.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { PublicArticleText, PublicModel } from '../read-model/public-model.ts';
import { createCoalescingRunner } from '../serial-work.ts';
import type { BuildReport } from './builder/build-report.ts';
import { SEARCH_FOLDER, searchRecords, shardFolder, shardsOnDisk, type SearchIndexer, type Shard, type ShardPair } from './search-index.ts';
import { freshSize, partsOf, partsToIndex, SEARCH_PART_SIZE } from './search-parts.ts';
import { describeError } from '../describe-error.ts';

/** The search keeper's operations. */
export interface SiteSearch {
  /** Rebuilds every shard (after a full build, or when no index exists) and removes shards of nothing. */
  rebuildAll(): void;
  /**
   * Rebuilds the parts a build changed (wired to `queue.onBuilt`). Another
   * process's full build (`npm run build`) rebuilt the whole index itself.
   */
  rebuildFor(report: Pick<BuildReport, 'changedPaths' | 'articleIds'>): void;
  /** Subscribes to finished rebuilds (the index's files changed: the bucket deploy compares them again). */
  onIndexed(listener: (change: SearchChange) => void): void;
  /**
   * Whether a current index exists: `pagefind/shards.json`, and no bundle of
   * the layout before parts (which a full rebuild replaces).
   */
  hasIndex(): boolean;
  /** Resolves when no rebuild is running or pending. */
  idle(): Promise<void>;
  /** Whether a rebuild is running (its bundles may be half swapped: the edge compares them once it is over). */
  busy(): boolean;
  /**
   * Whether the last rebuild failed (its error is logged) and its work waits
   * to be retried with the next request: `npm run build` then exits non-zero.
   */
  failed(): boolean;
  /** Waits for the running rebuild, then stops Pagefind. */
  close(): Promise<void>;
}

/**
 * What a rebuild changed in the output: every file of the search index
 * (`'all'`), or the bundles of the shards it rewrote or removed (output
 * paths of their folders) and the index's top-level files.
 */
export type SearchChange = 'all' | { readonly folders: readonly string[]; readonly files: readonly string[] };

/** The files at the top of the search index that a rebuild may rewrite (`shards.json`, the UI copied from the bundles). */
const TOP_FILES = ['shards.json', 'pagefind-ui.js', 'pagefind-ui.css'].map((f) => `${SEARCH_FOLDER}/${f}`);

/** What is waiting to be indexed. */
interface Pending {
  everything: boolean;
  pairs: Map<string, ShardPair>;
  goneChannels: Set<string>;
  articleIds: Set<number>;
}

const nothing = (): Pending => ({ everything: false, pairs: new Map(), goneChannels: new Set(), articleIds: new Set() });
const isEmpty = (p: Pending) => !p.everything && p.pairs.size === 0 && p.goneChannels.size === 0;

/** The work file's name in the data folder: search work requested and not done yet (`createSiteSearch`). */
export const SEARCH_PENDING_FILE = 'search-pending.json';

/** The work file as written: what `Pending` holds, in JSON. */
interface PendingFile {
  everything: boolean;
  pairs: ShardPair[];
  goneChannels: string[];
  articleIds: number[];
}

/** Reads the work a process left undone (none when the file is missing or unreadable: then nothing was left). */
function readPending(file: string | undefined): Pending {
  if (!file) return nothing();
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as PendingFile;
    return { everything: saved.everything === true, pairs: new Map(saved.pairs.map((p) => [`${p.channel}/${p.language}`, p])), goneChannels: new Set(saved.goneChannels), articleIds: new Set(saved.articleIds) };
  } catch {
    return nothing();
  }
}

/** Writes (or, for no work, removes) the work file, atomically: a crash leaves the old file or the new one. */
function writePending(file: string | undefined, work: Pending): void {
  if (!file) return;
  if (isEmpty(work)) return void fs.rmSync(file, { force: true });
  const saved: PendingFile = { everything: work.everything, pairs: [...work.pairs.values()], goneChannels: [...work.goneChannels], articleIds: [...work.articleIds] };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(saved));
  fs.renameSync(temp, file);
}

/** The longest rest between two rebuilds (`restFactor`), whatever the last one took. */
export const SEARCH_REST_MAX_MS = 30_000;

/** How the keeper works (each has a default). */
export interface SiteSearchOptions {
  /** Articles per part on average (`SEARCH_PART_SIZE`; tests use a small one). */
  readonly partSize?: number;
  /** The fresh part's bound (`freshSize(partSize)`); tests set 1 to make an index as it was before fresh parts. */
  readonly fresh?: number;
  /**
   * Where the work not done yet is kept (in the data folder), so a crash
   * mid-rebuild, or before one, does not leave shards behind the output for
   * good (issue 40: after a crash two shards differed from a fresh build): a
   * new keeper starts with that work, done at its first request.
   */
  readonly pendingFile?: string;
  /**
   * `PRESSROOM_SEARCH_REST_FACTOR`: a rebuild starts no sooner than that
   * many times the last one's duration after it ended (at most
   * `SEARCH_REST_MAX_MS`), so a steady stream of publishes leaves readers
   * most of the cores instead of Pagefind re-indexing a part back to back
   * (each rebuild covers every change asked for meanwhile); a request after
   * a quiet spell starts at once. 0 (the default): no rest.
   */
  readonly restFactor?: number;
}

/** Creates the keeper. */
export function createSiteSearch(indexer: SearchIndexer, model: PublicModel, outputDir: string, log: Logger, options: SiteSearchOptions = {}): SiteSearch {
  const { partSize = SEARCH_PART_SIZE, fresh = freshSize(partSize), pendingFile, restFactor = 0 } = options;
  let pending = readPending(pendingFile);
  if (!isEmpty(pending)) log.info('search work left by the last run resumes', { everything: pending.everything, shards: pending.pairs.size, articles: pending.articleIds.size });
  let closed = false;
  /** Every piece of work requested and not done yet (pending, running, to retry): what the work file holds. */
  let outstanding = pending;

  /** The shards to rebuild for `work`, each with the ids of its part (empty: the shard goes). */
  async function plan(work: Pending): Promise<Array<{ shard: Shard; ids: readonly number[] }>> {
    const channels = new Map((await model.channels()).map((c) => [c.slug, c.id]));
    // Which articles each channel has public in each language: ids and languages only (`publicLanguages`), so
    // planning a publish's part costs little even in a channel of 20,000 articles (reading its heads took time
    // that grew with the channel).
    const publicIds = new Map<string, Map<string, number[]>>();
    const idsOf = async (slug: string): Promise<Map<string, number[]>> => {
      let byLanguage = publicIds.get(slug);
      if (!byLanguage) {
        byLanguage = new Map();
        const id = channels.get(slug);
        for (const [article, languages] of id === undefined ? [] : await model.publicLanguages({ channelId: id })) {
          for (const language of languages) {
            const ids = byLanguage.get(language);
            if (ids) ids.push(article);
            else byLanguage.set(language, [article]);
          }
        }
        publicIds.set(slug, byLanguage);
      }
      return byLanguage;
    };
    const targets = new Map<string, { shard: Shard; ids: readonly number[] }>();
    const add = (shard: Shard, ids: readonly number[]) => targets.set(shardFolder(shard), { shard, ids });
    const existing = indexer.existingShards();
    if (work.everything) {
      for (const s of existing) add(s, []);
      for (const slug of channels.keys()) {
        for (const [language, ids] of await idsOf(slug)) for (const [part, members] of partsOf(ids, partSize, fresh)) add({ channel: slug, language, part }, members);
      }
      return [...targets.values()];
    }
    for (const pair of work.pairs.values()) {
      const ids = (await idsOf(pair.channel)).get(pair.language) ?? [];
      const parts = partsOf(ids, partSize, fresh);
      const indexed = existing.filter((s) => s.channel === pair.channel && s.language === pair.language);
      // The parts the changed articles fall in, the parts with no shard yet (split off, starting at another
      // article since a part before it that reached the most a part holds now ends elsewhere, the fresh part of
      // a channel's newest articles, or a shard lost), and the parts whose shard holds another number of
      // articles (`partsToIndex`): one entry file read per part of the channel.
      const held = new Set(indexed.map((s) => s.part));
      for (const part of partsToIndex(parts, held, work.articleIds, (p) => indexer.shardPages({ ...pair, part: p }))) add({ ...pair, part }, parts.get(part)!);
      // Parts that no longer exist (their last article withdrawn, or merged into the one before) go.
      for (const s of indexed) if (!parts.has(s.part)) add(s, []);
    }
    for (const s of existing) if (work.goneChannels.has(s.channel)) add(s, []);
    return [...targets.values()];
  }

  async function once(work: Pending): Promise<SearchChange> {
    // A part's languages one after the other: every language uses the same cuts, so they share most articles.
    const order = (x: Shard) => [x.channel, String(x.part).padStart(16, '0'), x.language].join('\u0000');
    const planned = (await plan(work)).sort((a, b) => (order(a.shard) < order(b.shard) ? -1 : 1));
    const idsOf = new Map(planned.map((p) => [shardFolder(p.shard), p.ids]));
    // Only public translations reach the index: the texts come from the public model. A part's texts are
    // read once for all its languages (the union of their ids) and held until its last language is indexed,
    // so a rebuild holds the texts of the parts being indexed (one per Pagefind lane), not the channel's.
    const partOfShard = (shard: Shard) => `${shard.channel}/${shard.part}`;
    const parts = new Map<string, { ids: Set<number>; left: number; texts?: Promise<Map<number, PublicArticleText>> }>();
    for (const { shard, ids } of planned) {
      if (ids.length === 0) continue;
      const part = parts.get(partOfShard(shard)) ?? { ids: new Set<number>(), left: 0 };
      for (const id of ids) part.ids.add(id);
      part.left++;
      parts.set(partOfShard(shard), part);
    }
    const report = await indexer.rebuildShards(
      planned.map((p) => p.shard),
      async (shard) => {
        const ids = idsOf.get(shardFolder(shard)) ?? [];
        if (ids.length === 0) return [];
        const key = partOfShard(shard);
        const part = parts.get(key)!;
        part.texts ??= model.texts({ ids: [...part.ids] }).then((texts) => new Map(texts.map((a) => [a.id, a])));
        const texts = await part.texts;
        if (--part.left === 0) parts.delete(key);
        return searchRecords(ids.flatMap((id) => texts.get(id) ?? []), shard);
      },
    );
    log.info(work.everything ? 'search index built' : 'search shards rebuilt', { ...report, msPerShard: report.shards ? Math.round(report.ms / report.shards) : 0 });
    return work.everything ? 'all' : { folders: planned.map((p) => `${SEARCH_FOLDER}/${shardFolder(p.shard)}`), files: TOP_FILES };
  }

  let retry = nothing();
  const indexed: Array<(change: SearchChange) => void> = [];
  // When the last rebuild ended and how long it took (the rest after it), and how to cut a rest short (close).
  let lastEnd = 0;
  let lastMs = 0;
  let wakeEarly: (() => void) | null = null;
  const rest = async () => {
    const ms = Math.min(restFactor * lastMs, SEARCH_REST_MAX_MS) - (performance.now() - lastEnd);
    if (ms <= 0 || closed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeEarly = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeEarly = null;
  };
  const runner = createCoalescingRunner(
    async () => {
      if (closed || isEmpty(pending)) return;
      await rest();
      if (closed || isEmpty(pending)) return;
      const work = pending;
      pending = nothing();
      const started = performance.now();
      try {
        const change = await once(work);
        // Done: what is still owed is what was asked for meanwhile, and what failed before.
        outstanding = merge(pending, retry);
        writePending(pendingFile, outstanding);
        for (const listener of indexed) listener(change);
      } catch (error) {
        log.error('search index build failed', { error: describeError(error, { stack: true }) });
        retry = merge(retry, work);
      } finally {
        lastEnd = performance.now();
        lastMs = lastEnd - started;
      }
    },
    () => undefined,
  );

  function request(work: Pending): void {
    if (closed) return;
    pending = merge(merge(pending, retry), work);
    retry = nothing();
    // Kept before it is done: a process that dies now leaves it for the next one.
    if (!isEmpty(work)) {
      outstanding = merge(outstanding, work);
      writePending(pendingFile, outstanding);
    }
    if (!isEmpty(pending)) runner.kick();
  }

  return {
    rebuildAll: () => request({ ...nothing(), everything: true }),
    rebuildFor(report) {
      const { pairs, goneChannels } = indexer.pairsForPaths(report.changedPaths);
      request({
        everything: false,
        pairs: new Map(pairs.map((p) => [`${p.channel}/${p.language}`, p])),
        goneChannels: new Set(goneChannels),
        articleIds: new Set(report.articleIds),
      });
    },
    hasIndex: () => hasSearchIndex(outputDir),
    idle: () => runner.idle(),
    // A rest with work waiting counts: the index is not done (the edge's settle waits for it, as for a rebuild).
    busy: () => runner.busy,
    onIndexed(listener) {
      indexed.push(listener);
    },
    failed: () => !isEmpty(retry),
    async close() {
      closed = true;
      wakeEarly?.();
      await runner.stop();
      await indexer.close();
    },
  };
}

/**
 * Whether `outputDir` holds a current search index: `pagefind/shards.json`,
 * and no bundle of the layout before parts (which a full rebuild replaces).
 */
export function hasSearchIndex(outputDir: string): boolean {
  return fs.existsSync(path.join(outputDir, SEARCH_FOLDER, 'shards.json')) && shardsOnDisk(outputDir).every((s) => s.part >= 0);
}

function merge(a: Pending, b: Pending): Pending {
  return {
    everything: a.everything || b.everything,
    pairs: new Map([...a.pairs, ...b.pairs]),
    goneChannels: new Set([...a.goneChannels, ...b.goneChannels]),
    articleIds: new Set([...a.articleIds, ...b.articleIds]),
  };
}
