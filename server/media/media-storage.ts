/**
 * The media folder on disk: uploaded images live in the data folder
 * (`{dataDir}/media`), since nothing could make them again (issue 40: they
 * lived in `dist/media`, lost with the output folder), and the output
 * folder holds a copy of each (`{outputDir}/media`, a hard link where the
 * two folders share a file system) for the static hosts and the bucket.
 * Every filesystem access of media goes through here, so these rules hold
 * everywhere:
 *
 * - a path can never leave the folder: names are checked segment by segment
 *   and the resolved path must stay under the root;
 * - a file is never half-written: bytes go to a temporary name in the same
 *   folder, are flushed, then renamed into place (atomic on one filesystem);
 * - the output's copy follows: written after the file, removed with it, and
 *   made equal to the data folder's at start (`publishAll`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { realFileInside } from '../output/output-writer.ts';
import type { MediaStorage } from '../domain/media/storage-port.ts';
import { InternalError } from '../internal-error.ts';

export type { MediaStorage } from '../domain/media/storage-port.ts';

// A segment starts with a letter, digit or underscore: no dot files (temporaries), no "..".
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/**
 * Resolves `name` under `root`, or returns null when it is not a plain relative
 * path of valid segments or would resolve outside `root`.
 * @example safeMediaPath('/srv/dist/media', 'news/_drafts/0a1b.webp') // '/srv/dist/media/news/_drafts/0a1b.webp'
 */
export function safeMediaPath(root: string, name: string): string | null {
  if (name.length === 0 || name.length > 1000 || name.includes('\\') || name.includes('\0')) return null;
  const segments = name.split('/');
  if (!segments.every((s) => SEGMENT.test(s) && !s.includes('..'))) return null;
  const base = path.resolve(root);
  const full = path.resolve(base, ...segments);
  return full.startsWith(base + path.sep) ? full : null;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** The media storage, and what the service does with its output copy at start. */
export interface PublishedMediaStorage extends MediaStorage {
  /**
   * Makes the output's copy equal to the data folder's: every file placed (linked, or copied across file
   * systems), every file the data folder lacks removed. Before that, a data folder without media while the
   * output has some (a site from before media moved) takes the output's files. Resolves with what it did.
   */
  publishAll(): Promise<{ adopted: number; placed: number; removed: number }>;
  /**
   * With a bucket that keeps uploads (`bucket-kept-media.ts`): fetches the
   * files of `files` the data folder lacks from it. Run before `publishAll`.
   */
  restore?(files: ReadonlyArray<{ file_name: string; feed_file_name: string | null; content_hash: string }>): Promise<MediaRestore>;
}

/** What a restore from the bucket did. */
export interface MediaRestore {
  /** Files fetched from the bucket into the data folder. */
  readonly restored: number;
  /** Files neither the data folder nor the bucket holds (or the bucket could not be read). */
  readonly missing: readonly string[];
  /** The first error the bucket answered, if any. */
  readonly failure?: string;
}

/** Temporary names of this module's writes: `.{name}.{pid}.{12 hex}.tmp` (dot files: no route serves them). */
function tempBeside(full: string): string {
  return path.join(path.dirname(full), `.${path.basename(full)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Stats a walk of the media folders has running at once. */
const STATS_AT_ONCE = 32;

/** Every file under `dir` by relative name (`/`-separated); temporaries and dot files left out. */
async function filesUnder(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return out;
    throw error;
  }
  const files = entries.filter((entry) => entry.isFile());
  // Many stats at once: one after another they took 0.9 s of every start for 2,000 images (issue 36).
  let next = 0;
  const statNext = async (): Promise<void> => {
    while (next < files.length) {
      const entry = files[next++]!;
      const full = path.join(entry.parentPath, entry.name);
      const rel = path.relative(dir, full).split(path.sep).join('/');
      if (rel.split('/').some((segment) => segment.startsWith('.'))) continue;
      const stat = await fs.lstat(full).catch(() => null);
      if (stat?.isFile()) out.set(rel, stat.size);
    }
  };
  await Promise.all(Array.from({ length: STATS_AT_ONCE }, statNext));
  return out;
}

/**
 * Creates the storage over `root` (created on the first write). With `published`, every file is also placed
 * under that folder (the output's `media/`) and removed from it with the original.
 */
export function createMediaStorage(root: string, published?: string): PublishedMediaStorage {
  const base = path.resolve(root);
  const copyBase = published === undefined ? null : path.resolve(published);

  /** Places the output's copy of `name` (a hard link, or the bytes across file systems), atomically. */
  async function publish(name: string): Promise<void> {
    if (!copyBase) return;
    const source = safeMediaPath(base, name)!;
    const target = safeMediaPath(copyBase, name)!;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = tempBeside(target);
    try {
      try {
        await fs.link(source, temp);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
        await fs.copyFile(source, temp);
      }
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async function unpublish(name: string): Promise<void> {
    if (copyBase) await fs.rm(safeMediaPath(copyBase, name)!, { force: true });
  }

  function resolveOrThrow(name: string): string {
    const full = safeMediaPath(base, name);
    if (!full) throw new InternalError('PATH_OUTSIDE_FOLDER', `Not a valid media file name: ${JSON.stringify(name)}`);
    return full;
  }

  async function exists(full: string): Promise<boolean> {
    return fs.stat(full).then((s) => s.isFile(), () => false);
  }

  async function writeAtomic(full: string, data: Uint8Array): Promise<void> {
    await fs.mkdir(path.dirname(full), { recursive: true });
    // A dot name is invisible to the file route and to readers of the final name.
    const temp = tempBeside(full);
    try {
      const handle = await fs.open(temp, 'wx');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, full);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  return Object.freeze({
    root: base,
    async write(name, data) {
      const full = resolveOrThrow(name);
      if (!(await exists(full))) await writeAtomic(full, data);
      await publish(name);
    },
    async copy(from, to) {
      const source = resolveOrThrow(from);
      const target = resolveOrThrow(to);
      if (!(await exists(target))) {
        let data: Buffer;
        try {
          data = await fs.readFile(source);
        } catch (error) {
          if (isMissing(error)) return false;
          throw error;
        }
        await writeAtomic(target, data);
      }
      await publish(to);
      return true;
    },
    exists: (name) => exists(resolveOrThrow(name)),
    async remove(name) {
      await fs.rm(resolveOrThrow(name), { force: true });
      await unpublish(name);
    },
    async sweep(folder, beforeMs, keep) {
      const dir = resolveOrThrow(folder);
      let entries: string[];
      try {
        entries = await fs.readdir(dir);
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return 0;
        throw error;
      }
      let removed = 0;
      for (const entry of entries) {
        // readdir names have no separator, so the path stays in `dir`.
        const full = path.join(dir, entry);
        const stat = await fs.stat(full).catch(() => undefined);
        if (!stat?.isFile() || stat.mtimeMs >= beforeMs || (await keep(entry))) continue;
        await fs.rm(full, { force: true });
        // A temporary name is no media name: only the data folder has it.
        if (safeMediaPath(base, `${folder}/${entry}`)) await unpublish(`${folder}/${entry}`);
        removed++;
      }
      return removed;
    },
    resolve: (name) => safeMediaPath(base, name),
    async resolveExisting(name) {
      const full = safeMediaPath(base, name);
      return full === null ? null : realFileInside(base, full);
    },
    async publishAll() {
      const done = { adopted: 0, placed: 0, removed: 0 };
      if (!copyBase) return done;
      const [found, shown] = await Promise.all([filesUnder(base), filesUnder(copyBase)]);
      let kept = found;
      if (kept.size === 0 && shown.size > 0) {
        // Media from before they moved into the data folder: the output's files become the originals.
        for (const name of shown.keys()) {
          if (!safeMediaPath(base, name)) continue;
          const target = safeMediaPath(base, name)!;
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.link(safeMediaPath(copyBase, name)!, target).catch(async () => writeAtomic(target, await fs.readFile(safeMediaPath(copyBase, name)!)));
          done.adopted++;
        }
        kept = await filesUnder(base);
      }
      for (const [name, size] of kept) {
        if (!safeMediaPath(base, name)) continue;
        if (shown.get(name) === size) continue;
        await publish(name);
        done.placed++;
      }
      for (const name of shown.keys()) {
        if (kept.has(name)) continue;
        await fs.rm(path.join(copyBase, ...name.split('/')), { force: true });
        done.removed++;
      }
      return done;
    },
  } satisfies PublishedMediaStorage);
}
