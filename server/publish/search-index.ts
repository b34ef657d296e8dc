/**
 * The Pagefind search index, sharded: one Pagefind bundle per part of a
 * channel's articles in one language (`search-parts.ts`) at
 * `{output}/pagefind/{channel}/{lang}.{part}/`, listed in
 * `{output}/pagefind/shards.json`. Pagefind cannot update an index in place
 * (`writeFiles` always writes the whole bundle), so a change re-indexes only
 * the shards it touches, each of a bounded size; the browser merges the
 * shards with `mergeIndex` (`docs/SEARCH.md`).
 *
 * Shards are indexed by up to `lanes` Pagefind processes at once (one
 * process indexes one shard at a time, so on two cores two processes index
 * a cold build's shards in about half the time).
 *
 * This is the only module that imports `pagefind`. Every shard is written to
 * a staging folder and moved into place (a new shard's folder at once, an
 * existing one's changed files with the entry last), so a reader never
 * sees half an index, and unchanged bytes are never rewritten: a build
 * with nothing new leaves every file's mtime, and so every host's ETag, as
 * it was. A shard with no records loses its folder. Pagefind's `errors[]` are
 * thrown as Errors here.
 * @module
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as pagefind from 'pagefind';
import type { Logger } from '../logger.ts';
import { processRuns } from '../process-runs.ts';
import { BACKGROUND_NICENESS } from '../thread-priority.ts';
import { createSerialQueue } from '../serial-work.ts';
import { LANG_SEGMENT, NOT_FOUND_NAME } from '../serving/static-files.ts';
import { InternalError } from '../internal-error.ts';

/**
 * One index: the public articles of one part (`search-parts.ts`) of one
 * channel in one language. `part` -1 names a bundle of the layout before
 * parts (`{channel}/{lang}/`), which the next full rebuild removes.
 */
export interface Shard {
  readonly channel: string;
  readonly language: string;
  readonly part: number;
}

/** A channel and language whose shards an output change may touch. */
export interface ShardPair {
  readonly channel: string;
  readonly language: string;
}

/** What a record is made from: a public article's channel and its translations' texts (`PublicModel.texts`). */
export interface SearchableArticle {
  readonly channel: { readonly slug: string };
  readonly translations: ReadonlyArray<{ readonly language: string; readonly htmlUrl: string; readonly title: string; readonly text: string }>;
}

/** One searchable page. */
export interface SearchRecord {
  /** Root-relative URL of the page (works on any host). */
  readonly url: string;
  readonly title: string;
  /** Plain text of the body. */
  readonly text: string;
  readonly language: string;
}

/** A line of `shards.json`. `bundlePath` is relative to `shards.json` itself. */
export interface ShardListing extends Shard {
  readonly bundlePath: string;
}

/** What one rebuild did. */
export interface ShardRebuildReport {
  /** Shards rebuilt (written or removed). */
  shards: number;
  /** Records indexed. */
  pages: number;
  ms: number;
}

/** The search index's operations. Rebuilds never overlap: each waits for the previous one. */
export interface SearchIndexer {
  /**
   * Rebuilds the given shards from `recordsFor` (which must return public
   * records only). A shard with no records is removed.
   */
  rebuildShards(shards: readonly Shard[], recordsFor: (shard: Shard) => Promise<readonly SearchRecord[]>): Promise<ShardRebuildReport>;
  /**
   * The channels and languages an output change touches (`{channel}/{lang}/….html`),
   * and the channels whose page is gone (every shard of theirs goes).
   */
  pairsForPaths(changedPaths: readonly string[]): { pairs: ShardPair[]; goneChannels: string[] };
  /** Every shard present on disk. */
  existingShards(): Shard[];
  /** How many records a shard's bundle on disk holds (its entry file's page count), or null when it has none or it cannot be read. */
  shardPages(shard: Shard): number | null;
  /** Stops the Pagefind process (it restarts on the next rebuild). */
  close(): Promise<void>;
}

/** Folder of the index under the output folder (listed in UNMANAGED_OUTPUT_FOLDERS). */
export const SEARCH_FOLDER = 'pagefind';
/** Staging area for bundles being written and bundles being replaced; slugs never start with `_`. */
const STAGING = '_staging';
/** Files of a bundle also copied to the top of the folder, so every page loads the UI from one address. */
const UI_FILES = ['pagefind-ui.js', 'pagefind-ui.css'];
/** First path segments of the output that are not channels. */
// The site's own folders: `search/{lang}/index.html` (the search pages) would otherwise read as a channel's page.
const NOT_CHANNELS = new Set(['api', 'media', 'pagefind', '_astro', 'assets', 'search', NOT_FOUND_NAME]);

/** Folder of a shard under the index, relative (also its key). */
export const shardFolder = (s: Shard): string => (s.part < 0 ? `${s.channel}/${s.language}` : `${s.channel}/${s.language}.${s.part}`);
const shardKey = shardFolder;

/** Records sent to Pagefind before waiting for their answers. */
const RECORDS_IN_FLIGHT = 4096;

type PagefindApi = typeof pagefind;

/**
 * The OS scheduling priority (niceness) of the Pagefind processes: the
 * lowest (`thread-priority.ts`). The index is background work that trails
 * the pages by design; on a busy machine its processes (one per lane, each
 * able to fill a core for seconds) would otherwise take the cores from
 * readers' requests and the work a publish waits for. At the lowest
 * priority they use what those leave.
 */
export const PAGEFIND_NICENESS = BACKGROUND_NICENESS;

const lowered = new Set<number>();

/**
 * Lowers the priority of this process's Pagefind children that are not yet
 * lowered. The package spawns them itself and does not expose them, so they
 * are found through `/proc` (Linux); elsewhere they keep the default
 * priority.
 */
export function lowerPagefindPriority(): void {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return;
  }
  for (const task of tasks) {
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.split(' ').filter(Boolean).map(Number)) {
      if (lowered.has(pid)) continue;
      try {
        if (!fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('pagefind')) continue;
        os.setPriority(pid, PAGEFIND_NICENESS);
        if (lowered.size > 1_000) lowered.clear();
        lowered.add(pid);
      } catch {
        // Gone meanwhile, or not ours to change: it keeps its priority.
      }
    }
  }
}

/**
 * The Pagefind API of lane `lane`. The package keeps one service process per
 * module instance, so each lane after the first loads its own instance
 * (the same file under another URL) and so gets a process of its own.
 */
async function pagefindLane(lane: number): Promise<PagefindApi> {
  if (lane === 0) return pagefind;
  return (await import(/* @vite-ignore */ `${pagefindEntry()}?lane=${lane}`)) as PagefindApi;
}

let entry: string | undefined;
/** The file URL of the package's entry, found as Node finds it: in the nearest `node_modules/pagefind` up from here. */
function pagefindEntry(): string {
  if (entry) return entry;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'node_modules', 'pagefind', 'package.json');
    if (fs.existsSync(manifest)) {
      const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: { '.': { import: string } } };
      // The real path: a test runner given a link's path with a query may not find the file.
      return (entry = pathToFileURL(fs.realpathSync(path.join(path.dirname(manifest), exports['.'].import))).href);
    }
    if (path.dirname(dir) === dir) throw new InternalError('SEARCH_INDEX_FAILED', 'The pagefind package is not installed: run npm install.');
  }
}

/** Throws when Pagefind reported errors. */
function check<T extends { errors: string[] }>(what: string, response: T): T {
  if (response.errors.length > 0) throw new InternalError('SEARCH_INDEX_FAILED', `Pagefind ${what} failed: ${response.errors.join('; ')}`);
  return response;
}

/**
 * The records of one shard: each published translation in `shard.language`
 * of the given (public) articles. URLs lose the origin, so the index works
 * on any host.
 */
export function searchRecords(articles: readonly SearchableArticle[], shard: Shard): SearchRecord[] {
  const records: SearchRecord[] = [];
  for (const article of articles) {
    if (article.channel.slug !== shard.channel) continue;
    const t = article.translations.find((x) => x.language === shard.language);
    if (!t) continue;
    records.push({ url: rootRelative(t.htmlUrl), title: t.title, text: t.text, language: t.language });
  }
  return records;
}

function rootRelative(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Writes a file by temp + rename, unless it already holds these bytes. */
function writeAtomic(file: string, content: string | Buffer): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  try {
    if (fs.readFileSync(file).equals(bytes)) return;
  } catch {
    // Missing: write it.
  }
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(temp, bytes);
  fs.renameSync(temp, file);
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** The file that names a bundle's other files (their names carry their content's hash): placed last. */
const BUNDLE_ENTRY = 'pagefind-entry.json';

/**
 * Moves a freshly written bundle's files over an existing one, file by
 * file: a file that already holds the same bytes is left as it is (Pagefind
 * rewrites every file of a bundle, most of them identical); a changed or new
 * one is renamed into place; the entry file comes last, so a reader that
 * loads it finds every file it names; files the new bundle lacks go after
 * it. A reader never meets a missing file, as with a swap of the folder.
 */
export function placeBundle(fresh: string, target: string): void {
  const files = filesUnder(fresh).sort((a, b) => Number(a === BUNDLE_ENTRY) - Number(b === BUNDLE_ENTRY));
  for (const file of files) {
    const from = path.join(fresh, file);
    const to = path.join(target, file);
    try {
      if (fs.readFileSync(to).equals(fs.readFileSync(from))) continue;
    } catch {
      // Missing: placed below.
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.renameSync(from, to);
  }
  const kept = new Set(files);
  for (const file of filesUnder(target)) if (!kept.has(file)) fs.rmSync(path.join(target, file), { force: true });
  // Folders the new bundle no longer has (deepest first), when empty.
  const dirs = (fs.readdirSync(target, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isDirectory()).map((e) => path.join(e.parentPath, e.name));
  for (const dir of dirs.sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // Not empty.
    }
  }
}

/** Removes the staging folders (`{pid}-{hex}`) of processes that no longer run, and anything else left there. */
function removeStaleStaging(stagingRoot: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(stagingRoot);
  } catch {
    return; // none yet
  }
  for (const entry of entries) {
    const pid = /^(\d+)-[0-9a-f]+$/.exec(entry)?.[1];
    // A running process's folder (this one's included: another indexer of it may be at work) is left alone.
    if (pid !== undefined && processRuns(Number(pid))) continue;
    fs.rmSync(path.join(stagingRoot, entry), { recursive: true, force: true });
  }
}

/** Every shard whose bundle is complete on disk (`pagefind-entry.json` present) under `outputDir`, in key order. */
export function shardsOnDisk(outputDir: string): Shard[] {
  const root = path.join(outputDir, SEARCH_FOLDER);
  const shards: Shard[] = [];
  const dirs = (dir: string) => {
    try {
      return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('_') && !e.name.startsWith('.'));
    } catch {
      return [];
    }
  };
  for (const channel of dirs(root)) {
    for (const folder of dirs(path.join(root, channel.name))) {
      if (!fs.existsSync(path.join(root, channel.name, folder.name, 'pagefind-entry.json'))) continue;
      const dot = folder.name.lastIndexOf('.');
      const language = dot < 0 ? folder.name : folder.name.slice(0, dot);
      const part = dot < 0 ? -1 : Number(folder.name.slice(dot + 1));
      if (LANG_SEGMENT.test(language) && Number.isSafeInteger(part)) shards.push({ channel: channel.name, language, part });
    }
  }
  return shards.sort((a, b) => (shardKey(a) < shardKey(b) ? -1 : shardKey(a) > shardKey(b) ? 1 : 0));
}

/**
 * Creates the indexer over `{outputDir}/pagefind/`. `lanes`: Pagefind
 * processes indexing at once (default 2; a publish's rebuild touches one or
 * two shards, a full rebuild every one).
 */
export function createSearchIndexer(deps: { outputDir: string; log: Logger; lanes?: number }): SearchIndexer {
  const laneCount = Math.max(1, deps.lanes ?? 2);
  const root = path.join(deps.outputDir, SEARCH_FOLDER);
  // Each indexer stages in a folder of its own: `npm run build` and a running server index the same output
  // (issue 40: one indexer's start deleted the other's shards in the making). Leftovers of a crash mid-swap are
  // the folders of processes that no longer run.
  const stagingRoot = path.join(root, STAGING);
  removeStaleStaging(stagingRoot);
  const staging = path.join(stagingRoot, `${process.pid}-${randomBytes(4).toString('hex')}`);

  const queue = createSerialQueue();
  const serial = <T>(work: () => Promise<T>): Promise<T> => queue.run(work);

  const existingShards = () => shardsOnDisk(deps.outputDir);

  function shardPages(shard: Shard): number | null {
    try {
      const entry = JSON.parse(fs.readFileSync(path.join(root, shardFolder(shard), BUNDLE_ENTRY), 'utf8')) as { languages?: Record<string, { page_count?: unknown }> };
      const counts = Object.values(entry.languages ?? {}).map((l) => l.page_count);
      return counts.every((n) => typeof n === 'number') ? (counts as number[]).reduce((sum, n) => sum + n, 0) : null;
    } catch {
      return null;
    }
  }

  /** Writes `shards.json` from what is on disk, so it never lists a missing bundle. */
  function writeListing(): void {
    const listing: ShardListing[] = existingShards().map((s) => ({ channel: s.channel, language: s.language, part: s.part, bundlePath: `${shardFolder(s)}/` }));
    fs.mkdirSync(root, { recursive: true });
    writeAtomic(path.join(root, 'shards.json'), `${JSON.stringify(listing, null, 2)}\n`);
  }

  /**
   * Replaces (or removes, when `fresh` is null) a shard's folder. A shard
   * built before keeps every file whose bytes did not change (`placeBundle`),
   * so a build with nothing new leaves its files, their mtimes and the
   * hosts' ETags as they were.
   */
  function swap(shard: Shard, fresh: string | null): void {
    const target = path.join(root, shardFolder(shard));
    if (fresh && fs.existsSync(target)) {
      placeBundle(fresh, target);
      fs.rmSync(fresh, { recursive: true, force: true });
      return;
    }
    const old = path.join(staging, `old-${randomBytes(6).toString('hex')}`);
    // The staging folder goes after each rebuild; a rename into a missing one would look like a missing target.
    fs.mkdirSync(staging, { recursive: true });
    let moved = false;
    try {
      fs.renameSync(target, old);
      moved = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (fresh) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(fresh, target);
    } else {
      try {
        fs.rmdirSync(path.dirname(target)); // the channel folder, once its last language is gone
      } catch {
        // Not empty, or already gone.
      }
    }
    if (moved) fs.rmSync(old, { recursive: true, force: true });
  }

  async function buildShard(api: PagefindApi, shard: Shard, records: readonly SearchRecord[]): Promise<void> {
    if (records.length === 0) {
      swap(shard, null);
      return;
    }
    const fresh = path.join(staging, `new-${randomBytes(6).toString('hex')}`);
    const { index } = check('createIndex', await api.createIndex({ forceLanguage: shard.language }));
    if (!index) throw new InternalError('SEARCH_INDEX_FAILED', 'Pagefind createIndex returned no index.');
    lowerPagefindPriority();
    try {
      // Records are sent in batches without waiting for each answer: the Pagefind process reads them in
      // order, and a round trip per record was much of the time of adding them (docs/PERFORMANCE-HISTORY.md,
      // "Search records in flight").
      for (let i = 0; i < records.length; i += RECORDS_IN_FLIGHT) {
        const batch = records.slice(i, i + RECORDS_IN_FLIGHT);
        const answers = await Promise.all(batch.map((r) => index.addCustomRecord({ url: r.url, content: r.text, language: r.language, meta: { title: r.title } })));
        answers.forEach((answer, j) => check(`indexing ${batch[j]!.url}`, answer));
      }
      fs.mkdirSync(staging, { recursive: true });
      check('writeFiles', await index.writeFiles({ outputPath: fresh }));
    } catch (error) {
      fs.rmSync(fresh, { recursive: true, force: true });
      throw error;
    } finally {
      await index.deleteIndex();
    }
    // The UI is the same for every bundle; pages load it from the top of the folder.
    for (const file of UI_FILES) writeAtomic(path.join(root, file), fs.readFileSync(path.join(fresh, file)));
    swap(shard, fresh);
  }

  async function rebuildShards(shards: readonly Shard[], recordsFor: (shard: Shard) => Promise<readonly SearchRecord[]>): Promise<ShardRebuildReport> {
    const started = performance.now();
    const unique = [...new Map(shards.map((s) => [shardKey(s), { channel: s.channel, language: s.language, part: s.part }])).values()];
    for (const shard of unique) {
      if (!/^[a-z0-9-]+$/.test(shard.channel) || !LANG_SEGMENT.test(shard.language) || !Number.isSafeInteger(shard.part) || shard.part < -1) {
        throw new InternalError('INVARIANT_BROKEN', `Not a shard: ${shardKey(shard)}`);
      }
    }
    let pages = 0;
    let next = 0;
    let done = 0;
    let failed = false;
    const apis = await Promise.all(Array.from({ length: Math.min(laneCount, unique.length) }, (_, lane) => pagefindLane(lane)));
    // A long rebuild (a full index: minutes at 100,000 articles) says what it starts; its progress lines follow.
    if (unique.length >= 20) deps.log.info('search index', { shards: unique.length, processes: apis.length });
    // Each lane takes the next shard in order until none is left (or one failed: the rest are not started).
    // A lane asks for its next shard's records before indexing the one it holds, so the records are read
    // (on this thread) while Pagefind works, and the process does not wait for them between shards.
    const take = (): { shard: Shard; records: Promise<readonly SearchRecord[]> } | null => {
      if (failed || next >= unique.length) return null;
      const shard = unique[next++]!;
      const records = recordsFor(shard);
      records.catch(() => undefined); // awaited below; a lane that stops first must not leave it unhandled
      return { shard, records };
    };
    const lane = async (api: PagefindApi): Promise<void> => {
      for (let current = take(); current && !failed; ) {
        const { shard } = current;
        const shardStarted = performance.now();
        try {
          const records = await current.records;
          const upcoming = take();
          await buildShard(api, shard, records);
          // A new process for each shard: one that indexes shard after shard keeps growing (its allocator
          // keeps what it freed), and three of them weighed on a full build's peak, while a process starts in
          // milliseconds (docs/PERFORMANCE-HISTORY.md, issue 17's eighth session).
          await api.close();
          pages += records.length;
          done++;
          deps.log.debug('search shard rebuilt', { shard: shardKey(shard), pages: records.length, ms: Math.round(performance.now() - shardStarted) });
          // A line every tenth of a long rebuild (a full index of 100,000 articles takes minutes).
          if (unique.length >= 20 && done < unique.length && done % Math.ceil(unique.length / 10) === 0) {
            deps.log.info('search index progress', { shards: done, of: unique.length, pages, ms: Math.round(performance.now() - started) });
          }
          current = upcoming;
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    try {
      const results = await Promise.allSettled(apis.map(lane));
      const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (rejected) throw rejected.reason;
    } finally {
      writeListing();
      // This indexer's staging folder holds nothing once its shards are swapped in (or failed).
      fs.rmSync(staging, { recursive: true, force: true });
      // A Pagefind process holds every index in memory until closed; it restarts on the next call.
      await Promise.all(apis.map((api) => api.close()));
    }
    return { shards: unique.length, pages, ms: Math.round(performance.now() - started) };
  }

  function pairsForPaths(changedPaths: readonly string[]): { pairs: ShardPair[]; goneChannels: string[] } {
    const pairs = new Map<string, ShardPair>();
    const gone = new Set<string>();
    for (const p of changedPaths) {
      const parts = p.split('/');
      // The 404 pages are no search records.
      if (NOT_CHANNELS.has(parts[0]!) || !p.endsWith('.html') || p.endsWith(`/${NOT_FOUND_NAME}.html`)) continue;
      if (parts.length === 3) pairs.set(`${parts[0]}/${parts[1]}`, { channel: parts[0]!, language: parts[1]! });
      // A channel whose page is gone is no longer public: every shard of it goes.
      else if (parts.length === 2 && parts[1] === 'index.html' && !fs.existsSync(path.join(deps.outputDir, p))) gone.add(parts[0]!);
    }
    return { pairs: [...pairs.values()], goneChannels: [...gone] };
  }


  return {
    rebuildShards: (shards, recordsFor) => serial(() => rebuildShards(shards, recordsFor)),
    pairsForPaths,
    existingShards,
    shardPages,
    close: () => serial(async () => void (await Promise.all((await Promise.all(Array.from({ length: laneCount }, (_, lane) => pagefindLane(lane)))).map((api) => api.close())))),
  };
}
