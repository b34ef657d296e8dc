/**
 * The media folder on disk (`{outputDir}/media`). Every filesystem access of
 * media goes through here, so two rules hold everywhere:
 *
 * - a path can never leave the folder: names are checked segment by segment
 *   and the resolved path must stay under the root;
 * - a file is never half-written: bytes go to a temporary name in the same
 *   folder, are flushed, then renamed into place (atomic on one filesystem).
 * @module
 */
import { randomBytes } from 'node:crypto';
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

/** Creates the storage over `root` (created on the first write). */
export function createMediaStorage(root: string): MediaStorage {
  const base = path.resolve(root);

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
    const temp = path.join(path.dirname(full), `.${path.basename(full)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
      if (await exists(full)) return;
      await writeAtomic(full, data);
    },
    async copy(from, to) {
      const source = resolveOrThrow(from);
      const target = resolveOrThrow(to);
      if (await exists(target)) return true;
      let data: Buffer;
      try {
        data = await fs.readFile(source);
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      await writeAtomic(target, data);
      return true;
    },
    exists: (name) => exists(resolveOrThrow(name)),
    async remove(name) {
      await fs.rm(resolveOrThrow(name), { force: true });
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
        removed++;
      }
      return removed;
    },
    resolve: (name) => safeMediaPath(base, name),
    async resolveExisting(name) {
      const full = safeMediaPath(base, name);
      return full === null ? null : realFileInside(base, full);
    },
  } satisfies MediaStorage);
}
