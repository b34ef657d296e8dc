/**
 * Answers of the read API made on demand from an output file, kept on disk
 * while that file is the same file: the `include=html` documents (issue 36,
 * "every answer from a file, an index or a cache sized to the answer").
 *
 * An `include=html` document is the plain document's file with the stored
 * rendering added. Made again per request it cost four times the file it
 * extends (the file read and hashed, a row of the store, the links made
 * absolute, the JSON spliced and hashed again); kept in memory, a crawler
 * walking every article evicts each answer before it is asked again. So the
 * answer's bytes are written once to a file of their own here, with its
 * validators held in memory, and served from there while the document it was
 * made from is unchanged: the same file by inode, size and mtime
 * (`OutputFileCache.stamp`, the rule by which the output's own files are
 * known to be unchanged). A build that rewrites or deletes the document
 * changes that, so a kept answer is never other than the one the server would
 * make now; the document's file being current is also what makes its plain
 * form servable, so an answer kept here is served exactly while its plain
 * form is.
 *
 * The folder is a cache: emptied at each start (the answers are remade on
 * demand), bounded by `maxBytes` (least recently used go first). The most
 * recently used answers' bytes are also held in memory (`memoryBytes`), as
 * the output file cache holds the hot files, so a popular document costs no
 * read either.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { processRuns } from '../process-runs.ts';
import type { ConditionalBody } from './conditional-get.ts';

/** An answer kept on disk, as read back: the same `meta` object for as long as it is kept. */
export interface KeptFileAnswer {
  readonly body: ConditionalBody;
  /** Stable per kept answer (a key for what is derived once from its headers, as the fast path's). */
  readonly meta: object;
}

/** The store's operations. */
export interface AnswerFiles {
  /** The answer kept for `key`, when the output file it was made from is still the same file. */
  get(key: string): Promise<KeptFileAnswer | undefined>;
  /**
   * Keeps `body` for `key`, made from the output file `source.file` when it was the file `source.stamp` names.
   * Written in the background; until then (or when it cannot be) the answer is made again.
   */
  put(key: string, source: { readonly file: string; readonly stamp: string }, body: ConditionalBody): void;
  /**
   * Drops the answers made from these output files (a build wrote or deleted them): a withdrawn article's
   * documents leave the folder with its files, not when they are next asked for.
   */
  invalidate(files: readonly string[]): void;
  /** Bytes of kept answers on disk. */
  size(): number;
  /** Resolves when the writes and removals begun so far have ended (tests). */
  settled(): Promise<void>;
}

interface Entry {
  readonly file: string;
  readonly stamp: string;
  readonly path: string;
  /** The answer but its bytes: the `meta` every read of it gives back. */
  readonly meta: Omit<ConditionalBody, 'bytes'>;
  readonly byteLength: number;
}

/**
 * Creates the store in `dir`, emptying it (and removing what an earlier run left of a folder it was emptying).
 * @param stampOf the current identity of an output file (`OutputFileCache.stamp`), null when there is none
 */
export function createAnswerFiles(options: {
  dir: string;
  maxBytes: number;
  memoryBytes?: number;
  stampOf: (file: string) => Promise<string | null>;
  /** Told, once a run, that an answer could not be written (a full disk): answers are then made on demand. */
  onWriteFailed?: (error: unknown) => void;
}): AnswerFiles {
  const memoryBytes = options.memoryBytes ?? 32 * 1024 * 1024;
  const dir = path.resolve(options.dir);
  clearFolder(dir);
  // Map order is recency order: a hit moves its entry to the end.
  const entries = new Map<string, Entry>();
  // The keys kept for each output file (an article's document has one per spelling of its address).
  const keysOf = new Map<string, Set<string>>();
  const pending = new Set<Promise<void>>();
  // The bytes of the most recently used answers, least recently used first.
  const hot = new Map<Entry, Uint8Array<ArrayBuffer>>();
  let hotBytes = 0;
  let bytes = 0;
  let written = 0;
  let warned = false;

  const track = (work: Promise<unknown>) => {
    const tracked = work.then(
      () => undefined,
      () => undefined,
    ).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const unlink = (file: string) => track(fs.promises.unlink(file));
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysOf.get(entry.file);
    keys?.delete(key);
    if (keys?.size === 0) keysOf.delete(entry.file);
    bytes -= entry.byteLength;
    unlink(entry.path);
    cool(entry);
  };
  const cool = (entry: Entry) => {
    if (hot.delete(entry)) hotBytes -= entry.byteLength;
  };
  const warm = (entry: Entry, content: Uint8Array<ArrayBuffer>) => {
    cool(entry);
    if (content.byteLength > memoryBytes / 4) return;
    hot.set(entry, content);
    hotBytes += content.byteLength;
    for (const oldest of hot.keys()) {
      if (hotBytes <= memoryBytes) break;
      cool(oldest);
    }
  };

  async function read(entry: Entry): Promise<Uint8Array<ArrayBuffer> | null> {
    const handle = await fs.promises.open(entry.path, 'r').catch(() => null);
    if (!handle) return null;
    try {
      const content = new Uint8Array(entry.byteLength);
      let filled = 0;
      while (filled < content.byteLength) {
        const { bytesRead } = await handle.read(content, filled, content.byteLength - filled, filled);
        if (bytesRead === 0) return null;
        filled += bytesRead;
      }
      return content;
    } catch {
      return null;
    } finally {
      void handle.close().catch(() => undefined);
    }
  }

  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const stamp = await options.stampOf(entry.file);
      // Another answer may have replaced this one meanwhile: only this one is dropped.
      if (stamp !== entry.stamp) {
        if (entries.get(key) === entry) drop(key);
        return undefined;
      }
      const content = hot.get(entry) ?? (await read(entry));
      // Dropped (the bound, a newer answer) while it was being read: made again.
      if (!content) return undefined;
      if (entries.get(key) === entry) {
        entries.delete(key);
        entries.set(key, entry);
        warm(entry, content);
      }
      return { body: { ...entry.meta, bytes: content }, meta: entry.meta };
    },
    put(key, source, body) {
      if (body.bytes.byteLength > options.maxBytes / 4) return;
      const file = path.join(dir, `${(written++).toString(36)}.json`);
      const { bytes: content, ...rest } = body;
      const entry: Entry = { file: source.file, stamp: source.stamp, path: file, meta: rest, byteLength: content.byteLength };
      const write = fs.promises.writeFile(file, content, { flag: 'wx' }).then(
        () => {
          drop(key);
          entries.set(key, entry);
          keysOf.set(source.file, (keysOf.get(source.file) ?? new Set()).add(key));
          bytes += content.byteLength;
          warm(entry, content);
          for (const oldest of entries.keys()) {
            if (bytes <= options.maxBytes) break;
            drop(oldest);
          }
        },
        // A full disk or a folder removed under the server: the answer is made on demand instead.
        (error: unknown) => {
          unlink(file);
          if (!warned) options.onWriteFailed?.(error);
          warned = true;
        },
      );
      track(write);
    },
    invalidate(files) {
      for (const file of files) for (const key of keysOf.get(file) ?? []) drop(key);
    },
    size: () => bytes,
    async settled() {
      // A write's end may begin a removal (the answer it replaced, or what the bound drops).
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/**
 * Empties `dir` for a new run at once: it is renamed aside and removed in the background, with any folder an
 * earlier run renamed aside and did not finish removing (a cache of 100,000 answers takes a while to delete).
 */
function clearFolder(dir: string): void {
  const parent = path.dirname(dir);
  const aside = `${path.basename(dir)}.removing-`;
  fs.mkdirSync(parent, { recursive: true });
  try {
    fs.renameSync(dir, path.join(parent, `${aside}${process.pid}-${Date.now()}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(aside)) void fs.promises.rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

const PRIVATE_PREFIX = 'pressroom-answers-';

/**
 * A folder of kept answers of this process's own, under `tmpRoot` (a web instance's: the data folder's is the
 * server's), named for the process (`pressroom-answers-<pid>-XXXXXX`) and removed by its stop. A process killed
 * with SIGKILL cannot remove its folder, so each new one removes the folders of processes that no longer run.
 * At worst a pid taken again by another process keeps a dead folder until that process ends; a folder removed
 * under a live process (a /tmp shared across pid namespaces) only makes its answers per request, with a warning.
 */
export function privateAnswersDir(tmpRoot: string, exists: (pid: number) => boolean = processRuns): string {
  for (const name of fs.readdirSync(tmpRoot)) {
    const owner = /^pressroom-answers-(\d+)-/.exec(name);
    if (!owner || exists(Number(owner[1]))) continue;
    fs.rmSync(path.join(tmpRoot, name), { recursive: true, force: true });
  }
  return fs.mkdtempSync(path.join(tmpRoot, `${PRIVATE_PREFIX}${process.pid}-`));
}
