/**
 * The bundled server's memory of the output folder: file bytes with their
 * ETag and mtime, so a hot document is answered without touching the disk.
 *
 * Freshness: the builder in this process names every file it writes or
 * deletes (`invalidate`, wired to the build queue's reports), so its changes
 * show at once. Anything else that writes the folder (Pagefind's shards,
 * `npm run build` in another process) is seen within `revalidateMs`: an
 * entry older than that is checked with one `stat` (size, mtime, inode)
 * before it is used again. Least recently used entries go first once the
 * cache holds `maxBytes`; files larger than `maxFileBytes` are never kept.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { confinedTo } from '../output/output-writer.ts';
import { etagOf } from './conditional-get.ts';

/** One file as served. */
export interface CachedFile {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Strong ETag from the content. */
  readonly etag: string;
  readonly mtime: Date;
  /** `mtime` as an HTTP date, made once. */
  readonly lastModified: string;
  /** Which file this was (inode, size, mtime): the same while nothing replaced or changed it (`stamp`). */
  readonly stamp: string;
}

/** The cache's operations. */
export interface OutputFileCache {
  /**
   * The file at `relative` (forward slashes, inside the output folder), or
   * null when it does not exist or would resolve outside the folder.
   */
  get(relative: string): Promise<CachedFile | null>;
  /** The file at `relative` when it is in memory and fresh, without touching the disk; otherwise null (use `get`). */
  peek(relative: string): CachedFile | null;
  /**
   * The `stamp` the file at `relative` has now, or null when there is none: from memory when fresh, else one `stat`.
   * What was made from a file's bytes holds while its stamp is the same (`answer-files.ts`).
   */
  stamp(relative: string): Promise<string | null>;
  /** Forgets files a build wrote or deleted (paths relative to the folder). */
  invalidate(paths: readonly string[]): void;
}

interface Entry extends CachedFile {
  checkedAt: number;
}

const identityOf = (stat: fs.Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/** Creates the cache over `outputDir`. */
export function createOutputFileCache(
  outputDir: string,
  options: { maxBytes?: number; maxFileBytes?: number; revalidateMs?: number; now?: () => number } = {},
): OutputFileCache {
  const root = path.resolve(outputDir);
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  const revalidateMs = options.revalidateMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  // Keyed by the relative path as asked. Map order is recency order: a hit moves its entry to the end.
  const entries = new Map<string, Entry>();
  let bytes = 0;
  // Symbolic links are followed only while they stay inside the folder.
  const confined = confinedTo(root);

  const forget = (file: string) => {
    const entry = entries.get(file);
    if (!entry) return;
    bytes -= entry.bytes.byteLength;
    entries.delete(file);
  };

  /** Keeps `loaded` (a file small enough), forgetting the least recently used beyond the bound. */
  function keep(relative: string, loaded: Entry): void {
    forget(relative);
    if (loaded.bytes.byteLength > maxFileBytes) return;
    entries.set(relative, loaded);
    bytes += loaded.bytes.byteLength;
    for (const [oldest] of entries) {
      if (bytes <= maxBytes) break;
      forget(oldest);
    }
  }

  /**
   * Reads the file at `resolved` from disk: its real path is checked while it is opened, then the open file
   * is measured and read to its size, and closed after the answer. Three turns of the thread pool where
   * `realpath`, `stat` and `readFile` took seven: at 10,000 articles most reads miss the cache, and each
   * turn was a wait of the reader's and work of the request thread's.
   */
  async function load(relative: string, resolved: string): Promise<CachedFile | null> {
    const [real, handle] = await Promise.all([confined(resolved), fs.promises.open(resolved, 'r').catch(() => null)]);
    if (real === null || handle === null) {
      void handle?.close().catch(() => undefined);
      forget(relative);
      return null;
    }
    try {
      // The open file's own: a file replaced meanwhile (written to a temporary name, then renamed) is either one, whole.
      const stat = await handle.stat();
      if (!stat.isFile()) {
        forget(relative);
        return null;
      }
      const content = new Uint8Array(stat.size);
      let filled = 0;
      while (filled < content.byteLength) {
        const { bytesRead } = await handle.read(content, filled, content.byteLength - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const body = filled === content.byteLength ? content : content.slice(0, filled);
      const loaded: Entry = { bytes: body, etag: etagOf(body), mtime: stat.mtime, lastModified: stat.mtime.toUTCString(), stamp: identityOf(stat), checkedAt: now() };
      keep(relative, loaded);
      return loaded;
    } catch {
      forget(relative);
      return null; // gone or unreadable since it was opened
    } finally {
      void handle.close().catch(() => undefined);
    }
  }

  /** A fresh entry, moved to the most recent end; only paths that were confined when loaded are keys. */
  function fresh(relative: string): Entry | null {
    const entry = entries.get(relative);
    if (!entry || now() - entry.checkedAt >= revalidateMs) return null;
    entries.delete(relative);
    entries.set(relative, entry);
    return entry;
  }

  return {
    peek: fresh,
    async get(relative) {
      const hit = fresh(relative);
      if (hit) return hit;
      const resolved = path.resolve(root, relative);
      if (!resolved.startsWith(root + path.sep)) return null;
      const entry = entries.get(relative);
      if (entry) {
        // Kept but due for a check: one `stat` beside the link check says whether it is still the same file.
        const [real, stat] = await Promise.all([confined(resolved), fs.promises.stat(resolved).catch(() => undefined)]);
        if (real === null || !stat?.isFile()) {
          forget(relative);
          return null;
        }
        if (entry.stamp === identityOf(stat)) {
          entry.checkedAt = now();
          return entry;
        }
      }
      return load(relative, resolved);
    },
    async stamp(relative) {
      const hit = fresh(relative);
      if (hit) return hit.stamp;
      const resolved = path.resolve(root, relative);
      if (!resolved.startsWith(root + path.sep)) return null;
      const stat = await fs.promises.stat(resolved).catch(() => undefined);
      return stat?.isFile() ? identityOf(stat) : null;
    },
    invalidate(paths) {
      for (const p of paths) forget(p);
    },
  };
}
