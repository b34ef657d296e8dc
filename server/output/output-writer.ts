/**
 * Writes files into the output folder so that no reader ever sees half a
 * file: write to a temporary name in the same folder, then rename. A file
 * whose bytes did not change is not touched, so its mtime (and a static
 * host's ETag) survives.
 * @module
 */
import { hash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { InternalError } from '../internal-error.ts';

/** The bytes of a rendered file (UTF-8 for text): encoded once, then hashed and written. */
export function outputBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

/** Content hash used in the manifest. */
export function hashContent(content: string | Uint8Array): string {
  // One call, no Hash object: a few per cent of the hashing of a cold build's ~120,000 small files.
  return hash('sha256', content, 'hex');
}

/** Resolves a relative output path, refusing anything that escapes the folder. */
export function resolveOutputPath(outputDir: string, relative: string): string {
  const target = path.resolve(outputDir, relative);
  const root = path.resolve(outputDir);
  if (target !== root && !target.startsWith(root + path.sep)) {
    throw new InternalError('PATH_OUTSIDE_FOLDER', `Refusing to write outside the output folder: ${relative}`);
  }
  return target;
}

/**
 * The real path of `file` when it exists and, with every symbolic link
 * followed, is still inside the real `root`; otherwise null. Readers of the
 * output folder (the server, the media files) use it so a link in `dist/`
 * never serves a file from elsewhere (`path.resolve` alone does not see links).
 */
export async function realFileInside(root: string, file: string): Promise<string | null> {
  return confinedTo(root)(file);
}

/**
 * `realFileInside` for one `root`, asked many times (every file the server
 * reads from disk): the root's real path is looked up once and kept, and
 * looked up again only when a file seems outside it (the folder itself
 * moved, or became a link to another), so each answer costs one `realpath`.
 */
export function confinedTo(root: string): (file: string) => Promise<string | null> {
  let realRoot: Promise<string> | null = null;
  const rootNow = () => (realRoot ??= fs.promises.realpath(root).catch((error: unknown) => {
    realRoot = null;
    throw error;
  }));
  const inside = (real: string, base: string) => real.startsWith(base + path.sep);
  return async (file) => {
    try {
      const [base, real] = await Promise.all([rootNow(), fs.promises.realpath(file)]);
      if (inside(real, base)) return real;
      realRoot = null;
      return inside(real, await rootNow()) ? real : null;
    } catch {
      return null; // missing, or a dangling link
    }
  };
}

/**
 * Whether `bytes` must be written to `relative`: false when the file already
 * holds exactly these bytes (the manifest's `knownHash` says so and the file
 * is there, or its bytes are equal).
 * @param hash `hashContent(bytes)`, when the caller has it already.
 */
export function needsWrite(outputDir: string, relative: string, bytes: Uint8Array, knownHash?: string, hash?: string): boolean {
  const target = resolveOutputPath(outputDir, relative);
  if (knownHash !== undefined && knownHash === (hash ?? hashContent(bytes)) && fs.existsSync(target)) return false;
  // A missing file answers undefined rather than an exception: a cold build asks this of some 120,000 new files.
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return true;
  try {
    // A file of another size differs: only one of the same size is read and compared.
    return stat.size !== bytes.byteLength || !fs.readFileSync(target).equals(bytes);
  } catch {
    return true; // gone since, or not a file
  }
}

/**
 * Temporary names: unique to this thread (its process, thread and a random start, so neither another
 * process nor a reused pid collides), then a count. Random bytes per file were a visible cost in a cold build.
 */
const TEMP_PREFIX = `${process.pid}-${threadId}-${randomBytes(4).toString('hex')}-`;
let tempCount = 0;

/** The next temporary name beside `target`: `{target}.{pid}-{thread}-{8 hex}-{count}.tmp`. */
export function nextTempName(target: string): string {
  return `${target}.${TEMP_PREFIX}${(tempCount++).toString(36)}.tmp`;
}

/** Writes `bytes` to `relative` through a temporary name in the same folder and a rename. */
export function writeAtomically(outputDir: string, relative: string, bytes: Uint8Array): void {
  const target = resolveOutputPath(outputDir, relative);
  const temp = nextTempName(target);
  try {
    try {
      fs.writeFileSync(temp, bytes);
    } catch (error) {
      // The folder is usually there already: create it only when missing (a stat per file cost more than the write).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(temp, bytes);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Makes `relative` a second name of `source` (a file of the output written in
 * this build with the same bytes): one `link`, no data written. A new name
 * appears whole, as a rename would make it. Later writes replace either name
 * with a new file (temp + rename), so the two never change together. Where
 * the name exists, or the file system has no hard links, the bytes are
 * written instead.
 * @returns true when linked, false when written.
 */
export function linkOrWrite(outputDir: string, source: string, relative: string, bytes: Uint8Array): boolean {
  const from = resolveOutputPath(outputDir, source);
  const target = resolveOutputPath(outputDir, relative);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.linkSync(from, target);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && attempt === 0 && fs.existsSync(from)) fs.mkdirSync(path.dirname(target), { recursive: true });
      else break;
    }
  }
  writeAtomically(outputDir, relative, bytes);
  return false;
}

/**
 * Writes `content` to `relative` unless the file already holds exactly these bytes.
 * @param knownHash the manifest's hash of the file, when recorded.
 * @param hash `hashContent(content)`, when the caller has it already.
 * @returns true when the file was written.
 */
export function writeIfChanged(outputDir: string, relative: string, content: string | Uint8Array, knownHash?: string, hash?: string): boolean {
  const bytes = outputBytes(content);
  if (!needsWrite(outputDir, relative, bytes, knownHash, hash)) return false;
  writeAtomically(outputDir, relative, bytes);
  return true;
}

/**
 * Deletes a file of the output and the folders it leaves empty.
 * @returns true when a file was deleted.
 */
export function removeOutput(outputDir: string, relative: string): boolean {
  const target = resolveOutputPath(outputDir, relative);
  if (!fs.existsSync(target)) return false;
  fs.rmSync(target, { force: true });
  const root = path.resolve(outputDir);
  for (let dir = path.dirname(target); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      break; // not empty
    }
  }
  return true;
}

/**
 * The temporary names of the output's writers: `{name}.{pid}-{thread}-{8 hex}-{count}.tmp` here
 * ({@link nextTempName}), `{name}.{12 hex}.tmp` in the search index, `.{name}.{pid}.{12 hex}.tmp` in the
 * media folder. (Until issue 40 this matched only the last two, so a killed build's files stayed.)
 */
export const TEMP_NAME = /\.(?:[0-9a-f]{12}|\d+-\d+-[0-9a-f]{8}-[0-9a-z]+)\.tmp$/;

/**
 * Deletes temporary files a killed writer left in the output folder (media and
 * search shards included), so they are never served or deployed. Only files
 * older than `minAgeMs` go: a build in another process may be writing one now.
 * The folder is read one directory at a time, with the entries' types from
 * the directory itself: `readdir({ recursive })` stats every entry on the
 * request thread (3.6 s of it at 10,000 × 2, ~160,000 files, delaying the
 * first answers after a start), so the service runs this once it answers
 * and no server serves a temporary name meanwhile (`TEMP_FILE_NAME`).
 * @returns the relative paths deleted.
 */
export async function removeStaleTempFiles(outputDir: string, minAgeMs = 60_000, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const dirs = [''];
  for (let relative = dirs.pop(); relative !== undefined; relative = dirs.pop()) {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(outputDir, relative), { withFileTypes: true });
    } catch {
      continue; // no output yet, or removed meanwhile
    }
    for (const entry of entries) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) dirs.push(name);
      if (!entry.isFile() || !TEMP_NAME.test(entry.name)) continue;
      const file = path.join(outputDir, name);
      const stat = await fs.promises.lstat(file).catch(() => null);
      if (!stat?.isFile() || now - stat.mtimeMs < minAgeMs) continue;
      await fs.promises.rm(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}
