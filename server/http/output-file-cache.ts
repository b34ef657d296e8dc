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
import { realFileInside } from '../output/output-writer.ts';
import { etagOf } from './conditional-get.ts';

/** One file as served. */
export interface CachedFile {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Strong ETag from the content. */
  readonly etag: string;
  readonly mtime: Date;
  /** `mtime` as an HTTP date, made once. */
  readonly lastModified: string;
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
  /** Forgets files a build wrote or deleted (paths relative to the folder). */
  invalidate(paths: readonly string[]): void;
}

interface Entry extends CachedFile {
  readonly identity: string;
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

  const forget = (file: string) => {
    const entry = entries.get(file);
    if (!entry) return;
    bytes -= entry.bytes.byteLength;
    entries.delete(file);
  };

  async function load(relative: string, file: string, stat: fs.Stats): Promise<CachedFile> {
    const content = new Uint8Array(await fs.promises.readFile(file));
    const loaded: Entry = {
      bytes: content,
      etag: etagOf(content),
      mtime: stat.mtime,
      lastModified: stat.mtime.toUTCString(),
      identity: identityOf(stat),
      checkedAt: now(),
    };
    forget(relative);
    if (content.byteLength <= maxFileBytes) {
      entries.set(relative, loaded);
      bytes += content.byteLength;
      for (const [oldest] of entries) {
        if (bytes <= maxBytes) break;
        forget(oldest);
      }
    }
    return loaded;
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
      // Symbolic links are followed only while they stay inside the folder.
      const file = await realFileInside(root, resolved);
      const entry = entries.get(relative);
      const stat = file === null ? undefined : await fs.promises.stat(file).catch(() => undefined);
      if (!stat?.isFile()) {
        forget(relative);
        return null;
      }
      if (entry && entry.identity === identityOf(stat)) {
        entry.checkedAt = now();
        return entry;
      }
      return load(relative, file!, stat);
    },
    invalidate(paths) {
      for (const p of paths) forget(p);
    },
  };
}
